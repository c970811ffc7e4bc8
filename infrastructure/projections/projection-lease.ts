import type pg from 'pg';
import type { Log } from '../logging/log.port.ts';
import type { Database } from '../postgres/database.ts';

/**
 * 32-bit key for pg_try_advisory_lock(int, int): the projection name, and the generation as second key.
 * In pg_locks the lock of projection `name`, generation `g` is locktype 'advisory', classid
 * `projectionLockKey(name) >>> 0`, objid `g`, objsubid 2; its backend's application_name names the
 * process (`medilearn:<pid>` under `npm start`, decision 0035).
 */
export const projectionLockKey = (name: string) => {
  let h = 0x811c9dc5;
  for (const c of `projection:${name}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
  return h | 0;
};

/**
 * Which generations this process runs: one process at a time runs a given generation, the one
 * holding its session advisory lock on the runner's lock connection.
 */
export type ProjectionLease = {
  /** Takes the lock of a generation unless another process holds it; true while this process holds it. */
  acquire(name: string, generation: number): Promise<boolean>;
  release(name: string, generation: number): Promise<void>;
  /** Whether this process holds the lock now (it went with a lost connection). */
  holds(name: string, generation: number): boolean;
  /** Ends the lock connection, and with it every lock. */
  close(): Promise<void>;
};

export type ProjectionLeaseOptions = {
  readonly db: Database;
  readonly log: Log;
  /** The lock connection was lost, and every lock with it. */
  readonly onLost: () => void;
};

export const createProjectionLease = ({ db, log, onLost }: ProjectionLeaseOptions): ProjectionLease => {
  let lockClient: pg.Client | null = null;
  let lockClientPromise: Promise<pg.Client> | null = null;
  const held = new Set<string>();

  const getLockClient = async (): Promise<pg.Client> => {
    if (lockClient) return lockClient;
    lockClientPromise ??= db.connect().then(
      (client) => {
        client.on('error', (error) => {
          log.warn({ err: error }, 'projection lock connection lost');
          // Every session lock went with the connection: each loop takes its lock again.
          if (lockClient === client) lockClient = null;
          held.clear();
          onLost();
          client.end().catch(() => undefined);
        });
        lockClient = client;
        lockClientPromise = null;
        return client;
      },
      (error) => {
        // Not kept: a connect refused while the server recovers from a crash would fail every later
        // acquire of every loop until the process restarted.
        lockClientPromise = null;
        throw error;
      },
    );
    return lockClientPromise;
  };

  // The loops share one lock connection; pg wants one query at a time on a client, so they queue.
  let lockQueue: Promise<unknown> = Promise.resolve();
  const onLockClient = <T>(run: (client: pg.Client) => Promise<T>): Promise<T> => {
    const next = lockQueue.then(async () => run(await getLockClient()));
    lockQueue = next.catch(() => undefined);
    return next;
  };

  return {
    async acquire(name, generation) {
      const key = `${name}:${generation}`;
      if (held.has(key)) return true;
      const result = await onLockClient((client) =>
        client.query<{ ok: boolean }>('select pg_try_advisory_lock($1, $2) as ok', [projectionLockKey(name), generation]),
      );
      if (result.rows[0]?.ok) held.add(key);
      return held.has(key);
    },

    holds: (name, generation) => held.has(`${name}:${generation}`),

    async release(name, generation) {
      const key = `${name}:${generation}`;
      if (!held.delete(key) || !lockClient) return;
      await onLockClient((client) => client.query('select pg_advisory_unlock($1, $2)', [projectionLockKey(name), generation])).catch(() => undefined);
    },

    async close() {
      const client = lockClient;
      lockClient = null;
      held.clear();
      await client?.end().catch(() => undefined);
    },
  };
};
