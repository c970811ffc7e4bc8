import { api } from '../../../lib/api-client.ts';

/** spec §7 POST /users/onesignal: the person's push preference, 1 on (what spec §4 re-enables), 0 off. */
export const setPushPreference = (onesignalEnabled: 0 | 1) => api<{ onesignalEnabled: number }>('POST', '/users/onesignal', { body: { onesignalEnabled } });
