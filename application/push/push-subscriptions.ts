import { randomUUID } from 'node:crypto';
import type { PushSubscriptionInput } from '../../domain/push/push.rules.ts';
import { pushDevicesDecider, pushDevicesStream } from '../../domain/push/push.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { AllPosition, EventMetadata, EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { PushSender } from '../../infrastructure/push/push.port.ts';
import { holdersOfEndpoint, type PushReadDb } from '../../projections/push/push.queries.ts';
import { handleCommand } from '../shared/handle-command.ts';

export type PushSubscriptionDeps = { readonly store: EventStore; readonly db: PushReadDb; readonly push: PushSender };

const unsupportedService = () =>
  new DomainError('400', 'Ta brskalnik uporablja storitev za potisna obvestila, ki je platforma ne podpira.', { status: 400, field: 'endpoint' });

const later = (a: AllPosition | null, b: AllPosition | null) => b ?? a;

/**
 * Keeps a browser's subscription for the signed-in person (issue 16 item 4). Subscribing the same
 * browser again changes nothing, so the UI may sync it on every visit. One browser serves one person
 * at a time: an account that had it before (accounts switched on a shared browser) loses it, so its
 * notifications do not appear to the next person. Only endpoints of the configured push services are
 * taken.
 */
export const subscribePush = async (
  deps: PushSubscriptionDeps,
  userId: number,
  input: PushSubscriptionInput,
  userAgent: string | null,
  metadata: EventMetadata,
) => {
  if (!deps.push.accepts(input.endpoint)) throw unsupportedService();
  let position: AllPosition | null = null;
  for (const other of await holdersOfEndpoint(deps.db, input.endpoint, userId)) {
    const moved = await handleCommand(deps.store, {
      streamName: pushDevicesStream(other),
      decider: pushDevicesDecider,
      command: { type: 'Unsubscribe', userId: other, endpoint: input.endpoint, reason: 'moved' },
      metadata,
    });
    position = later(position, moved.position);
  }
  const result = await handleCommand(deps.store, {
    streamName: pushDevicesStream(userId),
    decider: pushDevicesDecider,
    command: {
      type: 'Subscribe',
      userId,
      subscriptionId: randomUUID(),
      endpoint: input.endpoint,
      p256dh: input.keys.p256dh,
      auth: input.keys.auth,
      userAgent: userAgent ? userAgent.slice(0, 300) : null,
    },
    metadata,
  });
  return { subscribed: true, position: later(position, result.position) };
};

/** Forgets a browser's subscription of the signed-in person (the browser unsubscribed, or push was switched off there). */
export const unsubscribePush = async (deps: Pick<PushSubscriptionDeps, 'store'>, userId: number, endpoint: string, metadata: EventMetadata) => {
  const result = await handleCommand(deps.store, {
    streamName: pushDevicesStream(userId),
    decider: pushDevicesDecider,
    command: { type: 'Unsubscribe', userId, endpoint, reason: 'user' },
    metadata,
  });
  return { removed: result.events.length > 0, position: result.position };
};
