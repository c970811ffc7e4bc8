import type pg from 'pg';
import { sql } from 'slonik';
import { z } from 'zod';
import { type AllPosition, type AllRead, comparePositions, type EventStore, type RecordedEvent } from '../event-store/event-store.port.ts';
import type { Log } from '../logging/log.port.ts';
import type { Database } from '../postgres/database.ts';
import { activeCheckpoints, type Generation, prepareGenerations, schemaOf, startRebuild, switchTo, validateProjections } from './generations.ts';
import type { Projection, ReadModelFreshness } from './projection.port.ts';

export type ProjectionStatus = {
  readonly name: string;
  readonly generation: number;
  readonly building: boolean;
  readonly holdsLock: boolean;
  readonly checkpoint: AllPosition;
  readonly eventsApplied: number;
  readonly lastAppliedAt: Date | null;
  readonly lastError: string | null;
  readonly lastErrorAt: Date | null;
};

export type ProjectionRunner = ReadModelFreshness & {
  /**
   * A value that changes whenever what these read models return may have changed (a batch applied,
   * a lease taken or lost, a generation switched), or null when this process does not run them all:
   * the read models can then change without it knowing. What is derived from them may be kept while
   * the stamp stays the same.
   */
  changeStamp(names: readonly string[]): string | null;
  start(): Promise<void>;
  stop(): Promise<void>;
  status(): ProjectionStatus[];
  /** Blue/green rebuild of one projection from position zero; resolves once the new generation serves reads. */
  rebuild(name: string): Promise<{ eventsApplied: number; generation: number }>;
};

export type ProjectionRunnerOptions = {
  readonly db: Database;
  readonly store: EventStore;
  readonly projections: readonly Projection[];
  readonly log: Log;
  /** Events read per batch while following the head. */
  readonly batchSize?: number;
  /** Events read per batch while building a generation from zero. */
  readonly rebuildBatchSize?: number;
  /** Longest sleep without a wake-up hint before reading again. */
  readonly idlePollMs?: number;
  /** How often a process without the lock tries to take over (not woken by appends: standbys stay cheap). */
  readonly standbyPollMs?: number;
  /** How often lag is logged. 0 turns it off. */
  readonly lagLogIntervalMs?: number;
};

class GenerationSwitched extends Error {}
class CheckpointMoved extends Error {}

type Loop = {
  projection: Projection;
  generation: Generation;
  /** Where the loop has read to: every event up to it is applied or not the projection's. */
  checkpoint: AllPosition;
  /** The checkpoint as stored; behind `checkpoint` only by events the projection does not handle. */
  persisted: AllPosition;
  persistedAt: number;
  holdsLock: boolean;
  eventsApplied: number;
  lastAppliedAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  /** Set from a runner-wide counter whenever this loop's tables may have changed (changeStamp). */
  changeStamp: number;
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * A batch holding no event a projection handles moves its checkpoint in memory only; the stored
 * checkpoint follows at most this often, when the loop goes idle, before a generation switch and on
 * stop. Most batches of most projections are such batches, and a transaction per projection per
 * wake-up cost round trips and held every other loop's `$all` read below the read horizon (decision
 * 0002; docs/benchmarks.md, lag). A process that takes a projection over re-reads from the stored
 * checkpoint: only events the projection ignores, so nothing is applied twice.
 */
const CHECKPOINT_FLUSH_MS = 25;

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
 * Drives every projection: reads `$all` after the projection's checkpoint, applies a batch and
 * moves the checkpoint with compare-and-set in one transaction (over a batch it ignores, in memory
 * first: CHECKPOINT_FLUSH_MS, decision 0036). One process at a time runs a given
 * generation (session advisory lock); the compare-and-set keeps even an overlap exactly-once.
 */
