import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';
import { PUSH_DEVICES_MAX } from './push.rules.ts';

/**
 * A person's browsers that receive push notifications (issue 16 item 4): each subscription a browser
 * hands out is `PushSubscribed` on the person's stream and ends with `PushUnsubscribed` and why (they
 * asked, the push service says it is gone, another account took the browser, or a newer one replaced
 * it). The endpoint and the keys are the person's data (decision 0019): encrypted with their key.
 */
export const pushDevicesStream = (userId: number) => `pushdevices-${userId}`;

export const UNSUBSCRIBE_REASONS = ['user', 'gone', 'moved', 'replaced'] as const;
export type UnsubscribeReason = (typeof UNSUBSCRIBE_REASONS)[number];

const ownerOf = (data: Readonly<Record<string, unknown>>) => (typeof data.userId === 'number' ? data.userId : null);

export const pushDeviceEvents = [
  defineEvent(
    'PushSubscribed',
    z.object({
      userId: z.number().int().positive(),
      subscriptionId: z.string(),
      // Personal fields: any string (the store validates the encrypted form, decision 0019).
      endpoint: z.string(),
      p256dh: z.string(),
      auth: z.string(),
      userAgent: z.string().nullable(),
    }),
    { personal: { fields: ['endpoint', 'p256dh', 'auth'], owner: ownerOf } },
  ),
  defineEvent('PushUnsubscribed', z.object({ userId: z.number().int().positive(), subscriptionId: z.string(), reason: z.enum(UNSUBSCRIBE_REASONS) })),
] as const;

export type PushDeviceEvent = EventsOf<typeof pushDeviceEvents>;
export type PushDevice = { readonly subscriptionId: string; readonly endpoint: string; readonly p256dh: string; readonly auth: string };
export type PushDevicesState = { readonly status: 'none' } | { readonly status: 'known'; readonly devices: readonly PushDevice[] };

export type PushDevicesCommand =
  | { type: 'Subscribe'; userId: number; subscriptionId: string; endpoint: string; p256dh: string; auth: string; userAgent: string | null }
  | { type: 'Unsubscribe'; userId: number; endpoint: string; reason: 'user' | 'moved' }
  | { type: 'RemoveGone'; userId: number; subscriptionId: string };

const devicesOf = (state: PushDevicesState) => (state.status === 'known' ? state.devices : []);

export const evolvePushDevices = (state: PushDevicesState, event: PushDeviceEvent): PushDevicesState => {
  switch (event.type) {
    case 'PushSubscribed': {
      const { subscriptionId, endpoint, p256dh, auth } = event.data;
      return { status: 'known', devices: [...devicesOf(state).filter((d) => d.subscriptionId !== subscriptionId), { subscriptionId, endpoint, p256dh, auth }] };
    }
    case 'PushUnsubscribed':
      return { status: 'known', devices: devicesOf(state).filter((d) => d.subscriptionId !== event.data.subscriptionId) };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};

const unsubscribed = (userId: number, subscriptionId: string, reason: UnsubscribeReason): PushDeviceEvent => ({
  type: 'PushUnsubscribed',
  data: { userId, subscriptionId, reason },
});

/**
 * Subscribing the same browser again changes nothing (the UI syncs its subscription on every visit);
 * the same endpoint with new keys replaces the old one, and beyond PUSH_DEVICES_MAX browsers the
 * oldest goes. Unsubscribing what is not there changes nothing either.
 */
export const decidePushDevices = (command: PushDevicesCommand, state: PushDevicesState): PushDeviceEvent[] => {
  const devices = devicesOf(state);
  switch (command.type) {
    case 'Subscribe': {
      const same = devices.find((d) => d.endpoint === command.endpoint);
      if (same && same.p256dh === command.p256dh && same.auth === command.auth) return [];
      const events: PushDeviceEvent[] = [];
      if (same) events.push(unsubscribed(command.userId, same.subscriptionId, 'replaced'));
      const others = devices.filter((d) => d !== same);
      for (const old of others.slice(0, Math.max(0, others.length - (PUSH_DEVICES_MAX - 1))))
        events.push(unsubscribed(command.userId, old.subscriptionId, 'replaced'));
      const { subscriptionId, userId, endpoint, p256dh, auth, userAgent } = command;
      events.push({ type: 'PushSubscribed', data: { userId, subscriptionId, endpoint, p256dh, auth, userAgent } });
      return events;
    }
    case 'Unsubscribe': {
      const found = devices.find((d) => d.endpoint === command.endpoint);
      return found ? [unsubscribed(command.userId, found.subscriptionId, command.reason)] : [];
    }
    case 'RemoveGone':
      return devices.some((d) => d.subscriptionId === command.subscriptionId) ? [unsubscribed(command.userId, command.subscriptionId, 'gone')] : [];
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
};

export const pushDevicesDecider: Decider<PushDevicesCommand, PushDeviceEvent, PushDevicesState> = {
  initialState: { status: 'none' },
  evolve: evolvePushDevices,
  decide: decidePushDevices,
};

/**
 * What became of one push message to one person (DESIGN §10): delivered to a browser, failed there
 * (with the attempt; a push service's 404 or 410 means the browser is gone), or skipped and why.
 * Stream `pushdelivery-<message id>`; a browser delivered to is never sent the message again, so a
 * retried job sends only what is still missing.
 */
export const pushDeliveryStream = (messageId: string) => `pushdelivery-${messageId}`;

const about = z.object({ userId: z.number().int().positive(), kind: z.string(), triggeredBy: z.string() });

export const pushDeliveryEvents = [
  defineEvent('PushDelivered', about.extend({ subscriptionId: z.string(), statusCode: z.number().int() })),
  defineEvent(
    'PushFailed',
    about.extend({
      subscriptionId: z.string(),
      attempt: z.number().int().min(1),
      error: z.string(),
      statusCode: z.number().int().nullable(),
      gone: z.boolean(),
    }),
  ),
  defineEvent('PushSkipped', about.extend({ reason: z.string() })),
] as const;

export type PushDeliveryEvent = EventsOf<typeof pushDeliveryEvents>;
export type PushDeliveryState = { readonly status: 'open' | 'skipped'; readonly delivered: readonly string[]; readonly gone: readonly string[] };
export type PushDeliveryCommand = { type: 'Record'; event: PushDeliveryEvent };

export const pushDeliveryDecider: Decider<PushDeliveryCommand, PushDeliveryEvent, PushDeliveryState> = {
  initialState: { status: 'open', delivered: [], gone: [] },
  evolve: (state, event) => {
    switch (event.type) {
      case 'PushDelivered':
        return { ...state, delivered: [...state.delivered, event.data.subscriptionId] };
      case 'PushFailed':
        return event.data.gone ? { ...state, gone: [...state.gone, event.data.subscriptionId] } : state;
      case 'PushSkipped':
        return { ...state, status: 'skipped' };
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  },
  decide: ({ event }, state) => {
    if (state.status === 'skipped') return [];
    if (event.type === 'PushSkipped') return state.delivered.length > 0 ? [] : [event];
    return state.delivered.includes(event.data.subscriptionId) || state.gone.includes(event.data.subscriptionId) ? [] : [event];
  },
};
