import type { z } from 'zod';
import type { registrationRule } from '../../../../../domain/users/user.rules.ts';
import { api } from '../../../lib/api-client.ts';
import { session } from '../../../lib/session.ts';

/**
 * The identity calls (issue 13). Those that end in a session store its token, as the login does.
 * Link tokens come from the `link` query of the pages the mails lead to.
 */
export type RegistrationInput = z.input<typeof registrationRule>;

const signedIn = (result: { authToken?: string }) => {
  if (result.authToken) session.setToken(result.authToken);
  return result;
};

export const register = async (input: RegistrationInput) =>
  signedIn(await api<{ message: string; authToken?: string }>('POST', '/auth/register', { body: input }));
export const confirmRegistration = async (token: string) => signedIn(await api<{ authToken: string }>('POST', '/auth/register/confirm', { body: { token } }));
export const resendConfirmation = (email: string) => api<{ message: string }>('POST', '/auth/register/resend', { body: { email } });
export const requestPasswordReset = (email: string) => api<{ message: string }>('POST', '/auth/password-reset', { body: { email } });
export const completePasswordReset = async (input: { token: string; password: string; passwordConfirmation: string }) =>
  signedIn(await api<{ authToken: string }>('POST', '/auth/password-reset/complete', { body: input }));
export const confirmEmailChange = (token: string) => api<{ email: string }>('POST', '/auth/email-change/confirm', { body: { token } });
export const answerSecondFactor = async (input: { auth2FAToken: string; code: string; rememberMe: boolean }) =>
  signedIn(await api<{ authToken: string }>('POST', '/auth/2fa', { body: input }));
export const resendSecondFactor = (auth2FAToken: string) => api<{ auth2FAToken: string }>('POST', '/auth/2fa/resend', { body: { auth2FAToken } });
export const socialProviders = () => api<{ providers: { platform: 'google' | 'facebook'; available: boolean }[] }>('GET', '/auth/social');

/** Where the browser goes to sign in with a provider (a full page load: the provider's pages follow). */
export const socialStartUrl = (platform: 'google' | 'facebook', redirect: string) =>
  `/api/auth/social/${platform}/start?redirect=${encodeURIComponent(redirect)}`;
