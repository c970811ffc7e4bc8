import type { ChangeEvent } from 'react';

/** The slice of a useZodForm a text input needs: its value, its message and a way to set it. */
export type TextForm<K extends string> = {
  values: Record<K, string>;
  errors: Record<string, string | undefined>;
  set: (key: K, value: string) => void;
};

/** value, onChange and error of one text field of the form, to spread on a Mantine input. */
export const bindText = <K extends string>(form: TextForm<K>, key: K) => ({
  value: form.values[key],
  onChange: (event: ChangeEvent<HTMLInputElement>) => form.set(key, event.currentTarget.value),
  error: form.errors[key],
});
