import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../tests/support/decider-spec.ts';
import { endpointAllowed, KNOWN_PUSH_SERVICES, PUSH_DEVICES_MAX, pushSubscriptionRule } from './push.rules.ts';
import { type PushDeliveryEvent, type PushDeviceEvent, pushDeliveryDecider, pushDevicesDecider } from './push.ts';

const key65 = Buffer.alloc(65, 4).toString('base64url');
const key16 = Buffer.alloc(16, 7).toString('base64url');
const subscribed = (subscriptionId: string, endpoint: string, p256dh = key65): PushDeviceEvent => ({
  type: 'PushSubscribed',
  data: { userId: 3, subscriptionId, endpoint, p256dh, auth: key16, userAgent: null },
});
const subscribe = (subscriptionId: string, endpoint: string, p256dh = key65) =>
  ({ type: 'Subscribe', userId: 3, subscriptionId, endpoint, p256dh, auth: key16, userAgent: null }) as const;

describe('a person’s push subscriptions', () => {
  const spec = deciderSpec(pushDevicesDecider);

  it('subscribes a browser once; the same endpoint with new keys replaces it', () => {
    spec
      .given([])
      .when(subscribe('s1', 'https://fcm.googleapis.com/fcm/send/a'))
      .thenExpect([subscribed('s1', 'https://fcm.googleapis.com/fcm/send/a')]);
    spec
      .given([subscribed('s1', 'https://fcm.googleapis.com/fcm/send/a')])
      .when(subscribe('s2', 'https://fcm.googleapis.com/fcm/send/a'))
      .thenExpect([]);
    const newKey = Buffer.alloc(65, 5).toString('base64url');
    spec
      .given([subscribed('s1', 'https://fcm.googleapis.com/fcm/send/a')])
      .when(subscribe('s2', 'https://fcm.googleapis.com/fcm/send/a', newKey))
      .thenExpect([
        { type: 'PushUnsubscribed', data: { userId: 3, subscriptionId: 's1', reason: 'replaced' } },
        subscribed('s2', 'https://fcm.googleapis.com/fcm/send/a', newKey),
      ]);
  });

  it('keeps at most PUSH_DEVICES_MAX browsers: a new one beyond them replaces the oldest', () => {
    const full = Array.from({ length: PUSH_DEVICES_MAX }, (_, i) => subscribed(`s${i}`, `https://fcm.googleapis.com/fcm/send/${i}`));
    spec
      .given(full)
      .when(subscribe('new', 'https://fcm.googleapis.com/fcm/send/new'))
      .thenExpect([
        { type: 'PushUnsubscribed', data: { userId: 3, subscriptionId: 's0', reason: 'replaced' } },
        subscribed('new', 'https://fcm.googleapis.com/fcm/send/new'),
      ]);
  });

  it('unsubscribes by endpoint, and removes a gone one by id; what is not there changes nothing', () => {
    const given = [subscribed('s1', 'https://fcm.googleapis.com/fcm/send/a')];
    spec
      .given(given)
      .when({ type: 'Unsubscribe', userId: 3, endpoint: 'https://fcm.googleapis.com/fcm/send/a', reason: 'user' })
      .thenExpect([{ type: 'PushUnsubscribed', data: { userId: 3, subscriptionId: 's1', reason: 'user' } }]);
    spec.given(given).when({ type: 'Unsubscribe', userId: 3, endpoint: 'https://fcm.googleapis.com/fcm/send/b', reason: 'user' }).thenExpect([]);
    spec
      .given(given)
      .when({ type: 'RemoveGone', userId: 3, subscriptionId: 's1' })
      .thenExpect([{ type: 'PushUnsubscribed', data: { userId: 3, subscriptionId: 's1', reason: 'gone' } }]);
    spec
      .given([...given, { type: 'PushUnsubscribed', data: { userId: 3, subscriptionId: 's1', reason: 'gone' } }])
      .when({ type: 'RemoveGone', userId: 3, subscriptionId: 's1' })
      .thenExpect([]);
  });
});

