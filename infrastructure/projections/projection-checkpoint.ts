import { sql } from 'slonik';
import { z } from 'zod';
import { comparePositions } from '../event-store/event-store.port.ts';
import type { Log } from '../logging/log.port.ts';
import type { Database } from '../postgres/database.ts';
import type { Generation } from './generations.ts';
import type { Loop } from './projection-loop-state.ts';

/** The generation a loop runs is no longer the one it should run (a blue/green switch, or retired). */
export class GenerationSwitched extends Error {}
/** Another process moved the stored checkpoint: the loop re-reads from it. */
export class CheckpointMoved extends Error {}

/**
 * A batch holding no event a projection handles moves its checkpoint in memory only; the stored
 * checkpoint follows at most this often, when the loop goes idle, before a generation switch and on
 * stop. Most batches of most projections are such batches, and a transaction per projection per
 * wake-up cost round trips and held every other loop's `$all` read below the read horizon (decision
 * 0002; docs/benchmarks.md, lag). A process that takes a projection over re-reads from the stored
 * checkpoint: only events the projection ignores, so nothing is applied twice.
 */
export const CHECKPOINT_FLUSH_MS = 25;

/**
 * A condition that is always true and makes the transaction it runs in commit without waiting for
 * its WAL to reach the disk (`synchronous_commit = off` for that transaction only). Read models and
 * their checkpoint move in one transaction, and PostgreSQL loses only a suffix of such commits in a
 * crash, never one out of order: a projection then applies those events again from its older
 * checkpoint, exactly once. Waiting for the flush (about 1 ms here, more under load) kept the batch's
 * transaction id running, and with it every other loop's `$all` read below the horizon (decision
 * 0070). Appends to the log still wait for their flush.
 */
export const WITHOUT_FLUSH_WAIT = sql.fragment`(select set_config('synchronous_commit', 'off', true)) = 'off'`;

// Made once: zod compiles a schema at its first parse, and a schema made per call was compiled per call.
const storedGeneration = z.object({
  generation: z.number(),
  version: z.number(),
  status: z.enum(['building', 'active', 'retired']),
  checkpoint_commit: z.string(),
  checkpoint_prepare: z.string(),
});

/** A generation as stored, by number, or the active one without it; null when there is none. */
export const loadGeneration = async (db: Database, name: string, generation?: number): Promise<Generation | null> => {
  const row = await db.slonik.maybeOne(sql.type(storedGeneration)`
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

/** Stores a checkpoint moved in memory only (CHECKPOINT_FLUSH_MS): one statement, compare-and-set. */
export const flushCheckpoint = async (db: Database, loop: Loop) => {
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
       and checkpoint_commit = ${from.commit.toString()}::bigint and checkpoint_prepare = ${from.prepare.toString()}::bigint
       and ${WITHOUT_FLUSH_WAIT}`);
  if (moved.rowCount !== 1) throw new CheckpointMoved();
  loop.persisted = to;
  loop.persistedAt = Date.now();
};

/** Keeps a failed batch's error on the loop and on its generation's row (status, and other processes). */
export const recordError = async (db: Database, log: Log, loop: Loop, error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  loop.lastError = message;
  loop.lastErrorAt = new Date();
  log.error({ projection: loop.projection.name, generation: loop.generation.generation, err: error }, 'projection batch failed');
  await db.slonik
    .query(sql.unsafe`update projections.generations set last_error = ${message.slice(0, 2000)}, last_error_at = now()
                      where name = ${loop.projection.name} and generation = ${loop.generation.generation}`)
    .catch(() => undefined);
};
