import type pg from 'pg';
import type { EventCodec } from '../event-codec.ts';
import type { EventStore } from '../event-store.port.ts';
import { createNotificationListener } from './notification-listener.ts';
import { createPostgresEventAppender } from './postgres-event-appender.ts';
import { createPostgresEventReader } from './postgres-event-reader.ts';

export type PostgresEventStoreOptions = {
  readonly pool: pg.Pool;
  readonly codec: EventCodec;
  /** Opens a dedicated connection for LISTEN (wake-up hints). */
  readonly connect: () => Promise<pg.Client>;
  /** Appends written in one transaction at most (group commit). */
  readonly maxBatch?: number;
  /** Batches in flight at once; while they run, new appends queue up and form the next batch. */
  readonly maxInFlight?: number;
  /** Events queued before a second batch starts beside one in flight (append-batches.ts, decision 0037). */
  readonly parallelBatchEvents?: number;
  readonly onListenError?: (error: unknown) => void;
  /** Cross-process wake-ups are sent at most this often (default 5 ms); tests stretch it to force an interleaving. */
  readonly notifyIntervalMs?: number;
};

/**
 * The event store on PostgreSQL: appending (postgres-event-appender.ts), reading
 * (postgres-event-reader.ts), and the wake-ups that tell subscribers of appends.
 */
export const createPostgresEventStore = (options: PostgresEventStoreOptions): EventStore => {
  const { pool, codec } = options;
  const listener = createNotificationListener({ connect: options.connect, channel: 'es_appended', onError: options.onListenError });
  const localListeners = new Set<() => void>();
  // The backend processes of this store's pool: whose NOTIFYs are this process's own.
  const ownBackends = new Set<number>();
  const remember = (client: pg.PoolClient) => {
    const pid = (client as unknown as { processID?: number }).processID;
    if (typeof pid === 'number') ownBackends.add(pid);
  };
  // (A stand-in pool of a unit test has no events: nothing is then filtered.)
  if (typeof pool.on === 'function') {
    pool.on('connect', remember);
    pool.on('acquire', remember);
    // A closed connection's pid may next belong to another process's connection, whose NOTIFYs count.
    pool.on('remove', (client) => {
      const pid = (client as unknown as { processID?: number }).processID;
      if (typeof pid === 'number') ownBackends.delete(pid);
    });
  }
  const appender = createPostgresEventAppender({
    pool,
    codec,
    limits: {
      maxBatch: options.maxBatch ?? 256,
      maxInFlight: options.maxInFlight ?? 2,
      parallelBatchEvents: options.parallelBatchEvents ?? 32,
    },
    onAppended: () => {
      for (const wake of localListeners) wake();
    },
    notifyIntervalMs: options.notifyIntervalMs,
  });
  const reader = createPostgresEventReader({ pool, codec });

  return {
    append: appender.append,
    readStream: reader.readStream,
    readAll: reader.readAll,
    headPosition: reader.headPosition,

    onAppended(subscriber) {
      // Appends of this process wake its subscribers at once; LISTEN brings those of other processes.
      localListeners.add(subscriber);
      // A NOTIFY sent by one of this pool's own connections announces an append this process has
      // already told its subscribers of: a second wake-up would only make every woken loop read again.
      const unsubscribe = listener.subscribe((_payload, senderPid) => {
        if (senderPid === null || !ownBackends.has(senderPid)) subscriber();
      });
      return () => {
        localListeners.delete(subscriber);
        unsubscribe();
      };
    },

    async close() {
      appender.close();
      await listener.close();
    },
  };
};
