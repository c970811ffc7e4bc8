import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../infrastructure/postgres/database.ts';
import { migrate } from '../../infrastructure/postgres/migrate.ts';

const withDatabase = (url: string, database: string) => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
};

/** A new, migrated database of its own for one test file; `drop()` removes it. */
export const createTestDatabase = async (options: { poolSize?: number } = {}): Promise<Database & { drop(): Promise<void>; name: string }> => {
  const adminUrl = inject('pgAdminUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const connectionString = withDatabase(adminUrl, name);
  const client = new pg.Client({ connectionString });
  await client.connect();
  await migrate(client);
  await client.end();
  const db = await openDatabase(connectionString, { poolSize: options.poolSize ?? 40 });
  return {
    ...db,
    name,
    drop: async () => {
      await db.close();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
};
