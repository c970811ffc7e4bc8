import { sql } from 'slonik';
import { defineProjection } from '../../infrastructure/projections/projection.port.ts';

type Uploaded = {
  importId: number;
  fileId: number | null;
  fileName: string;
  rows: number;
  problems: unknown[];
  problemCount: number;
  existing: number;
};
type RowResult = { row: number; outcome: string; userId: number | null; message: string | null };
type Counts = { created: number; updated: number; skipped: number; failed: number };

const idOf = (streamName: string) => Number(streamName.slice('import-'.length));

/**
 * Users imports (issue 17 item 1) as the imports page lists them: who uploaded which file when,
 * its precheck, who started it, how far the job is (progress), and per row what became of it.
 * `status`: blocked (the precheck found problems), ready, running, completed, failed.
 */
export const importsProjection = defineProjection({
  name: 'imports',
  version: 1,
  tables: ['imports', 'import_rows'],
  setup: (table) => [
    sql.unsafe`create table ${table('imports')} (
      id integer primary key,
      file_id integer,
      file_name text not null,
      uploaded_by integer,
      uploaded_at timestamptz not null,
      row_count integer not null,
      problems jsonb not null,
      problem_count integer not null,
      existing integer not null,
      status text not null,
      send_welcome boolean,
      started_by integer,
      started_at timestamptz,
      processed integer not null default 0,
      created integer not null default 0,
      updated integer not null default 0,
      skipped integer not null default 0,
      failed integer not null default 0,
      finished_at timestamptz,
      error text
    )`,
    sql.unsafe`create index on ${table('imports')} (uploaded_at desc, id desc)`,
    sql.unsafe`create table ${table('import_rows')} (
      import_id integer not null,
      sheet_row integer not null,
      outcome text not null,
      user_id integer,
      message text,
      primary key (import_id, sheet_row)
    )`,
    sql.unsafe`create index on ${table('import_rows')} (import_id, outcome, sheet_row)`,
  ],
  handlers: {
    UserImportUploaded: async ({ tx, table }, event) => {
      const d = event.data as Uploaded;
      await tx.query(sql.unsafe`
        insert into ${table('imports')} (id, file_id, file_name, uploaded_by, uploaded_at, row_count, problems, problem_count, existing, status)
        values (${d.importId}, ${d.fileId}, ${d.fileName}, ${(event.metadata.actorId as number | null | undefined) ?? null}, ${event.createdAt.toISOString()},
          ${d.rows}, ${sql.jsonb(d.problems as never)}, ${d.problemCount}, ${d.existing}, ${d.problemCount > 0 ? 'blocked' : 'ready'})
        on conflict (id) do nothing`);
    },
    UserImportStarted: async ({ tx, table }, event) => {
      const d = event.data as { sendWelcome: boolean };
      await tx.query(sql.unsafe`
        update ${table('imports')} set status = 'running', send_welcome = ${d.sendWelcome}, error = null,
          started_by = coalesce(started_by, ${(event.metadata.actorId as number | null | undefined) ?? null}),
          started_at = coalesce(started_at, ${event.createdAt.toISOString()})
        where id = ${idOf(event.streamName)}`);
    },
    UserImportRowsProcessed: async ({ tx, table }, event) => {
      const d = event.data as { from: number; results: RowResult[] };
      const id = idOf(event.streamName);
      const results = d.results;
      // A batch applied again (a rebuild) changes nothing: rows are keyed, and the counts are recounted from them.
      await tx.query(sql.unsafe`
        insert into ${table('import_rows')} (import_id, sheet_row, outcome, user_id, message)
        select ${id}, r.sheet_row, r.outcome, r.user_id, r.message
        from unnest(${sql.array(
          results.map((r) => r.row),
          'int4',
        )}::int4[], ${sql.array(
          results.map((r) => r.outcome),
          'text',
        )}::text[], ${sql.array(
          results.map((r) => r.userId),
          'int4',
        )}::int4[], ${sql.array(
          results.map((r) => r.message),
          'text',
        )}::text[]) as r(sheet_row, outcome, user_id, message)
        on conflict (import_id, sheet_row) do nothing`);
      await tx.query(sql.unsafe`
        update ${table('imports')} i set processed = greatest(i.processed, ${d.from + results.length}),
          created = c.created, updated = c.updated, skipped = c.skipped, failed = c.failed
        from (select count(*) filter (where outcome = 'created')::int as created, count(*) filter (where outcome = 'updated')::int as updated,
                     count(*) filter (where outcome = 'skipped')::int as skipped, count(*) filter (where outcome = 'failed')::int as failed
              from ${table('import_rows')} where import_id = ${id}) c
        where i.id = ${id}`);
    },
    UserImportCompleted: async ({ tx, table }, event) => {
      const d = event.data as Counts;
      await tx.query(sql.unsafe`
        update ${table('imports')} set status = 'completed', finished_at = ${event.createdAt.toISOString()}, created = ${d.created}, updated = ${d.updated},
          skipped = ${d.skipped}, failed = ${d.failed}, processed = row_count
        where id = ${idOf(event.streamName)}`);
    },
    UserImportFailed: async ({ tx, table }, event) => {
      const d = event.data as { message: string };
      await tx.query(sql.unsafe`update ${table('imports')} set status = 'failed', error = ${d.message} where id = ${idOf(event.streamName)}`);
    },
  },
});
