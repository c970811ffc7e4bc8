import { sql } from 'slonik';
import type { Projection } from '../../infrastructure/projections/projection.port.ts';

/**
 * A projection that would show any mistake of the runner: every applied event inserts a row keyed
 * by its id (a second application fails on the key) and adds one to a plain counter (a skipped or
 * repeated event changes the count). `sleepWhen` makes a chosen event hold the batch open.
 */
export const countingProjection = (options: { name?: string; version?: number; sleepWhen?: (n: number) => number } = {}): Projection => {
  const name = options.name ?? 'counting';
  return {
    name,
    version: options.version ?? 1,
    tables: [`${name}_applied`, `${name}_totals`],
    setup: (table) => [
      sql.unsafe`create table ${table(`${name}_applied`)} (event_id uuid primary key, stream text not null, n integer not null, position bigint not null)`,
      sql.unsafe`create table ${table(`${name}_totals`)} (id integer primary key, applied bigint not null)`,
      sql.unsafe`insert into ${table(`${name}_totals`)} values (1, 0)`,
    ],
    handles: ['TestHappened'],
    apply: async ({ tx, table }, events) => {
      for (const event of events) {
        const n = (event.data as { n: number }).n;
        const seconds = options.sleepWhen?.(n) ?? 0;
        if (seconds > 0) await tx.query(sql.unsafe`select pg_sleep(${seconds})`);
        await tx.query(sql.unsafe`
          insert into ${table(`${name}_applied`)} (event_id, stream, n, position)
          values (${event.eventId}, ${event.streamName}, ${n}, ${event.position.prepare.toString()}::bigint)`);
      }
      await tx.query(sql.unsafe`update ${table(`${name}_totals`)} set applied = applied + ${events.length} where id = 1`);
    },
  };
};
