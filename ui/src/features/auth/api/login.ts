import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { session } from '../../../lib/session.ts';

export type LoginInput = { usernameOrEmail: string; password: string };

/** spec §7 POST /auth/login: the username or e-mail goes lowercased. Returns the token without storing it. */
export const requestToken = async (input: LoginInput) =>
  api<{ authToken: string }>('POST', '/auth/login', {
    body: { usernameOrEmail: input.usernameOrEmail.trim().toLowerCase(), password: input.password },
  });

export const login = async (input: LoginInput) => {
  const result = await requestToken(input);
  session.setToken(result.authToken);
  return result;
};

export const useLogin = () => useMutation({ mutationFn: login });

/** spec §7 POST /auth/logout: errors are ignored; the session goes either way. */
export const logout = async () => {
  try {
    await api('POST', '/auth/logout');
  } catch {
    // The server may already have forgotten the session; the browser forgets it below.
  }
  session.clear();
};
