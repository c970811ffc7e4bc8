import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { z } from 'zod';
import { ApiError } from './api-client.ts';

type Errors = Record<string, string | undefined>;

/**
 * Form state validated by the same zod rule the API uses (domain/**\/*.rules.ts), so the messages
 * match; the server's field errors land on their fields too.
 */
export const useZodForm = <Schema extends z.ZodType>(rule: Schema, initial: z.input<Schema>) => {
  const [values, setValues] = useState<z.input<Schema>>(initial);
  const [errors, setErrors] = useState<Errors>({});
  /** Puts the API's field errors on the form; returns the message of errors without a field. */
  const serverErrors = (error: unknown): string | null => {
    if (!(error instanceof ApiError)) return null;
    const next: Errors = {};
    const general: string[] = [];
    for (const item of error.errors) {
      if (item.field) next[item.field] ??= item.message;
      else general.push(item.message);
    }
    setErrors(next);
    return general[0] ?? (Object.keys(next).length > 0 ? null : error.message);
  };
  return {
    values,
    errors,
    reset: (next: z.input<Schema>) => {
      setValues(next);
      setErrors({});
    },
    set: <K extends keyof z.input<Schema>>(key: K, value: z.input<Schema>[K]) => {
      setValues((v) => ({ ...(v as object), [key]: value }) as z.input<Schema>);
      setErrors((e) => ({ ...e, [key as string]: undefined }));
    },
    /** The parsed value, or null after showing the field messages. */
    validate: (): z.output<Schema> | null => {
      const parsed = rule.safeParse(values);
      if (parsed.success) {
        setErrors({});
        return parsed.data;
      }
      const next: Errors = {};
      for (const issue of parsed.error.issues) next[issue.path.map(String).join('.')] ??= issue.message;
      setErrors(next);
      return null;
    },
    serverErrors,
    /** A mutation's `onError`: the API's field errors on their fields, an error without a field as a red notification. */
    notifyServerErrors: (error: unknown) => {
      const message = serverErrors(error);
      if (message) notifications.show({ color: 'red', message });
    },
  };
};
