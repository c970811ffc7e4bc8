import { type DatabasePool, type DatabaseTransactionConnection, sql } from 'slonik';
import { z } from 'zod';
import type { AllPosition } from '../event-store/event-store.port.ts';
import type { Projection } from './projection.port.ts';

/**
 * Generations of a projection: each has its own schema `rm_<name>_<generation>` and checkpoint.
 * `registry.active_generation` says which one the views `rm.<table>` point at.
 */
export type GenerationStatus = 'building' | 'active' | 'retired';

export type Generation = {
  readonly name: string;
  readonly generation: number;
  readonly version: number;
  readonly status: GenerationStatus;
  readonly checkpoint: AllPosition;
};

const NAME = /^[a-z][a-z0-9_]{0,40}$/;
const SETUP_LOCK = 7_340_002;

export const schemaOf = (name: string, generation: number) => `rm_${name}_${generation}`;

export const validateProjections = (projections: readonly Projection[]) => {
  const names = new Set<string>();
  const tables = new Set<string>();
  for (const projection of projections) {
    if (!NAME.test(projection.name)) throw new Error(`Invalid projection name ${projection.name}`);
    if (names.has(projection.name)) throw new Error(`Projection ${projection.name} is registered twice`);
    names.add(projection.name);
    for (const table of projection.tables) {
      if (!NAME.test(table)) throw new Error(`Invalid table name ${table}`);
      if (tables.has(table)) throw new Error(`Table ${table} belongs to two projections`);
      tables.add(table);
    }
  }
};

const generationRow = z.object({
  name: z.string(),
  generation: z.number(),
  version: z.number(),
  status: z.enum(['building', 'active', 'retired']),
  checkpoint_commit: z.string(),
  checkpoint_prepare: z.string(),
});

const toGeneration = (row: z.infer<typeof generationRow>): Generation => ({
  name: row.name,
  generation: row.generation,
  version: row.version,
  status: row.status,
  checkpoint: { commit: BigInt(row.checkpoint_commit), prepare: BigInt(row.checkpoint_prepare) },
});

const createGeneration = async (tx: DatabaseTransactionConnection, projection: Projection, generation: number, status: GenerationStatus) => {
  const schema = schemaOf(projection.name, generation);
  await tx.query(sql.unsafe`drop schema if exists ${sql.identifier([schema])} cascade`);
  await tx.query(sql.unsafe`create schema ${sql.identifier([schema])}`);
  for (const statement of projection.setup((table) => sql.identifier([schema, table]))) await tx.query(statement);
  await tx.query(sql.unsafe`
    insert into projections.generations (name, generation, version, status)
    values (${projection.name}, ${generation}, ${projection.version}, ${status})`);
};

/** Points `rm.<table>` at the generation's tables. Runs inside the switching transaction. */
const pointViews = async (tx: DatabaseTransactionConnection, projection: Projection, generation: number) => {
  const schema = schemaOf(projection.name, generation);
  for (const table of projection.tables) {
    await tx.query(sql.unsafe`drop view if exists ${sql.identifier(['rm', table])}`);
    await tx.query(sql.unsafe`create view ${sql.identifier(['rm', table])} as select * from ${sql.identifier([schema, table])}`);
  }
};

/**
 * Makes sure every projection has an active generation, and starts a new generation for each one
 * whose code version differs from the active one. Returns the generation each projection's loop
 * should run: the active one, or the one being built.
 */
export const prepareGenerations = async (pool: DatabasePool, projections: readonly Projection[]): Promise<Map<string, Generation>> =>
  pool.transaction(async (tx) => {
    await tx.query(sql.unsafe`select pg_advisory_xact_lock(${SETUP_LOCK})`);
    const result = new Map<string, Generation>();
    for (const projection of projections) {
      const active = await tx.maybeOne(sql.type(generationRow)`
        select g.name, g.generation, g.version, g.status, g.checkpoint_commit::text, g.checkpoint_prepare::text
          from projections.registry r join projections.generations g on g.name = r.name and g.generation = r.active_generation
         where r.name = ${projection.name}`);
      if (!active) {
        const generation =
          ((await tx.maybeOneFirst(sql.type(z.object({ g: z.number().nullable() }))`
          select max(generation) as g from projections.generations where name = ${projection.name}`)) ?? 0) + 1;
        await createGeneration(tx, projection, generation, 'active');
        await pointViews(tx, projection, generation);
        await tx.query(sql.unsafe`insert into projections.registry (name, active_generation) values (${projection.name}, ${generation})`);
        result.set(projection.name, {
          name: projection.name,
          generation,
          version: projection.version,
          status: 'active',
          checkpoint: { commit: 0n, prepare: 0n },
        });
        continue;
      }
      if (active.version === projection.version) {
        result.set(projection.name, toGeneration(active));
        continue;
      }
      result.set(projection.name, await startBuilding(tx, projection));
    }
    return result;
  });

