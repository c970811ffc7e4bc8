import { useEffect, useRef, useState } from 'react';

export type LinkState<T> = { status: 'working' } | { status: 'done'; result: T } | { status: 'failed'; error: unknown } | { status: 'missing' };

/**
 * Runs a mail link's one-time action (confirm, e-mail change) once when the page opens. The ref
 * keeps React's development double-mount from spending the single-use token twice.
 */
export const useLinkOnce = <T>(token: string | null, action: (token: string) => Promise<T>): LinkState<T> => {
  const started = useRef(false);
  const [state, setState] = useState<LinkState<T>>(token ? { status: 'working' } : { status: 'missing' });
  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    action(token).then(
      (result) => setState({ status: 'done', result }),
      (error: unknown) => setState({ status: 'failed', error }),
    );
  }, [token, action]);
  return state;
};
