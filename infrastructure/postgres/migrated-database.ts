import type { Log } from '../logging/log.port.ts';
import { type EmbeddedServer, startEmbeddedPostgres } from './embedded-postgres.ts';
import { migrateDatabase } from './migrate.ts';

/** The database the platform runs on, migrated; `embedded` is the server started for it, if any (its owner stops it). */
export type MigratedDatabase = { connectionString: string; embedded: EmbeddedServer | null };

/** Waits before each retry of the migration: 250 ms doubling, six retries (about 16 s in all). */
const RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000, 8000];

/** Names the step that failed, so the start-up error says whether the server or the migration did. */
const step = async <A>(what: string, run: () => Promise<A>): Promise<A> => {
  try {
    return await run();
  } catch (cause) {
    throw new Error(`${what}: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
};

/**
 * What `npm start` and the API supervisor (decision 0035) do before opening pools: the embedded
 * PostgreSQL started when no DATABASE_URL is given, then the migrations applied. An external
 * database may still be starting, so the migration (its first connection) is retried with backoff.
 * If the migration fails for good, the embedded server started here is stopped before the error.
 */
export const startMigratedDatabase = async (
  config: { databaseUrl: string | undefined; dataDir: string; embeddedPgPort: number },
  logger: Log,
): Promise<MigratedDatabase> => {
  let embedded: EmbeddedServer | null = null;
  let connectionString = config.databaseUrl;
  if (!connectionString) {
    const server = await step('Embedded PostgreSQL', () =>
      startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPgPort, log: logger, database: 'medilearn' }),
    );
    embedded = server;
    connectionString = server.connectionString('medilearn');
    logger.info({ port: server.port }, 'embedded PostgreSQL is running');
  }
  const url = connectionString;
  try {
    for (let retry = 0; ; retry++) {
      try {
        await step('Database migrations', () => migrateDatabase(url, { logger }));
        break;
      } catch (error) {
        const delay = RETRY_DELAYS_MS[retry];
        if (delay === undefined) throw error;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  } catch (error) {
    await embedded?.stop().catch(() => undefined);
    throw error;
  }
  return { connectionString: url, embedded };
};
