import cluster, { type Worker } from 'node:cluster';
import type { Config } from '../config/config.ts';
import { type MigratedDatabase, startMigratedDatabase } from '../postgres/migrated-database.ts';
import { createLogger } from './logger.ts';

/** More restarts than this within a minute is a crash loop: the supervisor stops everything. */
const RESTARTS_PER_MINUTE = 5;
const RESTART_DELAY_MS = 1000;
const SHUTDOWN_MS = 35_000;

/**
 * `API_PROCESSES=N npm start` (decision 0035): this process owns the database (the embedded
 * PostgreSQL when DATABASE_URL is unset), migrates it once, and forks N API processes with
 * node:cluster. Each worker is the whole platform of `npm start` (HTTP, projection runner, job
 * workers) on the one database; they share the port (the primary hands connections round-robin).
 * The projection runners agree through advisory locks, so one worker at a time applies each
 * projection; a worker that dies is replaced, and meanwhile another takes over its projections.
 */
export const superviseApiProcesses = async (config: Config): Promise<void> => {
  const logger = createLogger(config.logLevel).child({ role: 'supervisor' });
  const processes = config.apiProcesses;
  let database: Promise<MigratedDatabase> | null = null;
  let stopping = false;
  const restarts: number[] = [];

  const shutdown = async (reason: string, code: number) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${reason}: shutting down ${processes} API processes\n`);
    const force = setTimeout(() => process.exit(1), SHUTDOWN_MS);
    force.unref();
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.isDead()) return resolve();
            worker.once('exit', () => resolve());
            worker.process.kill('SIGTERM');
          }),
      ),
    );
    // A shutdown during start-up waits for it, so that the embedded server it starts is stopped too.
    const started = await database?.catch(() => null);
    await started?.embedded?.stop().catch(() => undefined);
    process.exit(code);
  };
  process.once('SIGINT', () => void shutdown('SIGINT', 0));
  process.once('SIGTERM', () => void shutdown('SIGTERM', 0));

  // Once here, so the workers start on a migrated database (they would queue on the migration lock otherwise).
  database = startMigratedDatabase(config, logger);
  let databaseUrl: string;
  try {
    databaseUrl = (await database).connectionString;
  } catch (error) {
    process.stderr.write(`Medilearn could not start:\n${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }

  const env = { DATABASE_URL: databaseUrl };
  let listening = 0;
  const fork = (): void => {
    const worker = cluster.fork(env);
    worker.once('listening', () => {
      listening++;
      if (listening === processes) {
        logger.info({ processes, port: config.port }, 'every API process is listening');
        process.stdout.write(`${processes} API processes serve http://localhost:${config.port} on one PostgreSQL\n`);
      }
    });
    worker.once('exit', (code, signal) => {
      if (stopping) return;
      logger.warn({ pid: worker.process.pid, code, signal }, 'API process ended; starting another');
      const now = Date.now();
      restarts.push(now);
      while (restarts.length > 0 && (restarts[0] as number) < now - 60_000) restarts.shift();
      if (restarts.length > RESTARTS_PER_MINUTE) {
        process.stderr.write(`API processes keep ending (${restarts.length} in a minute); see the log above.\n`);
        void shutdown('crash loop', 1);
        return;
      }
      setTimeout(() => {
        if (!stopping) fork();
      }, RESTART_DELAY_MS);
    });
  };
  for (let i = 0; i < processes; i++) fork();
};
