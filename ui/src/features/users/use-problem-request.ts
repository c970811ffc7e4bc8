import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';

/**
 * A form that sends one request and shows the server's message without a field above its submit
 * button (ProblemAndSubmit); field errors land on the fields. The reset and e-mail change pages.
 */
export const useProblemRequest = <Parsed>(
  form: { validate: () => Parsed | null; serverErrors: (error: unknown) => string | null },
  send: (parsed: Parsed) => Promise<unknown>,
  onSent: (parsed: Parsed) => void,
) => {
  const [problem, setProblem] = useState<string | null>(null);
  const request = useMutation({
    mutationFn: send,
    onSuccess: (_, parsed) => onSent(parsed),
    onError: (error) => setProblem(form.serverErrors(error)),
  });
  return {
    problem,
    pending: request.isPending,
    onSubmit: (event: FormEvent) => {
      event.preventDefault();
      setProblem(null);
      const parsed = form.validate();
      if (parsed) request.mutate(parsed);
    },
  };
};