export const createProjectionRunner = (options: ProjectionRunnerOptions): ProjectionRunner => {
  const { db, store, projections, log } = options;
  const batchSize = options.batchSize ?? 500;
  const rebuildBatchSize = options.rebuildBatchSize ?? 25_000;
  const idlePollMs = options.idlePollMs ?? 1000;
  const standbyPollMs = options.standbyPollMs ?? 1000;
  const loops = new Map<string, Loop>();
  let changes = 0;
  // Loops woken by one append ask for the same page from the same checkpoint: one query answers them all.
  const pagesInFlight = new Map<string, Promise<AllRead>>();
  const readPage = (from: AllPosition, limit: number): Promise<AllRead> => {
    const key = `${from.commit}/${from.prepare}/${limit}`;
    const shared = pagesInFlight.get(key);
    if (shared) return shared;
    const page = store.readAll(from, limit);
    pagesInFlight.set(key, page);
    const forget = () => {
      pagesInFlight.delete(key);
    };
    page.then(forget, forget);
    return page;
  };
  const changed = (loop: Loop) => {
    loop.changeStamp = ++changes;
  };
  const running = new Set<Promise<void>>();
  let stopped = false;
  let lockClient: pg.Client | null = null;
  let lockClientPromise: Promise<pg.Client> | null = null;
  const held = new Set<string>();
  let sleepers: (() => void)[] = [];
  let progressWaiters: (() => void)[] = [];
  let unsubscribe: (() => void) | null = null;
  let lagTimer: NodeJS.Timeout | null = null;

  validateProjections(projections);
  const byName = new Map(projections.map((p) => [p.name, p]));

  const wakeAll = () => {
    const s = sleepers;
    sleepers = [];
    for (const wake of s) wake();
  };

  const waitForWake = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      sleepers.push(done);
    });

  // Standby loops sleep here: only their timer or stop() wakes them, never an append. With several
  // processes an append-woken standby cost a lock attempt and a registry read per projection per NOTIFY.
  const standbySleepers = new Set<() => void>();
  const standbySleep = (ms: number) =>
    new Promise<void>((resolve) => {
      // Jittered, so standbys of processes started together do not poll in step.
      const timer = setTimeout(done, ms * (0.75 + Math.random() * 0.5));
      timer.unref();
      function done() {
        clearTimeout(timer);
        standbySleepers.delete(done);
        resolve();
      }
      standbySleepers.add(done);
    });

  const emitProgress = () => {
    const w = progressWaiters;
    progressWaiters = [];
    for (const resolve of w) resolve();
  };

  const getLockClient = async (): Promise<pg.Client> => {
    if (lockClient) return lockClient;
    lockClientPromise ??= db.connect().then((client) => {
      client.on('error', (error) => {
        log.warn({ err: error }, 'projection lock connection lost');
        // Every session lock went with the connection: each loop takes its lock again.
        if (lockClient === client) lockClient = null;
        held.clear();
        for (const loop of loops.values()) loop.holdsLock = false;
        client.end().catch(() => undefined);
      });
      lockClient = client;
      lockClientPromise = null;
      return client;
    });
    return lockClientPromise;
  };

  // The loops share one lock connection; pg wants one query at a time on a client, so they queue.
  let lockQueue: Promise<unknown> = Promise.resolve();
  const onLockClient = <T>(run: (client: pg.Client) => Promise<T>): Promise<T> => {
    const next = lockQueue.then(async () => run(await getLockClient()));
    lockQueue = next.catch(() => undefined);
    return next;
  };

  const acquire = async (loop: Loop): Promise<boolean> => {
    const key = `${loop.projection.name}:${loop.generation.generation}`;
    if (held.has(key)) return true;
    const result = await onLockClient((client) =>
      client.query<{ ok: boolean }>('select pg_try_advisory_lock($1, $2) as ok', [projectionLockKey(loop.projection.name), loop.generation.generation]),
    );
    if (result.rows[0]?.ok) held.add(key);
    return held.has(key);
  };

  const release = async (name: string, generation: number) => {
    const key = `${name}:${generation}`;
    if (!held.delete(key) || !lockClient) return;
    await onLockClient((client) => client.query('select pg_advisory_unlock($1, $2)', [projectionLockKey(name), generation])).catch(() => undefined);
  };

  const loadGeneration = async (name: string, generation?: number): Promise<Generation | null> => {
    const row = await db.slonik.maybeOne(sql.type(
      z.object({
        generation: z.number(),
        version: z.number(),
        status: z.enum(['building', 'active', 'retired']),
        checkpoint_commit: z.string(),
        checkpoint_prepare: z.string(),
      }),
    )`
      select g.generation, g.version, g.status, g.checkpoint_commit::text, g.checkpoint_prepare::text
        from projections.generations g
       where g.name = ${name}
         and g.generation = ${generation === undefined ? sql.fragment`(select active_generation from projections.registry where name = ${name})` : sql.fragment`${generation}`}`);
    if (!row) return null;
    return {
      name,
      generation: row.generation,
      version: row.version,
      status: row.status,
      checkpoint: { commit: BigInt(row.checkpoint_commit), prepare: BigInt(row.checkpoint_prepare) },
    };
  };

  const recordError = async (loop: Loop, error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    loop.lastError = message;
    loop.lastErrorAt = new Date();
    log.error({ projection: loop.projection.name, generation: loop.generation.generation, err: error }, 'projection batch failed');
    await db.slonik
      .query(sql.unsafe`update projections.generations set last_error = ${message.slice(0, 2000)}, last_error_at = now()
                        where name = ${loop.projection.name} and generation = ${loop.generation.generation}`)
      .catch(() => undefined);
  };

  const applyBatch = async (loop: Loop, events: readonly RecordedEvent[]) => {
    const { projection, generation } = loop;
    const from = loop.persisted;
    const to = (events.at(-1) as RecordedEvent).position;
    const handles = new Set(projection.handles);
    const relevant = events.filter((e) => handles.has(e.type));
    if (relevant.length === 0) {
      loop.checkpoint = to;
      loop.lastError = null;
      emitProgress();
      if (Date.now() - loop.persistedAt >= CHECKPOINT_FLUSH_MS) await flushCheckpoint(loop);
      return;
    }
    const schema = schemaOf(projection.name, generation.generation);
    await db.slonik.transaction(async (tx) => {
      if (generation.status === 'active') {
        // Shares the registry row with other batches; a blue/green switch takes it exclusively.
        const active = await tx.maybeOneFirst(sql.type(z.object({ active_generation: z.number() }))`
          select active_generation from projections.registry where name = ${projection.name} for share`);
        if (active !== generation.generation) throw new GenerationSwitched();
      }
      if (relevant.length > 0) await projection.apply({ tx, table: (name) => sql.identifier([schema, name]) }, relevant);
      const moved = await tx.query(sql.unsafe`
        update projections.generations
           set checkpoint_commit = ${to.commit.toString()}::bigint, checkpoint_prepare = ${to.prepare.toString()}::bigint,
               events_applied = events_applied + ${relevant.length}, last_error = null, updated_at = now()
         where name = ${projection.name} and generation = ${generation.generation}
           and checkpoint_commit = ${from.commit.toString()}::bigint and checkpoint_prepare = ${from.prepare.toString()}::bigint`);
      if (moved.rowCount !== 1) throw new CheckpointMoved();
    });
    changed(loop);
    loop.checkpoint = to;
    loop.persisted = to;
    loop.persistedAt = Date.now();
    loop.eventsApplied += relevant.length;
    loop.lastAppliedAt = new Date();
    loop.lastError = null;
    emitProgress();
  };

  /** Stores a checkpoint moved in memory only (CHECKPOINT_FLUSH_MS): one statement, compare-and-set. */
  const flushCheckpoint = async (loop: Loop) => {
    const { projection, generation } = loop;
    const from = loop.persisted;
    const to = loop.checkpoint;
    if (comparePositions(from, to) === 0) return;
    // Without the registry's share lock a switch may retire the generation meanwhile: that moves a
    // retired generation's checkpoint past events it does not handle, which changes nothing.
    const moved = await db.slonik.query(sql.unsafe`
      update projections.generations
         set checkpoint_commit = ${to.commit.toString()}::bigint, checkpoint_prepare = ${to.prepare.toString()}::bigint,
             last_error = null, updated_at = now()
       where name = ${projection.name} and generation = ${generation.generation}
         and checkpoint_commit = ${from.commit.toString()}::bigint and checkpoint_prepare = ${from.prepare.toString()}::bigint`);
    if (moved.rowCount !== 1) throw new CheckpointMoved();
    loop.persisted = to;
    loop.persistedAt = Date.now();
  };

  /** Runs one generation until the runner stops, or (with `untilSwitched`) until a built generation went live. */
  const runLoop = async (loop: Loop, untilSwitched = false): Promise<void> => {
    let failures = 0;
    let heldBack = 0;
    while (!stopped) {
      try {
        if (!(await acquire(loop))) {
          loop.holdsLock = false;
          changed(loop);
          await standbySleep(standbyPollMs);
          if (loop.generation.status === 'active') {
            const current = await loadGeneration(loop.projection.name);
            if (current && current.generation !== loop.generation.generation) loop.generation = current;
          }
          continue;
        }
        loop.holdsLock = true;
        changed(loop);
        const stored = await loadGeneration(loop.projection.name, loop.generation.generation);
        if (!stored || stored.status === 'retired') throw new GenerationSwitched();
        loop.generation = stored;
        loop.checkpoint = stored.checkpoint;
        loop.persisted = stored.checkpoint;
        loop.persistedAt = Date.now();
        // The next page is read while the current one is applied (it starts where this one ends).
        let prefetched: Promise<AllRead> | null = null;
        for (;;) {
          if (stopped || !loop.holdsLock) break;
          const building = loop.generation.status === 'building';
          const limit = building ? rebuildBatchSize : batchSize;
          const read = await (prefetched ?? readPage(loop.checkpoint, limit));
          prefetched = null;
          if (read.events.length > 0) {
            if (read.events.length === limit) {
              prefetched = readPage((read.events.at(-1) as RecordedEvent).position, limit);
              // A batch that fails drops its prefetched page; the loop reads again from the checkpoint.
              prefetched.catch(() => undefined);
            }
            await applyBatch(loop, read.events);
            failures = 0;
          }
          if (read.events.length === limit) continue;
          if (building && !read.hasMore) {
            await flushCheckpoint(loop);
            await switchTo(db.slonik, loop.projection, loop.generation.generation);
            loop.generation = { ...loop.generation, status: 'active' };
            // The views now show this generation: whatever was derived from the one before is stale.
            for (const other of loops.values()) if (other.projection.name === loop.projection.name) changed(other);
            log.info(
              { projection: loop.projection.name, generation: loop.generation.generation, eventsApplied: loop.eventsApplied },
              'projection generation is live',
            );
            emitProgress();
            if (untilSwitched) return;
            continue;
          }
          // A transaction below newer events is still open: look again soon, backing off (8 ms at most,
          // decision 0036) while it stays open.
          if (read.hasMore) {
            heldBack = read.events.length === 0 ? heldBack + 1 : 0;
            await sleep(Math.min(8, 2 ** Math.min(heldBack, 3)));
          } else if (read.events.length === 0) {
            await flushCheckpoint(loop);
            await waitForWake(idlePollMs);
            if (!building && (await loadGeneration(loop.projection.name))?.generation !== loop.generation.generation) throw new GenerationSwitched();
          }
        }
      } catch (error) {
        if (error instanceof GenerationSwitched) {
          await release(loop.projection.name, loop.generation.generation);
          const current = await loadGeneration(loop.projection.name).catch(() => null);
          if (current) loop.generation = current;
          loop.holdsLock = false;
          changed(loop);
          continue;
        }
        if (error instanceof CheckpointMoved) {
          log.warn({ projection: loop.projection.name }, 'projection checkpoint moved by another process; re-reading');
          continue;
        }
        failures++;
        await recordError(loop, error);
        await sleep(Math.min(30_000, 100 * 2 ** Math.min(failures, 9)));
      }
    }
    // Whoever runs it next starts from here, not from the last batch it handled something in.
    if (loop.holdsLock) await flushCheckpoint(loop).catch(() => undefined);
    await release(loop.projection.name, loop.generation.generation);
  };

  const track = (promise: Promise<void>) => {
    running.add(promise);
    void promise.finally(() => running.delete(promise));
    return promise;
  };

  const logLag = async () => {
    const head = await store.headPosition().catch(() => null);
    if (!head) return;
    for (const loop of loops.values()) {
      if (!loop.holdsLock) continue;
      const lag = head.prepare - loop.checkpoint.prepare;
      if (lag > 0n || loop.lastError) {
        log.info({ projection: loop.projection.name, lagEvents: Number(lag), lastError: loop.lastError }, 'projection lag');
      }
    }
  };

  const isLocalActive = (name: string) => {
    const loop = loops.get(name);
    return loop?.holdsLock && loop.generation.status === 'active';
  };

  const isPast = (name: string, position: AllPosition) => isLocalActive(name) && comparePositions((loops.get(name) as Loop).checkpoint, position) >= 0;

  return {
    changeStamp(names) {
      const stamps: number[] = [];
      for (const name of names) {
        if (!isLocalActive(name)) return null;
        stamps.push((loops.get(name) as Loop).changeStamp);
      }
      return stamps.join(':');
    },

    async start() {
      stopped = false;
      const generations = await prepareGenerations(db.slonik, projections);
      unsubscribe = store.onAppended(wakeAll);
      for (const projection of projections) {
        const generation = generations.get(projection.name) as Generation;
        const loop: Loop = {
          projection,
          generation,
          checkpoint: generation.checkpoint,
          persisted: generation.checkpoint,
          persistedAt: Date.now(),
          holdsLock: false,
          eventsApplied: 0,
          lastAppliedAt: null,
          lastError: null,
          lastErrorAt: null,
          changeStamp: ++changes,
        };
        loops.set(projection.name, loop);
        track(runLoop(loop));
      }
      const interval = options.lagLogIntervalMs ?? 30_000;
      if (interval > 0) {
        lagTimer = setInterval(() => void logLag(), interval);
        lagTimer.unref();
      }
    },

    async stop() {
      stopped = true;
      unsubscribe?.();
      if (lagTimer) clearInterval(lagTimer);
      wakeAll();
      for (const wake of [...standbySleepers]) wake();
      emitProgress();
      await Promise.allSettled([...running]);
      const client = lockClient;
      lockClient = null;
      held.clear();
      await client?.end().catch(() => undefined);
    },

    status() {
      return [...loops.values()].map((loop) => ({
        name: loop.projection.name,
        generation: loop.generation.generation,
        building: loop.generation.status === 'building',
        holdsLock: loop.holdsLock,
        checkpoint: loop.checkpoint,
        eventsApplied: loop.eventsApplied,
        lastAppliedAt: loop.lastAppliedAt,
        lastError: loop.lastError,
        lastErrorAt: loop.lastErrorAt,
      }));
    },

    async rebuild(name) {
      const projection = byName.get(name);
      if (!projection) throw new Error(`Unknown projection ${name}`);
      const generation = await startRebuild(db.slonik, projection);
      const loop: Loop = {
        projection,
        generation,
        checkpoint: generation.checkpoint,
        persisted: generation.checkpoint,
        persistedAt: Date.now(),
        holdsLock: false,
        eventsApplied: 0,
        lastAppliedAt: null,
        lastError: null,
        lastErrorAt: null,
        changeStamp: ++changes,
      };
      loops.set(`rebuild:${name}`, loop);
      const unsubscribeRebuild = store.onAppended(wakeAll);
      try {
        await track(runLoop(loop, true));
        return { eventsApplied: loop.eventsApplied, generation: loop.generation.generation };
      } finally {
        unsubscribeRebuild();
        loops.delete(`rebuild:${name}`);
        await release(name, generation.generation);
      }
    },

    async waitFor(names, position, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        let pending = names.filter((name) => !isPast(name, position));
        // Projections another process runs are asked of the database; ours answer from memory.
        const remote = pending.filter((name) => !isLocalActive(name));
        if (remote.length > 0) {
          const rows = await activeCheckpoints(db.slonik, remote);
          const behind = new Set(
            rows
              .filter((row) => comparePositions({ commit: BigInt(row.checkpoint_commit), prepare: BigInt(row.checkpoint_prepare) }, position) < 0)
              .map((row) => row.name),
          );
          // A name without an active generation has nothing to wait for.
          pending = pending.filter((name) => isLocalActive(name) || behind.has(name));
        }
        if (pending.length === 0) return true;
        const remaining = deadline - Date.now();
        if (remaining <= 0 || stopped) return false;
        await Promise.race([new Promise<void>((resolve) => progressWaiters.push(resolve)), sleep(Math.min(remote.length > 0 ? 25 : 250, remaining))]);
      }
    },
  };
};
