/**
 * Push notifications to people's browsers (issue 16 item 4; DESIGN §10 "Web Push with generated
 * VAPID keys"). The port knows nothing of the platform: a message is a title, a body and the path
 * (with its query) the platform opens when the notification is tapped.
 */
export type PushMessage = {
  readonly title: string;
  readonly body: string;
  /** Where a tap leads: a path of the platform with its query, e.g. `/izobrazevanja/12?vir=obvestilo`. */
  readonly path: string;
  /** Notifications with the same tag replace each other on the device. */
  readonly tag?: string;
};

/** One browser's subscription (W3C Push API): the push service's endpoint and the browser's keys (base64url). */
export type PushDeviceAddress = { readonly endpoint: string; readonly p256dh: string; readonly auth: string };

/**
 * What the push service answered: taken (2xx), or the subscription is gone (404, 410: the browser
 * unsubscribed or expired; never send to it again). Anything else is thrown as a PushSendError and
 * the job retries.
 */
export type PushSendResult = { readonly outcome: 'delivered'; readonly statusCode: number } | { readonly outcome: 'gone'; readonly statusCode: number };

export class PushSendError extends Error {
  readonly statusCode: number | null;
  constructor(message: string, statusCode: number | null) {
    super(message);
    this.name = 'PushSendError';
    this.statusCode = statusCode;
  }
}

/**
 * Standard Web Push (RFC 8030 delivery, RFC 8291 aes128gcm encryption, RFC 8292 VAPID): the platform
 * keeps each browser's subscription and posts to its push service itself. Works without any third
 * party: the browser's own push service is the only other party.
 */
export type PushSender = {
  readonly provider: 'web-push';
  /** The VAPID public key (base64url, uncompressed P-256 point) browsers subscribe with. */
  readonly publicKey: string;
  /** Whether the platform may post to this endpoint (the configured push services only). */
  readonly accepts: (endpoint: string) => boolean;
  readonly send: (device: PushDeviceAddress, message: PushMessage, options?: { ttlSeconds?: number }) => Promise<PushSendResult>;
};

/**
 * What a provider that keeps the devices itself (OneSignal) would implement, per spec §7: "a push
 * provider registers an external user id with subscribe, unsubscribe and status". Its browser SDK
 * registers the person's external id (the platform's user id) on subscribe and removes it on
 * unsubscribe; the platform asks its status and sends by external id, never by endpoint. Not built
 * (decision 0024): no adapter calls OneSignal, and the platform runs on `PushSender` alone.
 */
export type ExternalIdPushProvider = {
  readonly provider: 'onesignal';
  /** The app id the browser SDK is initialised with. */
  readonly appId: string;
  readonly subscribe: (externalUserId: string) => Promise<void>;
  readonly unsubscribe: (externalUserId: string) => Promise<void>;
  readonly status: (externalUserId: string) => Promise<{ readonly subscribed: boolean; readonly devices: number }>;
  readonly sendToUser: (externalUserId: string, message: PushMessage) => Promise<{ readonly delivered: number }>;
};
