import { PgBoss } from 'pg-boss';
import type { Log } from '../logging/log.port.ts';
import type { Jobs } from './jobs.port.ts';

/**
 * pg-boss in schema `pgboss` of the platform's database: queues, workers, schedules.
 * `sendOnly` (an api process, decision 0066): `register` creates the queue, with the same options a job
 * process gives it, so that reactors can send to it; no worker, no schedule, no monitor run here.
 */
export const startJobs = async (options: {
  connectionString: string;
  log: Log;
  pollingIntervalSeconds?: number;
  /** How often the queue looks for jobs that expired or fell silent (pg-boss default 60 s; tests shorten it). */
  monitorIntervalSeconds?: number;
  /** Replaces the heartbeat of every queue registered with one (JOB_HEARTBEAT_SECONDS). */
  heartbeatSeconds?: number;
  sendOnly?: boolean;
}): Promise<Jobs> => {
  const monitor = options.monitorIntervalSeconds
    ? { monitorIntervalSeconds: options.monitorIntervalSeconds, superviseIntervalSeconds: options.monitorIntervalSeconds }
    : {};
  // A sender needs a connection or two; it neither fires schedules nor fails silent jobs (job processes do).
  const role = options.sendOnly ? { supervise: false, schedule: false, max: 3 } : {};
  const boss = new PgBoss({
    connectionString: options.connectionString,
    schema: 'pgboss',
    // Which process a pg-boss connection belongs to, and whether it works jobs (pg_stat_activity).
    application_name: `medilearn-jobs:${process.pid}:${options.sendOnly ? 'send' : 'work'}`,
    ...monitor,
    ...role,
  });
  boss.on('error', (error) => options.log.error({ err: error }, 'job queue error'));
  await boss.start();
  const polling = options.pollingIntervalSeconds ?? 1;
  return {
    async register(name, handler, registration = {}) {
      await boss.createQueue(name, {
        retryLimit: registration.retryLimit ?? 0,
        retryDelay: registration.retryDelaySeconds ?? 5,
        retryBackoff: (registration.retryLimit ?? 0) > 0,
        ...(registration.heartbeatSeconds ? { heartbeatSeconds: options.heartbeatSeconds ?? registration.heartbeatSeconds } : {}),
      });
      if (options.sendOnly) return;
      await boss.work(name, { pollingIntervalSeconds: polling }, async (jobs) => {
        for (const job of jobs) await handler(job.data, { id: job.id, retryCount: (job as { retryCount?: number }).retryCount ?? 0 });
      });
      if (registration.cron) await boss.schedule(name, registration.cron, {}, { tz: 'Europe/Ljubljana' });
    },
    send: (name, data, sendOptions = {}) => boss.send(name, data ?? {}, sendOptions.id ? { id: sendOptions.id } : {}),
    status: async (name, id) => {
      const job = await boss.getJobById(name, id);
      if (!job) return null;
      return {
        id: job.id,
        name: job.name,
        state: job.state as never,
        retryCount: (job as { retryCount?: number }).retryCount ?? 0,
        createdOn: new Date((job as { createdOn: string | Date }).createdOn),
      };
    },
    stop: () => boss.stop({ graceful: true, timeout: 10_000 }),
  };
};
