import { sql } from 'slonik';
import { z } from 'zod';
import { comparePositions } from '../event-store/event-store.port.ts';
import type { Database } from '../postgres/database.ts';
import { CheckpointMoved, WITHOUT_FLUSH_WAIT } from './projection-checkpoint.ts';
import type { Loop } from './projection-loop-state.ts';

/**
 * What the runner's loops ask of the database together rather than one by one. One append wakes
 * every loop; each finds one event, most ignore it (decision 0036) and go idle, and each then stored
 * its checkpoint and, at the next wake-up, read the registry to see whether another process had
 * switched its generation: two statements per projection per append, about 37 of the 40 a command
 * cost at 200 commands/s, and the users loop's batch waited behind them (issue 37, lag). Now the
 * loops going idle in the same turn store their checkpoints in one statement, and a wake-up reads
 * the registry once for all.
 */
export type SharedWrites = {
  /** Stores the loop's in-memory checkpoint (compare-and-set from `persisted`); CheckpointMoved when another process moved it. */
  flushCheckpoint(loop: Loop): Promise<void>;
  /**
   * Whether `generation` is still the live one of the projection. Loops woken by one append share one
   * registry read started after that wake-up (and at most `LIVE_READ_SHARED_MS` ago); an answer that
   * says "switched" is read again on its own before it is believed.
   */
  isLive(name: string, generation: number): Promise<boolean>;
};

/** A registry read this recent, and started after the last wake-up, answers every loop that asks. */
export const LIVE_READ_SHARED_MS = 20;

const flushedRow = z.object({ name: z.string(), generation: z.number() });
const liveRow = z.object({ name: z.string(), active_generation: z.number() });

type Pending = { loop: Loop; to: Loop['checkpoint']; from: Loop['persisted']; resolve: () => void; reject: (error: unknown) => void };

/** `wakeCount`: the runner's wake-up count (projection-wake-up.ts). */
export const createSharedWrites = (db: Database, wakeCount: () => number = () => 0): SharedWrites => {
  let pending: Pending[] = [];
  let scheduled = false;

  const writeAll = async () => {
    scheduled = false;
    const batch = pending;
    pending = [];
    // In name order, though the plan, not this order, decides which row is locked first: two processes
    // writing the same rows at once (only after a lost lock let two holders overlap) can deadlock.
    // PostgreSQL ends one statement; each of its loops records the error and retries after its back-off.
    batch.sort((a, b) => a.loop.projection.name.localeCompare(b.loop.projection.name) || a.loop.generation.generation - b.loop.generation.generation);
    const positions = (part: (p: Pending) => bigint) =>
      sql.array(
        batch.map((p) => part(p).toString()),
        'int8',
      );
    try {
      const moved = await db.slonik.any(sql.type(flushedRow)`
        update projections.generations g
           set checkpoint_commit = v.to_commit, checkpoint_prepare = v.to_prepare, last_error = null, updated_at = now()
          from unnest(${sql.array(
            batch.map((p) => p.loop.projection.name),
            'text',
          )}, ${sql.array(
            batch.map((p) => p.loop.generation.generation),
            'int4',
          )}, ${positions((p) => p.from.commit)}, ${positions((p) => p.from.prepare)}, ${positions((p) => p.to.commit)}, ${positions((p) => p.to.prepare)}) as v(name, generation, from_commit, from_prepare, to_commit, to_prepare)
         where g.name = v.name and g.generation = v.generation
           and g.checkpoint_commit = v.from_commit and g.checkpoint_prepare = v.from_prepare
           and ${WITHOUT_FLUSH_WAIT}
        returning g.name, g.generation`);
      const stored = new Set(moved.map((row) => `${row.name}/${row.generation}`));
      const now = Date.now();
      for (const p of batch) {
        if (!stored.has(`${p.loop.projection.name}/${p.loop.generation.generation}`)) {
          p.reject(new CheckpointMoved());
          continue;
        }
        p.loop.persisted = p.to;
        p.loop.persistedAt = now;
        p.resolve();
      }
    } catch (error) {
      for (const p of batch) p.reject(error);
    }
  };

  let live: { startedAt: number; wake: number; rows: Promise<ReadonlyMap<string, number>> } | null = null;
  const readRegistry = () =>
    db.slonik
      .any(sql.type(liveRow)`select name, active_generation from projections.registry`)
      .then((rows) => new Map(rows.map((row) => [row.name, row.active_generation])));

  return {
    flushCheckpoint(loop) {
      const from = loop.persisted;
      const to = loop.checkpoint;
      if (comparePositions(from, to) === 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        pending.push({ loop, from, to, resolve, reject });
        // Loops woken by one append go idle within the same turn of the event loop (they share one
        // `$all` read): one statement stores them all.
        if (!scheduled) {
          scheduled = true;
          setImmediate(() => void writeAll());
        }
      });
    },

    async isLive(name, generation) {
      // A monotonic clock: a wall clock stepped back would keep one read for the size of the step.
      const now = performance.now();
      const wake = wakeCount();
      if (!live || live.wake !== wake || now - live.startedAt >= LIVE_READ_SHARED_MS) {
        const entry = { startedAt: now, wake, rows: readRegistry() };
        // A failed read is not shared: the next loop to ask reads again.
        entry.rows.catch(() => {
          if (live === entry) live = null;
        });
        live = entry;
      }
      if ((await live.rows).get(name) === generation) return true;
      // A shared read may have started just before this loop's generation went live here: only a read
      // of its own says it was switched (a wrong "switched" gives up the lock it has just taken).
      return (await readRegistry()).get(name) === generation;
    },
  };
};
