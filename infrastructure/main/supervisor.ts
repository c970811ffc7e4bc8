import cluster, { type Worker } from 'node:cluster';
import type { Config } from '../config/config.ts';
import { type MigratedDatabase, startMigratedDatabase } from '../postgres/migrated-database.ts';
import { createLogger } from './logger.ts';

/** More restarts than this within a minute is a crash loop: the supervisor stops everything (api and all processes; job processes back off instead). */
const RESTARTS_PER_MINUTE = 5;
/** A job process that ran this long before it ended was no crash loop: the next one starts after RESTART_DELAY_MS again. */
const STEADY_MS = 60_000;
const RESTART_DELAY_MS = 1000;
const SHUTDOWN_MS = 35_000;

/**
 * `API_PROCESSES=N npm start` (decision 0035): this process owns the database (the embedded
 * PostgreSQL when DATABASE_URL is unset), migrates it once, and forks N API processes with
 * node:cluster. Each worker is the whole platform of `npm start` (HTTP, projection runner, job
 * workers) on the one database; they share the port (the primary hands connections round-robin).
 * The projection runners agree through advisory locks, so one worker at a time applies each
 * projection; a worker that dies is replaced, and meanwhile another takes over its projections.
 *
 * With `JOB_PROCESSES=M` above 0 (decision 0066) the N are api processes (HTTP, projections and
 * reactors; jobs only sent) and M job processes work every queue and listen on no port, so only
 * the api processes share it. Each role is replaced as it ends. API processes that keep ending stop
 * everything (nothing would serve); job processes that keep ending are started again later and later
 * (1 s, 2 s, 4 s, ... up to JOB_RESTART_MAX_DELAY_MS) while the api processes serve on: a job that
 * crashes its process (a poisoned message, a dead mail server) must not take the site down with it.
 */
type Role = 'api' | 'jobs' | 'all';

export const superviseApiProcesses = async (config: Config): Promise<void> => {
  const logger = createLogger(config.logLevel).child({ role: 'supervisor' });
  // JOB_PROCESSES=0: every process does everything, as before roles existed.
  const counts: Partial<Record<Role, number>> =
    config.jobProcesses > 0 ? { api: config.apiProcesses, jobs: config.jobProcesses } : { all: config.apiProcesses };
  const total = config.apiProcesses + config.jobProcesses;
  const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 'es'}`;
  const described =
    config.jobProcesses > 0
      ? `${plural(config.apiProcesses, 'API process')} and ${plural(config.jobProcesses, 'job process')}`
      : `${config.apiProcesses} API processes`;
  let database: Promise<MigratedDatabase> | null = null;
  let stopping = false;
  /** When API processes ended in the last minute, the crash-loop count: all of one role (api, or all when JOB_PROCESSES=0). */
  const apiEnds: number[] = [];
  /** Job processes that ended one after another, each within STEADY_MS of its start: the back-off's exponent. */
  let jobFailures = 0;

  const shutdown = async (reason: string, code: number) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${reason}: shutting down ${described}\n`);
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

  let ready = 0;
  const isReady = () => {
    ready++;
    if (ready !== total) return;
    logger.info({ ...counts, port: config.port }, 'every process is ready');
    const jobs = config.jobProcesses > 0 ? `; ${plural(config.jobProcesses, 'job process')} work the queues` : '';
    process.stdout.write(`${plural(config.apiProcesses, 'API process')} serve http://localhost:${config.port} on one PostgreSQL${jobs}\n`);
  };
  const fork = (role: Role): void => {
    // Each worker is one process of its role: the counts are the supervisor's, not the worker's.
    const worker = cluster.fork({ DATABASE_URL: databaseUrl, PROCESS_ROLE: role, API_PROCESSES: '1', JOB_PROCESSES: '0' });
    const forkedAt = Date.now();
    // An API process is ready when it listens; a job process listens on nothing and says so.
    if (role === 'jobs') {
      const onMessage = (message: unknown) => {
        if ((message as { medilearn?: string } | null)?.medilearn !== 'jobs-ready') return;
        worker.off('message', onMessage);
        isReady();
      };
      worker.on('message', onMessage);
    } else worker.once('listening', isReady);
    worker.once('exit', (code, signal) => {
      if (stopping) return;
      if (role === 'jobs') {
        jobFailures = Date.now() - forkedAt >= STEADY_MS ? 1 : jobFailures + 1;
        const delayMs = Math.min(RESTART_DELAY_MS * 2 ** (jobFailures - 1), config.jobRestartMaxDelayMs);
        logger.warn(
          { pid: worker.process.pid, role, code, signal, delayMs, endedInARow: jobFailures },
          `job process ended; starting another in ${delayMs / 1000} s (API processes serve on)`,
        );
        setTimeout(() => {
          if (!stopping) fork(role);
        }, delayMs);
        return;
      }
      const name = 'API process';
      logger.warn({ pid: worker.process.pid, role, code, signal }, `${name} ended; starting another`);
      const now = Date.now();
      apiEnds.push(now);
      while (apiEnds.length > 0 && (apiEnds[0] as number) < now - 60_000) apiEnds.shift();
      if (apiEnds.length > RESTARTS_PER_MINUTE) {
        process.stderr.write(`${name}es keep ending (${apiEnds.length} in a minute); see the log above.\n`);
        void shutdown('crash loop', 1);
        return;
      }
      setTimeout(() => {
        if (!stopping) fork(role);
      }, RESTART_DELAY_MS);
    });
  };
  for (const [role, count] of Object.entries(counts) as [Role, number][]) for (let i = 0; i < count; i++) fork(role);
};
