import type { AllPosition, EventStore } from '../event-store/event-store.port.ts';
import type { Log } from '../logging/log.port.ts';
import type { Database } from '../postgres/database.ts';
import { type Generation, prepareGenerations, startRebuild, validateProjections } from './generations.ts';
import type { Projection, ReadModelFreshness } from './projection.port.ts';
import { createPageReader } from './projection-batch.ts';
import { createProjectionFreshness } from './projection-freshness.ts';
import { createProjectionLease } from './projection-lease.ts';
import { type LoopDeps, runLoop } from './projection-loop.ts';
import { type Loop, newLoop } from './projection-loop-state.ts';
import { createSharedWrites } from './projection-shared-writes.ts';
import { createProjectionWakeUp } from './projection-wake-up.ts';

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

/**
 * Drives every projection: reads `$all` after the projection's checkpoint, applies a batch and
 * moves the checkpoint with compare-and-set in one transaction (over a batch it ignores, in memory
 * first: CHECKPOINT_FLUSH_MS, decision 0036). One process at a time runs a given
 * generation (session advisory lock); the compare-and-set keeps even an overlap exactly-once.
 *
 * The parts: projection-lease.ts (the advisory lock), projection-batch.ts (a page read and applied),
 * projection-checkpoint.ts (the stored checkpoint and generation), projection-wake-up.ts (what ends
 * a loop's sleep), projection-loop.ts (one generation's loop), projection-freshness.ts (waitFor).
 */
export const createProjectionRunner = (options: ProjectionRunnerOptions): ProjectionRunner => {
  const { db, store, projections, log } = options;
  const loops = new Map<string, Loop>();
  let changes = 0;
  const running = new Set<Promise<void>>();
  let stopped = false;
  let unsubscribe: (() => void) | null = null;
  let lagTimer: NodeJS.Timeout | null = null;

  validateProjections(projections);
  const byName = new Map(projections.map((p) => [p.name, p]));

  const wakeUp = createProjectionWakeUp();
  const lease = createProjectionLease({
    db,
    log,
    onLost: () => {
      for (const loop of loops.values()) loop.holdsLock = false;
    },
  });
  const isStopped = () => stopped;
  const loopDeps: LoopDeps = {
    db,
    log,
    lease,
    wakeUp,
    readPage: createPageReader(store, wakeUp.wakeCount),
    shared: createSharedWrites(db, wakeUp.wakeCount),
    loops,
    changed: (loop) => {
      loop.changeStamp = ++changes;
    },
    isStopped,
    batchSize: options.batchSize ?? 500,
    rebuildBatchSize: options.rebuildBatchSize ?? 25_000,
    idlePollMs: options.idlePollMs ?? 1000,
    standbyPollMs: options.standbyPollMs ?? 1000,
  };
  const freshness = createProjectionFreshness({ db, loops, isStopped, nextProgress: wakeUp.nextProgress, progressCount: wakeUp.progressCount });

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

  return {
    changeStamp: freshness.changeStamp,
    waitFor: freshness.waitFor,

    async start() {
      stopped = false;
      const generations = await prepareGenerations(db.slonik, projections);
      unsubscribe = store.onAppended(wakeUp.wakeAll);
      for (const projection of projections) {
        const loop = newLoop(projection, generations.get(projection.name) as Generation, ++changes);
        loops.set(projection.name, loop);
        track(runLoop(loopDeps, loop));
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
      wakeUp.wakeAll();
      wakeUp.wakeStandbys();
      wakeUp.emitProgress();
      await Promise.allSettled([...running]);
      await lease.close();
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
      const loop = newLoop(projection, generation, ++changes);
      loops.set(`rebuild:${name}`, loop);
      const unsubscribeRebuild = store.onAppended(wakeUp.wakeAll);
      try {
        await track(runLoop(loopDeps, loop, true));
        return { eventsApplied: loop.eventsApplied, generation: loop.generation.generation };
      } finally {
        unsubscribeRebuild();
        loops.delete(`rebuild:${name}`);
        await lease.release(name, generation.generation);
      }
    },
  };
};
