import type { z } from 'zod';
import type { passwordChangeRule, profileRule } from '../../../../../domain/users/user.rules.ts';
import { api } from '../../../lib/api-client.ts';

/**
 * The signed-in user's own account (issue 13): profile fields (1001), password and security
 * settings (1003), the e-mail change and reset links (1022, 1021), push preference, bound social
 * accounts, and the request to delete one's data (1002).
 */
export type ProfileInput = z.input<typeof profileRule>;
export type PasswordChangeInput = z.input<typeof passwordChangeRule>;

export const updateProfile = (input: ProfileInput) => api<{ id: number }>('PUT', '/users/me', { body: input });
export const changePassword = (input: PasswordChangeInput) => api<{ id: number }>('PUT', '/users/me/password', { body: input });
export const requestOwnPasswordReset = () => api<{ message: string }>('POST', '/users/me/password-reset');
export const requestEmailChange = (input: { email: string; password: string }) => api<{ message: string }>('POST', '/users/me/email-change', { body: input });
export const setSecondFactor = (input: { enabled: boolean; password: string }) => api<{ enabled: boolean }>('PUT', '/users/me/second-factor', { body: input });
/**
 * spec §7 POST /users/onesignal: the push preference as a number. The profile's switch stores 1 for
 * "on", the value spec §4's push prompt checks before re-enabling notifications; 0 is off.
 */
export const setPush = (enabled: boolean) => api<{ onesignalEnabled: number }>('POST', '/users/onesignal', { body: { onesignalEnabled: enabled ? 1 : 0 } });
export const requestDeletion = (reason: string) => api<{ message: string }>('POST', '/users/me/deletion-request', { body: { reason } });
/** Binding goes through the provider's pages: the answer is where to send the browser. */
export const startSocialBinding = (platform: 'google' | 'facebook') => api<{ url: string }>('POST', `/users/me/social/${platform}/bind`);
export const unbindSocial = (platform: 'google' | 'facebook') => api<void>('DELETE', `/users/me/social/${platform}`);

export type DeletionRequestItem = { id: number; fullName: string; username: string; email: string; requestedAt: string; reason: string | null };

/** The admins' queue of requests to delete one's data (1004). */
export const listDeletionRequests = () => api<{ items: DeletionRequestItem[] }>('GET', '/users/deletion-requests');
/** Deletes one's own account at once (1002), only while the delete-account feature is on. */
export const deleteOwnAccount = (password: string) => api<{ id: number }>('DELETE', '/users/me', { body: { password } });
