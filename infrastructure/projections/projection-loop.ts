import type { AllRead, RecordedEvent } from '../event-store/event-store.port.ts';
import type { Log } from '../logging/log.port.ts';
import type { Database } from '../postgres/database.ts';
import { switchTo } from './generations.ts';
import { applyBatch, type ReadPage } from './projection-batch.ts';
import { CheckpointMoved, flushCheckpoint, GenerationSwitched, loadGeneration, recordError } from './projection-checkpoint.ts';
import type { ProjectionLease } from './projection-lease.ts';
import type { Loop } from './projection-loop-state.ts';
import type { SharedWrites } from './projection-shared-writes.ts';
import { type ProjectionWakeUp, sleep } from './projection-wake-up.ts';

export type LoopDeps = {
  readonly db: Database;
  readonly log: Log;
  readonly lease: ProjectionLease;
  readonly wakeUp: ProjectionWakeUp;
  readonly readPage: ReadPage;
  /** Idle checkpoints stored, and the live generation looked up, together for all loops. */
  readonly shared: SharedWrites;
  /** Every loop of the runner: a generation going live changes what all of its projection's loops serve. */
  readonly loops: ReadonlyMap<string, Loop>;
  readonly changed: (loop: Loop) => void;
  readonly isStopped: () => boolean;
  /** Events read per batch while following the head. */
  readonly batchSize: number;
  /** Events read per batch while building a generation from zero. */
  readonly rebuildBatchSize: number;
  /** Longest sleep without a wake-up hint before reading again. */
  readonly idlePollMs: number;
  /** How often a process without the lock tries to take over. */
  readonly standbyPollMs: number;
};

/** Runs one generation until the runner stops, or (with `untilSwitched`) until a built generation went live. */
export const runLoop = async (deps: LoopDeps, loop: Loop, untilSwitched = false): Promise<void> => {
  const { db, log, lease, wakeUp, readPage, shared, loops, changed, isStopped, batchSize, rebuildBatchSize, idlePollMs, standbyPollMs } = deps;
  const batchDeps = { db, changed, emitProgress: wakeUp.emitProgress, flushCheckpoint: shared.flushCheckpoint };
  let failures = 0;
  let heldBack = 0;
  while (!isStopped()) {
    try {
      if (!(await lease.acquire(loop.projection.name, loop.generation.generation))) {
        loop.holdsLock = false;
        changed(loop);
        await wakeUp.standbySleep(standbyPollMs);
        if (loop.generation.status === 'active') {
          const current = await loadGeneration(db, loop.projection.name);
          if (current && current.generation !== loop.generation.generation) loop.generation = current;
        }
        continue;
      }
      // Until the stored checkpoint is read again, `waitFor` must not answer from this loop's memory:
      // it may be the checkpoint of the last lease, which a database crash took back (commits that did
      // not wait for their flush, decision 0070), and it answered for events the read model no longer
      // had (tests/int/projection-crash.int.spec.ts). Normal batches never come back here.
      if (loop.holdsLock) {
        loop.holdsLock = false;
        changed(loop);
      }
      const stored = await loadGeneration(db, loop.projection.name, loop.generation.generation);
      if (!stored || stored.status === 'retired') throw new GenerationSwitched();
      loop.generation = stored;
      loop.checkpoint = stored.checkpoint;
      loop.persisted = stored.checkpoint;
      loop.persistedAt = Date.now();
      // A lock lost while the checkpoint was read is taken again from the top.
      if (!lease.holds(loop.projection.name, loop.generation.generation)) continue;
      loop.holdsLock = true;
      changed(loop);
      // The next page is read while the current one is applied (it starts where this one ends).
      let prefetched: Promise<AllRead> | null = null;
      // The wake-ups counted before the page was read: one that comes later means "read again".
      let seenBeforeRead = wakeUp.wakeCount();
      for (;;) {
        if (isStopped() || !loop.holdsLock) break;
        const building = loop.generation.status === 'building';
        const limit = building ? rebuildBatchSize : batchSize;
        if (!prefetched) seenBeforeRead = wakeUp.wakeCount();
        const seen = seenBeforeRead;
        const read = await (prefetched ?? readPage(loop.checkpoint, limit, seen));
        prefetched = null;
        if (read.events.length > 0) {
          if (read.events.length === limit) {
            seenBeforeRead = wakeUp.wakeCount();
            prefetched = readPage((read.events.at(-1) as RecordedEvent).position, limit, seenBeforeRead);
            // A batch that fails drops its prefetched page; the loop reads again from the checkpoint.
            prefetched.catch(() => undefined);
          }
          await applyBatch(batchDeps, loop, read.events);
          failures = 0;
        }
        if (read.events.length === limit) continue;
        if (building && !read.hasMore) {
          await flushCheckpoint(db, loop);
          await switchTo(db.slonik, loop.projection, loop.generation.generation);
          loop.generation = { ...loop.generation, status: 'active' };
          // The views now show this generation: whatever was derived from the one before is stale.
          for (const other of loops.values()) if (other.projection.name === loop.projection.name) changed(other);
          log.info(
            { projection: loop.projection.name, generation: loop.generation.generation, eventsApplied: loop.eventsApplied },
            'projection generation is live',
          );
          wakeUp.emitProgress();
          if (untilSwitched) return;
          continue;
        }
        // A transaction below newer events is still open: look again soon, backing off (8 ms at most,
        // decision 0036) while it stays open.
        if (read.hasMore) {
          heldBack = read.events.length === 0 ? heldBack + 1 : 0;
          await sleep(Math.min(8, 2 ** Math.min(heldBack, 3)));
        } else if (read.events.length === 0) {
          await shared.flushCheckpoint(loop);
          await wakeUp.waitForWake(idlePollMs, seen);
          // Another process may have switched this projection to a rebuilt generation.
          if (!building && !(await shared.isLive(loop.projection.name, loop.generation.generation))) throw new GenerationSwitched();
        }
      }
    } catch (caught) {
      const error = (await switchedUnder(db, loop, caught)) ? new GenerationSwitched() : caught;
      if (error instanceof GenerationSwitched) {
        await lease.release(loop.projection.name, loop.generation.generation);
        const current = await loadGeneration(db, loop.projection.name).catch(() => null);
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
      await recordError(db, log, loop, error);
      await sleep(Math.min(30_000, 100 * 2 ** Math.min(failures, 9)));
    }
  }
  // Whoever runs it next starts from here, not from the last batch it handled something in.
  if (loop.holdsLock) await flushCheckpoint(db, loop).catch(() => undefined);
  await lease.release(loop.projection.name, loop.generation.generation);
};

/**
 * A batch of the live generation that failed because a rebuilt one went live meanwhile: the switch
 * no longer waits for open batches (projection-batch.ts) and drops the old generation's tables, so
 * such a batch can fail on a table that is gone. That is the switch, not an error to report.
 */
const switchedUnder = async (db: Database, loop: Loop, error: unknown) => {
  if (error instanceof GenerationSwitched || error instanceof CheckpointMoved || loop.generation.status !== 'active') return false;
  const live = await loadGeneration(db, loop.projection.name).catch(() => null);
  return live !== null && live.generation !== loop.generation.generation;
};
