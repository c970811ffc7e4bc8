import { PasswordInput } from '@mantine/core';
import { bindText, type TextForm } from '../text-binding.ts';

const KEYS = ['password', 'passwordConfirmation'] as const;

/**
 * A new password and its confirmation, bound to the form: the set, reset and registration pages
 * and the profile's password change ask for it the same way and differ only in labels and names.
 * The caller wraps the two inputs in its own layout.
 */
export const NewPasswordFields = ({
  form,
  labels,
  names = KEYS,
}: {
  form: TextForm<(typeof KEYS)[number]>;
  labels: readonly [password: string, confirmation: string];
  names?: readonly [password: string, confirmation: string];
}) => KEYS.map((key, i) => <PasswordInput key={key} label={labels[i]} name={names[i]} autoComplete="new-password" withAsterisk {...bindText(form, key)} />);
