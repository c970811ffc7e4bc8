import { randomUUID } from 'node:crypto';
import { sql } from 'slonik';
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port.ts';
import type { Projection } from '../../infrastructure/projections/projection.port.ts';
import type { createTestDatabase } from './test-database.ts';

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;

let position = 0n;

/** A recorded event as the store would hand it to a projection. */
export const recorded = (streamName: string, type: string, data: unknown, createdAt = new Date('2026-03-01T10:00:00Z')): RecordedEvent => {
  position++;
  return {
    eventId: randomUUID(),
    streamName,
    revision: 0n,
    position: { commit: 1n, prepare: position },
    type,
    schemaVersion: 1,
    data,
    metadata: {},
    createdAt,
  };
};

/**
 * Given events, applied twice (as a crash between applying and checkpointing would), the tables
 * of a projection in a schema of their own; returns a function to query them.
 */
export const givenProjected = async (db: TestDb, projection: Projection, events: readonly RecordedEvent[]) => {
  const schema = `spec_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const table = (name: string) => sql.identifier([schema, name]);
  await db.slonik.query(sql.unsafe`create schema ${sql.identifier([schema])}`);
  for (const statement of projection.setup(table)) await db.slonik.query(statement);
  for (let round = 0; round < 2; round++) {
    await db.slonik.transaction(async (tx) =>
      projection.apply(
        { tx, table },
        events.filter((e) => projection.handles.includes(e.type)),
      ),
    );
  }
  return { schema, rows: async (name: string, orderBy = '1') => (await db.pg.query(`select * from "${schema}"."${name}" order by ${orderBy}`)).rows };
};
