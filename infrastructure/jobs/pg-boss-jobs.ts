import { PgBoss } from 'pg-boss';
import type { Log } from '../logging/log.port.ts';

export type JobHandler = (data: unknown) => Promise<void>;

export type Jobs = {
  /** Registers a queue and its worker; with `cron`, also a schedule (Europe/Ljubljana time). */
  register(name: string, handler: JobHandler, options?: { cron?: string }): Promise<void>;
  send(name: string, data?: object): Promise<string | null>;
  stop(): Promise<void>;
};

/** Background work in PostgreSQL (pg-boss): exports, imports, notifications, maintenance. */
export const startJobs = async (options: { connectionString: string; log: Log }): Promise<Jobs> => {
  const boss = new PgBoss({ connectionString: options.connectionString, schema: 'pgboss', application_name: 'medilearn-jobs' });
  boss.on('error', (error) => options.log.error({ err: error }, 'job queue error'));
  await boss.start();
  return {
    async register(name, handler, registration = {}) {
      await boss.createQueue(name);
      await boss.work(name, async (jobs) => {
        for (const job of jobs) await handler(job.data);
      });
      if (registration.cron) await boss.schedule(name, registration.cron, {}, { tz: 'Europe/Ljubljana' });
    },
    send: (name, data) => boss.send(name, data ?? {}),
    stop: () => boss.stop({ graceful: true, timeout: 10_000 }),
  };
};
