import { sql } from 'slonik';
import { z } from 'zod';
import type { AllPosition, AllRead, EventStore, RecordedEvent } from '../event-store/event-store.port.ts';
import type { Database } from '../postgres/database.ts';
import { schemaOf } from './generations.ts';
import { CHECKPOINT_FLUSH_MS, CheckpointMoved, GenerationSwitched, WITHOUT_FLUSH_WAIT } from './projection-checkpoint.ts';
import type { Loop } from './projection-loop-state.ts';

/** `seen`: the wake-up count the caller took before asking; a shared read started before a later wake-up is not reused. */
export type ReadPage = (from: AllPosition, limit: number, seen?: number) => Promise<AllRead>;

/** Reads a page of `$all` after a position. */
export const createPageReader = (store: EventStore, wakeCount: () => number = () => 0): ReadPage => {
  // Loops woken by one append ask for the same page from the same checkpoint: one query answers them all.
  // A loop that comes later, after another wake-up, must not join a read started before it (issue 38):
  // that read may miss the append that woke it, and the loop would then sleep out its idle poll.
  const pagesInFlight = new Map<string, { page: Promise<AllRead>; startedAt: number }>();
  return (from, limit, seen) => {
    const key = `${from.commit}/${from.prepare}/${limit}`;
    const shared = pagesInFlight.get(key);
    if (shared && (seen === undefined || shared.startedAt >= seen)) return shared.page;
    const entry = { page: store.readAll(from, limit), startedAt: wakeCount() };
    pagesInFlight.set(key, entry);
    const forget = () => {
      if (pagesInFlight.get(key) === entry) pagesInFlight.delete(key);
    };
    entry.page.then(forget, forget);
    return entry.page;
  };
};

export type ApplyBatchDeps = {
  readonly db: Database;
  /** The loop's tables may have changed (its change stamp moves). */
  readonly changed: (loop: Loop) => void;
  readonly emitProgress: () => void;
  /** Stores a checkpoint moved in memory (with the other loops storing theirs in the same turn). */
  readonly flushCheckpoint: (loop: Loop) => Promise<void>;
};

/**
 * Applies the events of a page the projection handles and moves the checkpoint with
 * compare-and-set, in one transaction; a page without any moves the checkpoint in memory
 * (CHECKPOINT_FLUSH_MS).
 */
export const applyBatch = async ({ db, changed, emitProgress, flushCheckpoint }: ApplyBatchDeps, loop: Loop, events: readonly RecordedEvent[]) => {
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
  const active = generation.status === 'active';
  // Four round trips: begin, the projection's statement(s), the checkpoint's compare-and-set, commit.
  // The check that this generation is still the live one rides on the checkpoint's statement, at the
  // end: its share lock on the registry row makes a blue/green switch (which takes it exclusively)
  // wait for this commit, and a switch that committed during the batch makes the statement match
  // nothing, so the batch rolls back. A separate check first cost every batch a round trip, and
  // every other loop's `$all` read waits below the horizon while a batch is open (lag, issue 37).
  await db.slonik.transaction(async (tx) => {
    await projection.apply({ tx, table: (name) => sql.identifier([schema, name]) }, relevant);
    const moved = await tx.query(sql.unsafe`
      update projections.generations
         set checkpoint_commit = ${to.commit.toString()}::bigint, checkpoint_prepare = ${to.prepare.toString()}::bigint,
             events_applied = events_applied + ${relevant.length}, last_error = null, updated_at = now()
       where name = ${projection.name} and generation = ${generation.generation}
         and checkpoint_commit = ${from.commit.toString()}::bigint and checkpoint_prepare = ${from.prepare.toString()}::bigint
         and ${WITHOUT_FLUSH_WAIT}
         ${
           active
             ? sql.fragment`and exists (select 1 from projections.registry r
                                         where r.name = ${projection.name} and r.active_generation = ${generation.generation} for share)`
             : sql.fragment``
         }`);
    if (moved.rowCount === 1) return;
    if (active) {
      const live = await tx.maybeOneFirst(sql.type(z.object({ active_generation: z.number() }))`
        select active_generation from projections.registry where name = ${projection.name}`);
      if (live !== generation.generation) throw new GenerationSwitched();
    }
    throw new CheckpointMoved();
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
