/**
 * Push notifications in this browser (issue 16 item 4; spec §3 `disablePush`, §4 push prompt): the
 * push worker (`/push-sw.js`), the browser's subscription made with the platform's VAPID key, and the
 * API that keeps it for the signed-in person. Shared by the header's prompt and the profile's switch.
 */
import { api } from './api-client.ts';

export const PUSH_WORKER_URL = '/push-sw.js';
/** spec §9: the prompt comes about 2.5 s after load. */
export const PUSH_PROMPT_DELAY_MS = 2500;
/** spec §3 Local storage: 'true' once the person said no to push in this browser. */
const DISABLE_PUSH = 'disablePush';

export const pushDeclined = {
  get: () => {
    try {
      return localStorage.getItem(DISABLE_PUSH) === 'true';
    } catch {
      return false;
    }
  },
  set: () => localStorage.setItem(DISABLE_PUSH, 'true'),
  clear: () => localStorage.removeItem(DISABLE_PUSH),
};

/** Whether this browser can take push notifications at all (service worker, Push API, notifications). */
export const pushSupported = () => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

const scriptOf = (registration: ServiceWorkerRegistration) => (registration.active ?? registration.waiting ?? registration.installing)?.scriptURL;
/** Whether a service worker registration is the push worker (every other is removed at start, spec §9). */
export const isPushWorker = (registration: ServiceWorkerRegistration) => {
  const script = scriptOf(registration);
  return script ? new URL(script).pathname === PUSH_WORKER_URL : false;
};

/** The push worker's registration once it is active, registered first when it is not there. */
const pushRegistration = async () => {
  const existing = await navigator.serviceWorker.getRegistration('/');
  if (!existing || !isPushWorker(existing)) await navigator.serviceWorker.register(PUSH_WORKER_URL, { scope: '/' });
  return navigator.serviceWorker.ready;
};

/** This browser's subscription, when it has one through the push worker. */
export const currentSubscription = async (): Promise<PushSubscription | null> => {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration('/');
  if (!registration || !isPushWorker(registration)) return null;
  return registration.pushManager.getSubscription();
};

const bytesOf = (base64url: string) => {
  const text = atob(
    base64url
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(base64url.length / 4) * 4, '='),
  );
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
};
const sameKey = (a: ArrayBuffer | null | undefined, b: Uint8Array) => {
  if (!a || a.byteLength !== b.length) return false;
  const view = new Uint8Array(a);
  return view.every((byte, i) => byte === b[i]);
};

/** Keeps this browser's subscription for the signed-in person (the same again changes nothing on the server). */
export const saveSubscription = (subscription: PushSubscription) =>
  api<{ subscribed: boolean }>('POST', '/users/me/push-subscriptions', { body: subscription.toJSON() });

/**
 * Switches push on in this browser: forgets an earlier "no" (disablePush), asks the browser's
 * permission, subscribes with the platform's VAPID key (again, if the key changed) and hands the
 * subscription to the API. Answers 'denied' when the browser's permission is not given.
 */
export const subscribeHere = async (): Promise<'subscribed' | 'denied' | 'unsupported'> => {
  if (!pushSupported()) return 'unsupported';
  pushDeclined.clear();
  const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  const registration = await pushRegistration();
  const { publicKey } = await api<{ publicKey: string }>('GET', '/push/public-key');
  const key = bytesOf(publicKey);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options?.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  await saveSubscription(subscription);
  return 'subscribed';
};

/** Switches push off in this browser: the API forgets the subscription and the browser drops it. */
export const unsubscribeHere = async () => {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await api<{ removed: boolean }>('DELETE', '/users/me/push-subscriptions', { body: { endpoint: subscription.endpoint } });
  await subscription.unsubscribe();
};

/**
 * Signing out: the API forgets this browser for the person (the browser keeps its subscription), so
 * the next person on this browser does not see their notifications; whoever signs in next and allows
 * push takes it over. A failure does not hold the sign-out up.
 */
export const forgetSubscriptionHere = async () => {
  try {
    const subscription = await currentSubscription();
    if (subscription) await api<{ removed: boolean }>('DELETE', '/users/me/push-subscriptions', { body: { endpoint: subscription.endpoint } });
  } catch {
    // The session may be gone already; the browser is taken over at the next sign-in anyway.
  }
};
