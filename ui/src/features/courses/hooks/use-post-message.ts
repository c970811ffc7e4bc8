import { useState } from 'react';
import { postMessageRule } from '../../../../../domain/courses/post.rules.ts';

/**
 * The text of a post being written, checked with the spec's rule (required, at most 5000
 * characters) before it is sent: the learner's forms and the team's reply share it.
 */
export const usePostMessage = (initial = '') => {
  const [message, setMessage] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  return {
    message,
    setMessage,
    error,
    setError,
    /** The checked message, or null after showing the rule's message on the field. */
    validate: (): string | null => {
      const parsed = postMessageRule.safeParse(message);
      if (!parsed.success) {
        setError(parsed.error.issues[0]?.message ?? null);
        return null;
      }
      return parsed.data;
    },
  };
};
