import type pg from 'pg';

/**
 * After an erasure (issue 32 item 3, decision 0051): the tables that held the person in clear are
 * rewritten (VACUUM FULL: no dead row, no stale index entry keeps the old values on disk) and their
 * statistics taken again (ANALYZE: `pg_stats` samples no erased value; a table left empty has its
 * samples cleared, which ANALYZE alone leaves). `readModels` are the `rm`
 * views of the read models that rewrite an erased person's rows; each is resolved to the table of
 * its active generation. Slow on big tables and it holds an exclusive lock while it runs: erasures are
 * rare and asked for by hand. What stays: WAL segments and backups taken before (decision 0051).
 */
export const createErasureCompaction = (pool: pg.Pool, readModels: readonly string[], others: readonly string[]) => async () => {
  const { rows } = await pool.query<{ table_schema: string; table_name: string }>(
    `select distinct table_schema, table_name from information_schema.view_table_usage where view_schema = 'rm' and view_name = any($1::text[])`,
    [readModels],
  );
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const tables = [...rows.map((r) => `${quote(r.table_schema)}.${quote(r.table_name)}`), ...others];
  const canClear = (await pool.query<{ ok: boolean }>(`select to_regproc('pg_clear_attribute_stats') is not null as ok`)).rows[0]?.ok === true;
  for (const table of tables) {
    await pool.query(`vacuum (full, analyze) ${table}`);
    // ANALYZE of a table left empty keeps its old samples: clear them (PostgreSQL 18's pg_clear_attribute_stats).
    const empty = (await pool.query<{ empty: boolean }>(`select not exists (select 1 from ${table}) as empty`)).rows[0]?.empty === true;
    if (!empty || !canClear) continue;
    await pool.query(
      `select pg_clear_attribute_stats(n.nspname, c.relname, a.attname, false)
         from pg_class c join pg_namespace n on n.oid = c.relnamespace join pg_attribute a on a.attrelid = c.oid
        where c.oid = $1::regclass and a.attnum > 0 and not a.attisdropped`,
      [table],
    );
  }
  // The old samples themselves are dead rows of the statistics catalog now: rewrite it too. A database user
  // without the right (not the owner of the database, not pg_maintain) leaves them until autovacuum; decision 0051.
  await pool.query('vacuum (full) pg_catalog.pg_statistic').catch(() => undefined);
  return tables.length;
};
