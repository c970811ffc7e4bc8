import { Alert, Button, TextInput } from '@mantine/core';
import { bindText, type TextForm } from '../text-binding.ts';

/** An e-mail address bound to the form, as the reset, e-mail change and bind-email pages ask for it. */
export const EmailField = ({ form, label }: { form: TextForm<'email'>; label: string }) => (
  <TextInput label={label} name="email" type="email" autoComplete="email" withAsterisk {...bindText(form, 'email')} />
);

/** The end of a request form: the server's message without a field, if any, above the submit button. */
export const ProblemAndSubmit = ({ problem, loading, label }: { problem: string | null; loading: boolean; label: string }) => (
  <>
    {problem ? (
      <Alert color="red" role="alert">
        {problem}
      </Alert>
    ) : null}
    <Button type="submit" loading={loading}>
      {label}
    </Button>
  </>
);
