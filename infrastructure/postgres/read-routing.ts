import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import type { FastifyRequest } from 'fastify';
import pg from 'pg';
import type { DatabasePool } from 'slonik';
import { type AllPosition, comparePositions } from '../event-store/event-store.port.ts';
import type { Log } from '../logging/log.port.ts';
import { activeCheckpoints } from '../projections/generations.ts';
import type { ReadModelFreshness } from '../projections/projection.port.ts';
import { type Database, openDatabase } from './database.ts';

/**
 * GET routes' queries on PostgreSQL streaming replicas (decision 0067). Every request runs in a scope
 * (AsyncLocalStorage) that names its pool: a replica for a GET or HEAD of an API route not marked
 * `onPrimary`, the primary for everything else. The `slonik` and `pg` handles here are what feature
 * code is given: each call goes to the pool of the request it runs in, so application code does not
 * change. Outside a request (jobs, projections, start-up) they are the primary's.
 *
 * - Read-your-writes: `freshness()` answers a routed request's wait from the replica's own
 *   checkpoints (a read model's rows and its checkpoint replicate in one transaction); past
 *   READ_WAIT_MS, or when the replica's lag is longer than the time left, the request moves to the
 *   primary and waits there.
 * - A replica that cannot be reached, is not replaying, or lags more than `maxLagMs` gets no reads
 *   until the health check (every `checkEveryMs`) finds it well again. A query failing on a replica
 *   for such a reason is run again on the primary and the rest of the request stays there: the user
 *   sees no error. So is a write on a replica (a GET route that writes and is not marked `onPrimary`;
 *   it is logged so it gets marked) and a query cancelled by a recovery conflict.
 * - A replica's statement has `statementTimeoutMs` (REPLICA_STATEMENT_TIMEOUT_MS): one stuck there (waiting
 *   on a lock replay holds, or on a connection that hangs) is run again on the primary, without a limit.
 * - Counted for /api/metrics: reads per pool, moves to the primary by reason, each replica's lag.
 */
export type ReadRouting = {
  /** Runs a request's hooks and handler in its scope (Fastify onRequest), and again after its body is read (preValidation). */
  readonly requestScope: {
    readonly enter: (request: FastifyRequest, next: () => void) => void;
    readonly resume: (request: FastifyRequest, next: () => void) => void;
  };
  readonly slonik: DatabasePool;
  readonly pg: pg.Pool;
  /** The primary's read-your-writes wait, answered by the replica for a request routed to one. */
  readonly freshness: <F extends ReadModelFreshness>(primary: F) => ReadModelFreshness;
  /** True inside a request whose queries go to a replica (in-process caches stamped by the primary's runner must not keep its reads). */
  readonly onReplica: () => boolean;
  readonly metrics: () => string;
  readonly status: () => readonly ReplicaStatus[];
  /** Runs one health check of every replica now. */
  readonly check: () => Promise<void>;
  readonly close: () => Promise<void>;
};

export type ReplicaStatus = {
  readonly replica: number;
  readonly up: boolean;
  readonly lagMs: number | null;
  readonly lagBytes: number | null;
  readonly lastError: string | null;
};

/**
 * `busy`: the replica's pool had no connection free in time (its queue, not the server): that request moves, the replica stays in.
 * `timeout`: a statement ran past REPLICA_STATEMENT_TIMEOUT_MS there (cancelled by the server, or no answer came at all).
 */
export type FallbackReason = 'down' | 'lagging' | 'wait' | 'write' | 'conflict' | 'busy' | 'timeout';

type ReplicaState = {
  readonly index: number;
  readonly url: string;
  /** Its pools, opened once it first answers (opening them queries it: a replica down at start must not stop the platform). */
  db: Database | null;
  opening: Promise<Database> | null;
  up: boolean;
  lagMs: number | null;
  lagBytes: number | null;
  lastError: string | null;
  checker: pg.Client | null;
};

type Route = { replica: ReplicaState | null };

const lsnValue = (lsn: string) => {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
};

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
const CONNECTION_MESSAGES =
  /Connection terminated|connection timeout|Client has encountered a connection error|Backend has been terminated|the database system is (starting up|shutting down|in recovery mode)|Connection is not queryable/i;

