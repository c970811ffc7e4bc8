import { sql } from 'slonik';
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port.ts';
import { defineProjection } from '../../infrastructure/projections/projection.port.ts';

type Data<T> = { data: T };
const idOf = (event: RecordedEvent) => Number(event.streamName.slice('export-'.length));
const at = (event: RecordedEvent) => event.createdAt.toISOString();

/**
 * The export records (spec §3: createdAt, parameters, report, status, user; §4 statuses) as the
 * exports page lists them, with the progress of the run under way. Each handler sets the row from
 * the event alone (no counters), so a batch applied again leaves it as it was.
 */
export const exportsProjection = defineProjection({
  name: 'exports',
  version: 1,
  tables: ['exports'],
  setup: (table) => [
    sql.unsafe`create table ${table('exports')} (
      id integer primary key, kind text not null, parameters jsonb not null, status text not null, requested_by integer not null,
      created_at timestamptz not null, started_at timestamptz, finished_at timestamptz, attempts integer not null default 0,
      done integer not null default 0, total integer not null default 0, rows integer, bytes integer, file_id integer,
      file_discarded boolean not null default false, error text, updated_at timestamptz not null)`,
    sql.unsafe`create index on ${table('exports')} (created_at desc, id desc)`,
    sql.unsafe`create index on ${table('exports')} (file_id) where file_id is not null`,
  ],
  handlers: {
    ExportRequested: async ({ tx, table }, event) => {
      const d = (event as unknown as Data<{ exportId: number; kind: string; parameters: Record<string, unknown>; requestedBy: number }>).data;
      await tx.query(sql.unsafe`
        insert into ${table('exports')} (id, kind, parameters, status, requested_by, created_at, updated_at)
        values (${d.exportId}, ${d.kind}, ${JSON.stringify(d.parameters)}::jsonb, 'initiated', ${d.requestedBy}, ${at(event)}, ${at(event)})
        on conflict (id) do nothing`);
    },
    ExportStarted: async ({ tx, table }, event) => {
      const d = (event as unknown as Data<{ attempt: number }>).data;
      await tx.query(sql.unsafe`
        update ${table('exports')} set status = 'computing', attempts = ${d.attempt}, started_at = ${at(event)}, done = 0, total = 0, updated_at = ${at(event)}
         where id = ${idOf(event)}`);
    },
    ExportProgressed: async ({ tx, table }, event) => {
      const d = (event as unknown as Data<{ done: number; total: number }>).data;
      await tx.query(sql.unsafe`
        update ${table('exports')} set done = ${d.done}, total = ${d.total}, updated_at = ${at(event)} where id = ${idOf(event)} and status = 'computing'`);
    },
    ExportFinished: async ({ tx, table }, event) => {
      const d = (event as unknown as Data<{ fileId: number; rows: number; bytes: number }>).data;
      await tx.query(sql.unsafe`
        update ${table('exports')} set status = 'finished', file_id = ${d.fileId}, rows = ${d.rows}, bytes = ${d.bytes}, done = ${d.rows}, total = ${d.rows},
               finished_at = ${at(event)}, updated_at = ${at(event)}
         where id = ${idOf(event)}`);
    },
    ExportFailed: async ({ tx, table }, event) => {
      const d = (event as unknown as Data<{ reason: string }>).data;
      await tx.query(sql.unsafe`
        update ${table('exports')} set status = 'error', error = ${d.reason}, finished_at = ${at(event)}, updated_at = ${at(event)} where id = ${idOf(event)}`);
    },
    ExportFileDiscarded: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`update ${table('exports')} set file_discarded = true, updated_at = ${at(event)} where id = ${idOf(event)}`);
    },
  },
});
