import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';

const MIGRATIONS_DIR = join(import.meta.dirname, 'migrations');
// Any fixed number: serialises migrations of processes that start together.
const MIGRATION_LOCK = 7_340_001;

/**
 * Applies the numbered SQL files not applied yet, each in its own transaction, in file order.
 * `before` stops short of the file with that number (tests that write as an older schema did).
 */
const migrate = async (client: pg.Client, options: { before?: string }): Promise<string[]> => {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{4}_.+\.sql$/.test(f) && (options.before === undefined || f < options.before)).sort();
  const applied: string[] = [];
  await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
  try {
    await client.query('create table if not exists public.schema_migrations (name text primary key, applied_at timestamptz not null default now())');
    const done = new Set((await client.query<{ name: string }>('select name from public.schema_migrations')).rows.map((r) => r.name));
    for (const file of files) {
      if (done.has(file)) continue;
      const text = await readFile(join(MIGRATIONS_DIR, file), 'utf8');
      await client.query('begin');
      try {
        await client.query(text);
        await client.query('insert into public.schema_migrations (name) values ($1)', [file]);
        await client.query('commit');
      } catch (error) {
        await client.query('rollback');
        throw new Error(`Migration ${file} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(file);
    }
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
  }
  return applied;
};

/**
 * Connects to the database at this URL, applies what is missing, logs what it applied (`npm start`,
 * the supervisor) and answers it (tests and benchmarks that build their own databases).
 */
export const migrateDatabase = async (
  connectionString: string,
  options: { logger?: { info(data: object, message: string): void }; before?: string } = {},
): Promise<string[]> => {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const applied = await migrate(client, { before: options.before });
    if (applied.length > 0) options.logger?.info({ applied }, 'database migrated');
    return applied;
  } finally {
    await client.end();
  }
};
