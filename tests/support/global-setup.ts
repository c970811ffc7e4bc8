import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { startEmbeddedPostgres } from '../../infrastructure/postgres/embedded-postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A connection string to a database on a server where tests may create their own databases. */
    pgAdminUrl: string;
  }
}

/**
 * One PostgreSQL for the whole run: DATABASE_URL when set (its user must be allowed to create
 * databases), otherwise an embedded server in a fresh directory. Each test file makes its own
 * database on it (tests/support/test-database.ts).
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide('pgAdminUrl', process.env.DATABASE_URL);
    return;
  }
  const dataDir = join(import.meta.dirname, '..', '..', '.data', `test-${process.pid}`);
  const port = 55_000 + (process.pid % 5000);
  const server = await startEmbeddedPostgres({ dataDir, port, log: silentLog, database: 'postgres' });
  project.provide('pgAdminUrl', server.connectionString('postgres'));
  return async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
