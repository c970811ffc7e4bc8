import { z } from 'zod';

/**
 * A browser's Web Push subscription as `PushSubscription.toJSON()` gives it (W3C Push API; RFC 8030
 * endpoint, RFC 8291 keys), shared by the API and the UI. The endpoint is the push service's address
 * for one browser of one person (personal data, decision 0019); `p256dh` is the browser's P-256
 * public key (65 bytes uncompressed), `auth` its 16-byte secret, both base64url.
 */
export const PUSH_ENDPOINT_MAX = 2048;
/** A person's browsers kept at once; a new one beyond this replaces the oldest. */
export const PUSH_DEVICES_MAX = 10;

const INVALID_ENDPOINT = 'Naslov naročnine na potisna obvestila ni veljaven.';
const INVALID_KEY = 'Ključ naročnine na potisna obvestila ni veljaven.';

const base64url = (bytes: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, { error: INVALID_KEY })
    .refine((value) => decodedLength(value) === bytes, { error: INVALID_KEY });
const decodedLength = (value: string) => Math.floor((value.replace(/=+$/, '').length * 3) / 4);

/** An http(s) address without credentials: what a push service hands out. */
export const isPushEndpoint = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '' && url.hostname !== '';
  } catch {
    return false;
  }
};

export const pushSubscriptionRule = z.object({
  endpoint: z.string().trim().max(PUSH_ENDPOINT_MAX, { error: INVALID_ENDPOINT }).refine(isPushEndpoint, { error: INVALID_ENDPOINT }),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: base64url(65), auth: base64url(16) }),
});
export type PushSubscriptionInput = z.output<typeof pushSubscriptionRule>;

export const pushUnsubscribeRule = z.object({
  endpoint: z.string().trim().max(PUSH_ENDPOINT_MAX, { error: INVALID_ENDPOINT }).refine(isPushEndpoint, { error: INVALID_ENDPOINT }),
});

/**
 * Whether the platform may send to this endpoint: its origin is one of the configured push services
 * (`https://fcm.googleapis.com`, or `https://*.notify.windows.com` for any host under that name). An
 * endpoint is written by the browser, so by whoever controls it: without this the server could be
 * made to post to any address it can reach.
 */
export const endpointAllowed = (endpoint: string, origins: readonly string[]) => {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  return origins.some((origin) => {
    const wildcard = /^(https?:)\/\/\*\.(.+)$/.exec(origin);
    if (wildcard) return url.protocol === wildcard[1] && url.port === '' && url.hostname.endsWith(`.${wildcard[2]}`);
    try {
      return new URL(origin).origin === url.origin;
    } catch {
      return false;
    }
  });
};

/** The push services of the browsers in use (Chrome and Edge through FCM, Firefox, Windows, Safari). */
export const KNOWN_PUSH_SERVICES = [
  'https://fcm.googleapis.com',
  'https://updates.push.services.mozilla.com',
  'https://*.push.services.mozilla.com',
  'https://*.notify.windows.com',
  'https://web.push.apple.com',
] as const;