/** Why a replica's query failed, when running it on the primary instead is the answer; null: a real error of the query. */
export const failureOf = (error: unknown): FallbackReason | null => {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const current = queue.shift() as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown } | null;
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const code = typeof current.code === 'string' ? current.code : '';
    const message = typeof current.message === 'string' ? current.message : '';
    if (code === '25006') return 'write';
    if (/conflict with recovery/i.test(message)) return 'conflict';
    if (/timeout exceeded when trying to connect/i.test(message)) return 'busy';
    // 57014 is also a cancel asked for (pg_cancel_backend): that one is the query's own.
    if ((code === '57014' && !/due to user request/i.test(message)) || /Query read timeout/i.test(message)) return 'timeout';
    if (CONNECTION_CODES.has(code) || code.startsWith('08') || CONNECTION_MESSAGES.test(message)) return 'down';
    queue.push(current.cause);
    if (Array.isArray(current.errors)) queue.push(...current.errors);
  }
  return null;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const createReadRouting = (options: {
  readonly primary: Database;
  /** The replicas' connection strings, and how their pools are opened. */
  readonly replicas: readonly string[];
  readonly open: (url: string) => Promise<Database>;
  /** Reads leave a replica whose replay is further behind than this. */
  readonly maxLagMs: number;
  readonly checkEveryMs: number;
  /** The replica pools' statement timeout (0: none); a call that has no answer a second past it is given up here too. */
  readonly statementTimeoutMs?: number;
  readonly log: Log;
}): ReadRouting => {
  const { primary, log } = options;
  const scope = new AsyncLocalStorage<Route>();
  const resources = new WeakMap<FastifyRequest, AsyncResource>();
  const replicas: ReplicaState[] = options.replicas.map((url, i) => ({
    index: i + 1,
    url,
    db: null,
    opening: null,
    // Unknown until the first check, which start-up runs before any request.
    up: false,
    lagMs: null,
    lagBytes: null,
    lastError: null,
    checker: null,
  }));
  const reads = new Map<string, number>();
  const fallbacks = new Map<FallbackReason, number>();
  const count = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);
  let turn = 0;
  /** When the primary's WAL reached each position (sampled by the health checks): a replica's lag is the age of the oldest WAL it lacks. */
  const samples: { at: number; lsn: bigint }[] = [];

  const pick = (): ReplicaState | null => {
    const usable = replicas.filter((r) => r.up);
    if (usable.length === 0) {
      count(fallbacks, replicas.some((r) => r.lagMs !== null && r.lastError === null) ? 'lagging' : 'down');
      return null;
    }
    turn = (turn + 1) % usable.length;
    return usable[turn] as ReplicaState;
  };

  let wakeChecks: (() => void) | null = null;
  const leave = (route: Route, state: ReplicaState, reason: FallbackReason, error?: unknown) => {
    count(fallbacks, reason);
    if (route.replica === state) route.replica = null;
    if (reason === 'down' && state.up) {
      state.up = false;
      state.lastError = (error as Error | undefined)?.message ?? reason;
      log.warn({ replica: state.index, err: error }, 'read replica unreachable: reads go to the primary until it answers again');
      wakeChecks?.();
    }
    // Stuck statements may be a replica going bad: the check looks at it now (its own query has a timeout of 2 s).
    if (reason === 'timeout') {
      log.warn({ replica: state.index, err: error }, 'a read on the replica ran past REPLICA_STATEMENT_TIMEOUT_MS: run again on the primary');
      wakeChecks?.();
    }
    if (reason === 'write') log.warn({ replica: state.index, err: error }, 'a GET route wrote through the read pool: mark it onPrimary (decision 0067)');
  };

  // The server cancels a statement at the timeout; a connection that hangs answers nothing, so the call is given up a second later.
  const guardMs = options.statementTimeoutMs ? options.statementTimeoutMs + 1000 : 0;
  const guarded = (call: Promise<unknown>): Promise<unknown> =>
    guardMs === 0
      ? call
      : new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`Query read timeout: the read replica gave no answer in ${guardMs} ms`)), guardMs);
          call.then(
            (value) => {
              clearTimeout(timer);
              resolve(value);
            },
            (error: unknown) => {
              clearTimeout(timer);
              reject(error);
            },
          );
        });

  /** A pool handle whose every call goes to the current request's pool; a replica's call that fails for a replica's reason runs again on the primary. */
  const routed = <T extends object>(primaryHandle: T, replicaHandle: (state: ReplicaState) => T): T =>
    new Proxy(primaryHandle, {
      get: (target, property) => {
        const route = scope.getStore();
        const state = route?.replica ?? null;
        const chosen = state ? replicaHandle(state) : target;
        const value = Reflect.get(chosen, property, chosen);
        if (typeof value !== 'function') return value;
        if (!route || !state) return value.bind(chosen);
        return (...args: unknown[]) => {
          const result = value.apply(chosen, args);
          if (!result || typeof (result as Promise<unknown>).then !== 'function') return result;
          return guarded(result as Promise<unknown>).then(undefined, (error: unknown) => {
            const reason = failureOf(error);
            if (!reason) throw error;
            leave(route, state, reason, error);
            return (Reflect.get(target, property, target) as (...a: unknown[]) => unknown).apply(target, args);
          });
        };
      },
    });

  const check = async (state: ReplicaState, primaryLsn: bigint | null) => {
    try {
      if (!state.checker) {
        const client = new pg.Client({
          connectionString: state.url,
          connectionTimeoutMillis: 2000,
          query_timeout: 2000,
          application_name: `medilearn:${process.pid}:replica-check`,
        });
        client.on('error', () => undefined);
        await client.connect();
        state.checker = client;
      }
      const row = (await state.checker.query('select pg_is_in_recovery() as recovery, pg_last_wal_replay_lsn()::text as replayed')).rows[0] as {
        recovery: boolean;
        replayed: string | null;
      };
      // Not in recovery: a promoted replica (it no longer receives the primary's writes) or a primary
      // named as a read URL. Neither is a standby of this primary: it takes no reads.
      if (!row.recovery) throw new Error('not a standby (pg_is_in_recovery() is false): DATABASE_READ_URL names standbys only');
      const replayed = row.replayed === null ? 0n : lsnValue(row.replayed);
      const now = Date.now();
      const first = samples[0];
      // How old the oldest WAL it lacks is. Unknown (the primary's position could not be read, or the
      // replica is behind even the first sample this process took, however old that WAL may be) counts
      // as lagging: a replica hours behind must not look caught up just because the process just started.
      const missing = samples.find((s) => s.lsn > replayed);
      state.lagMs = primaryLsn === null || !first || replayed < first.lsn ? Number.POSITIVE_INFINITY : missing ? now - missing.at : 0;
      state.lagBytes = primaryLsn === null || primaryLsn <= replayed ? 0 : Number(primaryLsn - replayed);
      if (!state.db) {
        state.opening ??= options.open(state.url).finally(() => {
          state.opening = null;
        });
        state.db = await state.opening;
      }
      const wasUp = state.up;
      state.lastError = null;
      state.up = state.lagMs <= options.maxLagMs;
      if (!wasUp && state.up) log.info({ replica: state.index }, 'read replica answers and is caught up: reads go to it');
      if (wasUp && !state.up) log.warn({ replica: state.index, lagMs: state.lagMs }, 'read replica lags: reads go to the primary');
    } catch (error) {
      await state.checker?.end().catch(() => undefined);
      state.checker = null;
      if (state.up) log.warn({ replica: state.index, err: error }, 'read replica unreachable: reads go to the primary until it answers again');
      state.up = false;
      state.lagMs = null;
      state.lagBytes = null;
      state.lastError = (error as Error).message ?? String(error);
    }
  };

  const checkAll = async () => {
    let primaryLsn: bigint | null = null;
    try {
      primaryLsn = lsnValue(String((await primary.pg.query('select pg_current_wal_lsn()::text as lsn')).rows[0].lsn));
      const now = Date.now();
      if (samples.length === 0 || (samples[samples.length - 1] as { lsn: bigint }).lsn !== primaryLsn) samples.push({ at: now, lsn: primaryLsn });
      // The newest sample stays, however old: an idle primary's position is still where it was.
      while (samples.length > 1 && (samples[0] as { at: number }).at < now - 10 * 60_000) samples.shift();
    } catch {
      // The primary's own trouble shows elsewhere; the replicas are still checked.
    }
    await Promise.all(replicas.map((state) => check(state, primaryLsn)));
  };

  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  const loop = async () => {
    timer = null;
    await checkAll();
    if (closed) return;
    timer = setTimeout(loop, options.checkEveryMs);
    timer.unref();
  };
  wakeChecks = () => {
    if (timer && !closed) {
      clearTimeout(timer);
      // Soon, not at once: a replica that is shutting down still answers for a moment.
      timer = setTimeout(loop, Math.min(200, options.checkEveryMs));
      timer.unref();
    }
  };
  const started = loop();

  return {
    requestScope: {
      enter: (request, next) => {
        const config = request.routeOptions.config;
        // Routes marked onPrimary (GETs that write; the platform's own health, metrics and version,
        // which a balancer asks every second) are neither routed nor counted as reads.
        const read = (request.method === 'GET' || request.method === 'HEAD') && Boolean(config.access) && !config.onPrimary;
        const route: Route = { replica: read ? pick() : null };
        if (read) count(reads, route.replica ? `replica-${route.replica.index}` : 'primary');
        scope.run(route, () => {
          // Hooks after the body is read run where the request's stream ended: they re-enter the scope (resume).
          resources.set(request, new AsyncResource('medilearn-read-route'));
          next();
        });
      },
      resume: (request, next) => {
        const resource = resources.get(request);
        if (resource) resource.runInAsyncScope(next);
        else next();
      },
    },
    slonik: routed(primary.slonik, (state) => (state.db as Database).slonik),
    pg: routed(primary.pg, (state) => (state.db as Database).pg),
    freshness: (primaryFreshness) => ({
      waitFor: async (names: readonly string[], position: AllPosition, timeoutMs: number) => {
        const route = scope.getStore();
        const state = route?.replica;
        if (!route || !state) return primaryFreshness.waitFor(names, position, timeoutMs);
        const deadline = Date.now() + timeoutMs;
        for (let polls = 1; ; polls++) {
          let behind: boolean;
          try {
            const rows = await activeCheckpoints((state.db as Database).slonik, names);
            behind = rows.some((row) => comparePositions({ commit: BigInt(row.checkpoint_commit), prepare: BigInt(row.checkpoint_prepare) }, position) < 0);
          } catch (error) {
            const reason = failureOf(error);
            if (!reason) throw error;
            leave(route, state, reason, error);
            return primaryFreshness.waitFor(names, position, Math.max(0, deadline - Date.now()));
          }
          if (!behind) return true;
          const remaining = deadline - Date.now();
          // Past READ_WAIT_MS, or further behind than the time left: the primary answers.
          if (remaining <= 0 || (state.lagMs ?? 0) > remaining) {
            leave(route, state, 'wait');
            return primaryFreshness.waitFor(names, position, Math.max(0, remaining));
          }
          await sleep(Math.min(25, 2 ** polls, remaining));
        }
      },
    }),
    onReplica: () => Boolean(scope.getStore()?.replica),
    status: () => replicas.map((r) => ({ replica: r.index, up: r.up, lagMs: r.lagMs, lagBytes: r.lagBytes, lastError: r.lastError })),
    check: async () => {
      await started;
      await checkAll();
    },
    metrics: () => {
      const lines = [
        '# HELP db_replica_up 1 while reads go to the replica (it answers, replays, and lags less than REPLICA_MAX_LAG_MS).',
        '# TYPE db_replica_up gauge',
        '# HELP db_replica_lag_seconds How long ago the primary wrote the oldest WAL the replica has not replayed (0: caught up; -1: unknown).',
        '# TYPE db_replica_lag_seconds gauge',
        '# HELP db_replica_lag_bytes WAL the primary has written and the replica has not replayed (-1: unknown).',
        '# TYPE db_replica_lag_bytes gauge',
      ];
      for (const r of replicas) {
        lines.push(`db_replica_up{replica="${r.index}"} ${r.up ? 1 : 0}`);
        lines.push(`db_replica_lag_seconds{replica="${r.index}"} ${r.lagMs === null ? -1 : Number.isFinite(r.lagMs) ? r.lagMs / 1000 : '+Inf'}`);
        lines.push(`db_replica_lag_bytes{replica="${r.index}"} ${r.lagBytes ?? -1}`);
      }
      lines.push('# HELP db_reads_total GET and HEAD requests by the pool they were sent to.', '# TYPE db_reads_total counter');
      for (const pool of ['primary', ...replicas.map((r) => `replica-${r.index}`)]) lines.push(`db_reads_total{pool="${pool}"} ${reads.get(pool) ?? 0}`);
      lines.push(
        '# HELP db_read_fallbacks_total Reads answered by the primary instead of a replica, by reason (down, lagging, wait: not caught up within READ_WAIT_MS, write, conflict, busy, timeout: past REPLICA_STATEMENT_TIMEOUT_MS).',
        '# TYPE db_read_fallbacks_total counter',
      );
      for (const reason of ['down', 'lagging', 'wait', 'write', 'conflict', 'busy', 'timeout'] as const)
        lines.push(`db_read_fallbacks_total{reason="${reason}"} ${fallbacks.get(reason) ?? 0}`);
      return `${lines.join('\n')}\n`;
    },
    close: async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      await started.catch(() => undefined);
      await Promise.allSettled(replicas.flatMap((r) => [r.checker?.end(), r.db?.close()]));
    },
  };
};

/** The replicas' pools and their routing, when DATABASE_READ_URL names any; null: every query on the primary, as before. */
export const openReadRouting = async (options: {
  readonly primary: Database;
  readonly replicas: { readonly urls: readonly string[]; readonly maxLagMs: number; readonly checkEveryMs: number; readonly statementTimeoutMs: number };
  readonly poolSize: number;
  readonly log: Log;
}): Promise<ReadRouting | null> => {
  const { urls, maxLagMs, checkEveryMs, statementTimeoutMs } = options.replicas;
  if (urls.length === 0) return null;
  // No warm connections, and opened by the first health check it answers: a replica down at start only sends reads to the primary.
  const open = (url: string) =>
    openDatabase(url, { poolSize: options.poolSize, applicationName: `medilearn:${process.pid}:read`, connectionTimeoutMs: 2000, statementTimeoutMs });
  const routing = createReadRouting({ primary: options.primary, replicas: urls, open, maxLagMs, checkEveryMs, statementTimeoutMs, log: options.log });
  await routing.check();
  return routing;
};
