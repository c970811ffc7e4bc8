import { PasswordInput } from '@mantine/core';
import { bindText, type TextForm } from '../text-binding.ts';

/** The current password, bound to the form's `field`: the profile's password change and the e-mail change confirm with it. */
export const CurrentPasswordField = <K extends string>({ form, field, label }: { form: TextForm<K>; field: K; label: string }) => (
  <PasswordInput label={label} name={field} autoComplete="current-password" withAsterisk {...bindText(form, field)} />
);
