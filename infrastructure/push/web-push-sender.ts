import webpush from 'web-push';
import { endpointAllowed } from '../../domain/push/push.rules.ts';
import { type PushDeviceAddress, type PushMessage, PushSendError, type PushSender } from './push.port.ts';
import type { VapidKeys } from './vapid-keys.ts';

/**
 * Standard Web Push with the platform's own VAPID keys: the `web-push` package encrypts the message
 * for the browser (aes128gcm, RFC 8291) and signs the VAPID header (RFC 8292); the request itself
 * goes out with fetch, so redirects are not followed and a slow push service times out. Only the
 * configured push services are posted to.
 */
export const createWebPushSender = (options: {
  keys: VapidKeys;
  /** A `mailto:` or `https:` address the push service may contact about the sender. */
  subject: string;
  allowedOrigins: readonly string[];
  timeoutMs?: number;
}): PushSender => {
  const accepts = (endpoint: string) => endpointAllowed(endpoint, options.allowedOrigins);
  const send = async (device: PushDeviceAddress, message: PushMessage, sendOptions: { ttlSeconds?: number } = {}) => {
    if (!accepts(device.endpoint)) throw new PushSendError('endpoint-not-allowed', null);
    const payload = JSON.stringify({ title: message.title, body: message.body, path: message.path, ...(message.tag ? { tag: message.tag } : {}) });
    const details = webpush.generateRequestDetails({ endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } }, payload, {
      vapidDetails: { subject: options.subject, publicKey: options.keys.publicKey, privateKey: options.keys.privateKey },
      TTL: sendOptions.ttlSeconds ?? 24 * 3600,
      contentEncoding: 'aes128gcm',
      urgency: 'normal',
    });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(details.headers)) if (name.toLowerCase() !== 'content-length') headers[name] = String(value);
    let response: Response;
    try {
      response = await fetch(details.endpoint, {
        method: 'POST',
        headers,
        body: details.body ? new Uint8Array(details.body) : null,
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      throw new PushSendError(`push service unreachable: ${(error as Error).message}`.slice(0, 200), null);
    }
    await response.arrayBuffer().catch(() => undefined);
    if (response.status >= 200 && response.status < 300) return { outcome: 'delivered', statusCode: response.status } as const;
    if (response.status === 404 || response.status === 410) return { outcome: 'gone', statusCode: response.status } as const;
    throw new PushSendError(`push service answered ${response.status}`, response.status);
  };
  return { provider: 'web-push', publicKey: options.keys.publicKey, accepts, send };
};
