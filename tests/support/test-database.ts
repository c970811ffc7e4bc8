import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../infrastructure/postgres/database.ts';
import { migrateDatabase } from '../../infrastructure/postgres/migrate.ts';

const withDatabase = (url: string, database: string) => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
};

/**
 * A new, migrated database of its own for one test file; `drop()` removes it. `migrateBefore`
 * leaves it at an older schema (the migrations before that number), and `migrate()` finishes.
 */
export const createTestDatabase = async (
  options: { poolSize?: number; migrateBefore?: string } = {},
): Promise<Database & { drop(): Promise<void>; migrate(): Promise<string[]>; name: string }> => {
  const adminUrl = inject('pgAdminUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const connectionString = withDatabase(adminUrl, name);
  await migrateDatabase(connectionString, { before: options.migrateBefore });
  const db = await openDatabase(connectionString, { poolSize: options.poolSize ?? 40 });
  return {
    ...db,
    name,
    migrate: () => migrateDatabase(connectionString),
    drop: async () => {
      await db.close();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
};