describe('one push message to one person', () => {
  const spec = deciderSpec(pushDeliveryDecider);
  const about = { userId: 3, kind: 'course-manual', triggeredBy: 'n1' };
  const delivered: PushDeliveryEvent = { type: 'PushDelivered', data: { ...about, subscriptionId: 's1', statusCode: 201 } };
  const failed = (gone: boolean): PushDeliveryEvent => ({
    type: 'PushFailed',
    data: { ...about, subscriptionId: 's1', attempt: 1, error: 'x', statusCode: gone ? 410 : 500, gone },
  });
  const skipped: PushDeliveryEvent = { type: 'PushSkipped', data: { ...about, reason: 'no-consent' } };

  it('is delivered to a browser once; a failure may be followed by a delivery, a gone browser by nothing', () => {
    spec.given([delivered]).when({ type: 'Record', event: delivered }).thenExpect([]);
    spec
      .given([failed(false)])
      .when({ type: 'Record', event: delivered })
      .thenExpect([delivered]);
    spec
      .given([failed(true)])
      .when({ type: 'Record', event: delivered })
      .thenExpect([]);
  });

  it('is skipped once, and not after it reached a browser', () => {
    spec.given([]).when({ type: 'Record', event: skipped }).thenExpect([skipped]);
    spec.given([skipped]).when({ type: 'Record', event: delivered }).thenExpect([]);
    spec.given([delivered]).when({ type: 'Record', event: skipped }).thenExpect([]);
  });
});

describe('push endpoints', () => {
  it('are taken from the configured push services only', () => {
    expect(endpointAllowed('https://fcm.googleapis.com/fcm/send/abc', KNOWN_PUSH_SERVICES)).toBe(true);
    expect(endpointAllowed('https://db5p.notify.windows.com/w/?token=x', KNOWN_PUSH_SERVICES)).toBe(true);
    expect(endpointAllowed('https://updates.push.services.mozilla.com/wpush/v2/x', KNOWN_PUSH_SERVICES)).toBe(true);
    expect(endpointAllowed('https://web.push.apple.com/QW', KNOWN_PUSH_SERVICES)).toBe(true);
    // Not another host, scheme or port, nor a name that only ends like one.
    expect(endpointAllowed('http://fcm.googleapis.com/fcm/send/abc', KNOWN_PUSH_SERVICES)).toBe(false);
    expect(endpointAllowed('https://fcm.googleapis.com:8443/fcm/send/abc', KNOWN_PUSH_SERVICES)).toBe(false);
    expect(endpointAllowed('https://evilnotify.windows.com/x', KNOWN_PUSH_SERVICES)).toBe(false);
    expect(endpointAllowed('https://notify.windows.com.evil.example/x', KNOWN_PUSH_SERVICES)).toBe(false);
    expect(endpointAllowed('http://127.0.0.1:8080/push', KNOWN_PUSH_SERVICES)).toBe(false);
    expect(endpointAllowed('http://127.0.0.1:8080/push', ['http://127.0.0.1:8080'])).toBe(true);
    expect(endpointAllowed('not a url', KNOWN_PUSH_SERVICES)).toBe(false);
  });

  it('take a browser’s subscription as PushSubscription.toJSON() gives it', () => {
    const ok = { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', expirationTime: null, keys: { p256dh: key65, auth: key16 } };
    expect(pushSubscriptionRule.safeParse(ok).success).toBe(true);
    expect(pushSubscriptionRule.safeParse({ ...ok, keys: { p256dh: key16, auth: key16 } }).success).toBe(false);
    expect(pushSubscriptionRule.safeParse({ ...ok, keys: { p256dh: key65, auth: 'a b' } }).success).toBe(false);
    expect(pushSubscriptionRule.safeParse({ ...ok, endpoint: 'https://user:pw@fcm.googleapis.com/x' }).success).toBe(false);
    expect(pushSubscriptionRule.safeParse({ ...ok, endpoint: 'javascript:alert(1)' }).success).toBe(false);
  });
});
