import {
  ANY,
  BACKWARDS,
  END,
  type EventStoreDBClient,
  excludeSystemEvents,
  FORWARDS,
  jsonEvent,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import type { EventCodec } from '../event-codec.ts';
import {
  type AllPosition,
  type AllRead,
  ConcurrencyConflictError,
  comparePositions,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type RecordedEvent,
  START as START_POSITION,
} from '../event-store.port.ts';

/**
 * The EventStoreDB (KurrentDB) adapter, for deployments that outgrow one PostgreSQL. Read models
 * still live in PostgreSQL; the runner reads `$all` through `readAll` from its stored
 * {commit, prepare} checkpoint (never persistent subscriptions) and uses a catch-up subscription
 * only as a wake-up hint.
 */
type StoredMetadata = EventMetadata & { schemaVersion?: number };

type EsdbRecorded = {
  id: string;
  streamId: string;
  revision: bigint;
  type: string;
  created: Date;
  data: unknown;
  metadata: unknown;
  isJson: boolean;
  position?: { commit: bigint; prepare: bigint };
};

const toExpected = (expected: ExpectedRevision) => {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'stream_exists') return STREAM_EXISTS;
  return expected;
};

export const createEsdbEventStore = (options: {
  client: EventStoreDBClient;
  codec: EventCodec;
  onSubscriptionError?: (error: unknown) => void;
}): EventStore => {
  const { client, codec } = options;
  const listeners = new Set<() => void>();
  let subscription: { unsubscribe(): Promise<void> } | null = null;
  let closed = false;

  const toRecorded = (event: EsdbRecorded, position: AllPosition): RecordedEvent => {
    const { schemaVersion = 1, ...metadata } = (event.metadata ?? {}) as StoredMetadata;
    return {
      eventId: event.id,
      streamName: event.streamId,
      revision: event.revision,
      position,
      type: event.type,
      schemaVersion,
      data: codec.decode(event.type, schemaVersion, event.data),
      metadata,
      createdAt: event.created,
    };
  };

  const startSubscription = () => {
    if (subscription || closed) return;
    const sub = client.subscribeToAll({ fromPosition: END, filter: excludeSystemEvents() });
    sub.on('data', () => {
      for (const listener of listeners) listener();
    });
    sub.on('error', (error) => {
      options.onSubscriptionError?.(error);
      subscription = null;
      if (!closed) setTimeout(startSubscription, 500).unref();
    });
    subscription = sub;
  };

  return {
    async append(streamName, events, { expectedRevision }) {
      if (events.length === 0) throw new RangeError('Nothing to append');
      const data = events.map((event) => {
        const encoded = codec.encode(event.type, event.data);
        return jsonEvent({
          id: event.eventId,
          type: event.type,
          data: encoded.data as Record<string, unknown>,
          metadata: { ...event.metadata, schemaVersion: encoded.schemaVersion },
        });
      });
      try {
        const result = await client.appendToStream(streamName, data, { expectedRevision: toExpected(expectedRevision) });
        if (!result.position) throw new Error('EventStoreDB returned no position');
        return { nextRevision: result.nextExpectedRevision, position: { commit: result.position.commit, prepare: result.position.prepare } };
      } catch (error) {
        if (error instanceof WrongExpectedVersionError) {
          const actual = typeof error.actualVersion === 'bigint' ? error.actualVersion : 'no_stream';
          throw new ConcurrencyConflictError(streamName, expectedRevision, actual);
        }
        throw error;
      }
    },

    async readStream(streamName, options) {
      const from = options?.fromRevision;
      const events: RecordedEvent[] = [];
      try {
        for await (const resolved of client.readStream(streamName, { direction: FORWARDS, fromRevision: from ?? START })) {
          const event = resolved.event as EsdbRecorded | undefined;
          if (!event) continue;
          events.push(toRecorded(event, event.position ?? START_POSITION));
        }
      } catch (error) {
        if (error instanceof StreamNotFoundError) return { revision: 'no_stream', events: [] };
        throw error;
      }
      const last = events.at(-1);
      return { revision: last ? last.revision : 'no_stream', events };
    },

    async readAll(from, limit): Promise<AllRead> {
      const isStart = comparePositions(from, START_POSITION) === 0;
      const events: RecordedEvent[] = [];
      let read = 0;
      // The read starts at `from` inclusive, so one more than the limit is asked for.
      for await (const resolved of client.readAll({
        direction: FORWARDS,
        fromPosition: isStart ? START : from,
        maxCount: limit + 1,
      })) {
        read++;
        const event = resolved.event as EsdbRecorded | undefined;
        if (!event?.position) continue;
        if (comparePositions(event.position, from) <= 0) continue;
        if (event.type.startsWith('$') || event.streamId.startsWith('$')) continue;
        if (events.length === limit) return { events, hasMore: true };
        events.push(toRecorded(event, event.position));
      }
      return { events, hasMore: read > limit };
    },

    async headPosition() {
      for await (const resolved of client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 })) {
        const position = (resolved.event as EsdbRecorded | undefined)?.position;
        if (position) return { commit: position.commit, prepare: position.prepare };
      }
      return null;
    },

    onAppended(listener) {
      listeners.add(listener);
      startSubscription();
      return () => {
        listeners.delete(listener);
      };
    },

    async close() {
      closed = true;
      await subscription?.unsubscribe();
      await client.dispose();
    },
  };
};