/** A new generation to fill from position zero, or the one a previous run left half built. */
const startBuilding = async (tx: DatabaseTransactionConnection, projection: Projection, options: { fresh?: boolean } = {}): Promise<Generation> => {
  const building = options.fresh
    ? null
    : await tx.maybeOne(sql.type(generationRow)`
        select name, generation, version, status, checkpoint_commit::text, checkpoint_prepare::text from projections.generations
         where name = ${projection.name} and status = 'building' and version = ${projection.version}
         order by generation desc limit 1`);
  if (building) return toGeneration(building);
  const generation =
    ((await tx.maybeOneFirst(sql.type(z.object({ g: z.number().nullable() }))`
      select max(generation) as g from projections.generations where name = ${projection.name}`)) ?? 0) + 1;
  await createGeneration(tx, projection, generation, 'building');
  return { name: projection.name, generation, version: projection.version, status: 'building', checkpoint: { commit: 0n, prepare: 0n } };
};

/** For `projections:rebuild`: always a fresh generation, even when the version did not change. */
export const startRebuild = async (pool: DatabasePool, projection: Projection): Promise<Generation> =>
  pool.transaction(async (tx) => {
    await tx.query(sql.unsafe`select pg_advisory_xact_lock(${SETUP_LOCK})`);
    // A half-built generation of an earlier, interrupted rebuild is dropped and started again.
    const stale = await tx.anyFirst(sql.type(z.object({ generation: z.number() }))`
      select generation from projections.generations where name = ${projection.name} and status = 'building'`);
    for (const generation of stale) await retire(tx, projection.name, generation);
    return startBuilding(tx, projection, { fresh: true });
  });

const retire = async (tx: DatabaseTransactionConnection, name: string, generation: number) => {
  await tx.query(sql.unsafe`update projections.generations set status = 'retired', updated_at = now() where name = ${name} and generation = ${generation}`);
  await tx.query(sql.unsafe`drop schema if exists ${sql.identifier([schemaOf(name, generation)])} cascade`);
};

/**
 * The switch of a blue/green rebuild: the built generation becomes active and the views point at
 * it, in one transaction. Live batches hold the registry row FOR SHARE, so none is half applied
 * across the switch. The old generation's schema is dropped afterwards.
 */
export const switchTo = async (pool: DatabasePool, projection: Projection, generation: number): Promise<number | null> => {
  const previous = await pool.transaction(async (tx) => {
    const current = await tx.maybeOneFirst(sql.type(z.object({ active_generation: z.number() }))`
      select active_generation from projections.registry where name = ${projection.name} for update`);
    await pointViews(tx, projection, generation);
    await tx.query(
      sql.unsafe`update projections.generations set status = 'active', updated_at = now() where name = ${projection.name} and generation = ${generation}`,
    );
    if (current === null) {
      await tx.query(sql.unsafe`insert into projections.registry (name, active_generation) values (${projection.name}, ${generation})`);
    } else {
      await tx.query(sql.unsafe`update projections.registry set active_generation = ${generation}, updated_at = now() where name = ${projection.name}`);
      await tx.query(
        sql.unsafe`update projections.generations set status = 'retired', updated_at = now() where name = ${projection.name} and generation = ${current}`,
      );
    }
    return current;
  });
  if (previous !== null && previous !== generation) {
    await pool.query(sql.unsafe`drop schema if exists ${sql.identifier([schemaOf(projection.name, previous)])} cascade`);
  }
  return previous;
};

export const activeCheckpoints = async (pool: DatabasePool, names: readonly string[]) =>
  pool.any(sql.type(z.object({ name: z.string(), checkpoint_commit: z.string(), checkpoint_prepare: z.string() }))`
    select g.name, g.checkpoint_commit::text, g.checkpoint_prepare::text
      from projections.registry r join projections.generations g on g.name = r.name and g.generation = r.active_generation
     where r.name = any(${sql.array(names, 'text')})`);
