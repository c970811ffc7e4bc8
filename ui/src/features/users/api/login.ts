import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { forgetSubscriptionHere } from '../../../lib/push.ts';
import { session } from '../../../lib/session.ts';

/** spec §7 POST /auth/login: usernameOrEmail (lowercased) and password, with the social identity waiting to be bound when there is one. */
export type LoginInput = { usernameOrEmail: string; password: string; oauthEmail?: string; oauthPlatform?: string; oauthToken?: string };

/** A session, or (second factor on) the token the 2FA screen continues with (spec §4). */
export type LoginAnswer = { authToken: string } | { secondFactorAuth: { authToken: string } };

/** Returns the answer without storing anything. */
export const requestToken = async (input: LoginInput) =>
  api<LoginAnswer>('POST', '/auth/login', {
    body: {
      usernameOrEmail: input.usernameOrEmail.trim().toLowerCase(),
      password: input.password,
      ...(input.oauthEmail ? { oauthEmail: input.oauthEmail } : {}),
      ...(input.oauthPlatform ? { oauthPlatform: input.oauthPlatform } : {}),
      ...(input.oauthToken ? { oauthToken: input.oauthToken } : {}),
    },
  });

/** Logs in; a session's token is stored, a second-factor answer is returned for the 2FA screen. */
export const login = async (input: LoginInput) => {
  const result = await requestToken(input);
  if ('authToken' in result) session.setToken(result.authToken);
  return result;
};

export const useLogin = () => useMutation({ mutationFn: login });

/** spec §7 POST /auth/logout: errors are ignored; the session goes either way. */
export const logout = async () => {
  await forgetSubscriptionHere();
  try {
    await api('POST', '/auth/logout');
  } catch {
    // The server may already have forgotten the session; the browser forgets it below.
  }
  session.clear();
};

/**
 * Leaving "log in as": the impersonation session ends on the server and the admin's own jwt comes
 * back (kept by the login-as guard). Returns false when there was none to come back to.
 */
export const leaveImpersonation = async () => {
  try {
    await api('POST', '/auth/logout');
  } catch {
    // As with logout: the session may already be gone.
  }
  return session.restoreRealToken() !== null;
};
