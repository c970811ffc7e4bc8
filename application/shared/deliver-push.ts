import {
  type PushDeliveryEvent,
  type PushDeliveryState,
  pushDeliveryDecider,
  pushDeliveryStream,
  pushDevicesDecider,
  pushDevicesStream,
} from '../../domain/push/push.ts';
import { fold } from '../../domain/shared/decider.ts';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { Log } from '../../infrastructure/logging/log.port.ts';
import { type PushDeviceAddress, type PushMessage, PushSendError, type PushSender } from '../../infrastructure/push/push.port.ts';
import { handleCommand } from './handle-command.ts';

export type PushDeps = { readonly store: EventStore; readonly push: PushSender; readonly log: Log };

type About = { userId: number; kind: string; triggeredBy: string };

const record = (deps: Pick<PushDeps, 'store'>, messageId: string, event: PushDeliveryEvent) =>
  handleCommand(deps.store, {
    streamName: pushDeliveryStream(messageId),
    decider: pushDeliveryDecider,
    command: { type: 'Record', event },
    metadata: { actorId: null },
  });

/** What became of this push message so far: skipped, or the browsers it reached and those found gone. */
export const pushDeliveryState = async (deps: Pick<PushDeps, 'store'>, messageId: string): Promise<PushDeliveryState> =>
  fold(
    pushDeliveryDecider,
    (await deps.store.readStream(pushDeliveryStream(messageId))).events.map((e) => ({ type: e.type, data: e.data }) as PushDeliveryEvent),
  );

/** A push message that will not go to this person, and why (recorded once, so the history counts it). */
export const skipPush = (deps: Pick<PushDeps, 'store'>, messageId: string, about: About & { reason: string }) =>
  record(deps, messageId, { type: 'PushSkipped', data: about });

/**
 * Sends one message to a person's browsers and records each outcome (DESIGN §10). A browser already
 * reached, or found gone, is not sent it again, so a retried job sends only what is missing. A push
 * service's 404 or 410 means the browser unsubscribed: its subscription is removed and not retried.
 * Any other failure is recorded and thrown after the rest were tried, so the job retries with backoff.
 * The log names the message, the person and the answer, never the endpoint (personal data).
 */
export const deliverPush = async (
  deps: PushDeps,
  messageId: string,
  input: About & { message: PushMessage; devices: readonly (PushDeviceAddress & { subscriptionId: string })[]; attempt: number },
): Promise<{ delivered: number; gone: number }> => {
  const { userId, kind, triggeredBy } = input;
  const state = await pushDeliveryState(deps, messageId);
  let delivered = 0;
  let gone = 0;
  let lastError: Error | null = null;
  for (const device of input.devices) {
    if (state.delivered.includes(device.subscriptionId) || state.gone.includes(device.subscriptionId)) continue;
    const removed = async (error: string, statusCode: number | null) => {
      gone += 1;
      await record(deps, messageId, {
        type: 'PushFailed',
        data: { userId, kind, triggeredBy, subscriptionId: device.subscriptionId, attempt: input.attempt, error, statusCode, gone: true },
      });
      await handleCommand(deps.store, {
        streamName: pushDevicesStream(userId),
        decider: pushDevicesDecider,
        command: { type: 'RemoveGone', userId, subscriptionId: device.subscriptionId },
        metadata: { actorId: null },
      });
      deps.log.info({ push: messageId, userId, subscription: device.subscriptionId, statusCode }, 'push subscription gone: removed');
    };
    // An endpoint of a push service no longer configured is treated as gone: the browser subscribes again on its next visit.
    if (!deps.push.accepts(device.endpoint)) {
      await removed('endpoint-not-allowed', null);
      continue;
    }
    try {
      const result = await deps.push.send(device, input.message);
      if (result.outcome === 'gone') {
        await removed(`push service answered ${result.statusCode}`, result.statusCode);
        continue;
      }
      await record(deps, messageId, {
        type: 'PushDelivered',
        data: { userId, kind, triggeredBy, subscriptionId: device.subscriptionId, statusCode: result.statusCode },
      });
      delivered += 1;
      deps.log.info({ push: messageId, userId, kind, subscription: device.subscriptionId }, 'push sent');
    } catch (error) {
      const statusCode = error instanceof PushSendError ? error.statusCode : null;
      const reason = ((error as Error).message ?? 'unknown').slice(0, 300);
      await record(deps, messageId, {
        type: 'PushFailed',
        data: { userId, kind, triggeredBy, subscriptionId: device.subscriptionId, attempt: input.attempt, error: reason, statusCode, gone: false },
      }).catch(() => undefined);
      deps.log.warn({ push: messageId, userId, kind, subscription: device.subscriptionId, attempt: input.attempt, error: reason }, 'push failed');
      lastError = error as Error;
    }
  }
  if (lastError) throw lastError;
  return { delivered, gone };
};
