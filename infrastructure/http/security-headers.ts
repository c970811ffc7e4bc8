import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's response headers for these options, worked out once. @fastify/helmet built helmet's
 * middleware on every request (its directives parsed and dashified each time: about 2.5 % of a
 * participant read's CPU in the courses bench's profile); with a policy that depends on nothing in
 * the request (no nonces, no functions), the headers are the same for every response.
 */
export const securityHeaders = (options: HelmetOptions): ReadonlyMap<string, string> => {
  const headers = new Map<string, string>();
  const collector = {
    setHeader: (name: string, value: string | number | readonly string[]) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  let finished = false;
  helmet(options)({} as IncomingMessage, collector as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    finished = true;
  });
  // helmet's middleware runs synchronously when no directive is a function; anything else would be per request.
  if (!finished) throw new Error('helmet did not finish synchronously: its options depend on the request');
  return headers;
};
