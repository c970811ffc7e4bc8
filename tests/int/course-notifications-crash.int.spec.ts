import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expandNotification,
  mailNotification,
  NOTIFICATION_EXPAND_QUEUE,
  NOTIFICATION_MAIL_QUEUE,
  type NotificationDeps,
} from '../../application/courses/course-notifications.job.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import type { Jobs } from '../../infrastructure/jobs/jobs.port.ts';
import { startJobs } from '../../infrastructure/jobs/pg-boss-jobs.ts';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { createSmtpMailer } from '../../infrastructure/mail/smtp-mailer.ts';
import { startSmtpSink } from '../support/smtp-sink.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

const PEOPLE = 24;

/**
 * Issue 16 item 3: each delivery once. A notification to 24 people is worked by one worker that
 * crashes right after one send (before its job is marked done, so pg-boss runs that job again) and
 * is then stopped half way through the batch; a second worker takes over what is left. Every person
 * gets exactly one mail: none twice, none lost.
 */
describe('course notifications survive a worker that dies mid-batch', () => {
  let p: TestPlatform;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let token = '';
  const workers: Jobs[] = [];

  const worker = async (options: { crashAfterSend?: number; onMail?: () => void } = {}) => {
    const jobs = await startJobs({ connectionString: p.db.connectionString, log: silentLog, pollingIntervalSeconds: 0.5 });
    workers.push(jobs);
    const deps: NotificationDeps = {
      store: p.store,
      mailer: createSmtpMailer({ url: smtp.url, from: 'Medilearn <no-reply@medilearn.test>' }),
      log: silentLog,
      db: p.db.slonik,
      jobs,
      publicUrl: 'https://medilearn.test',
      now: () => new Date(),
    };
    let mails = 0;
    const send = mailNotification(deps);
    await jobs.register(NOTIFICATION_EXPAND_QUEUE, expandNotification(deps), { retryLimit: 3, retryDelaySeconds: 1 });
    await jobs.register(
      NOTIFICATION_MAIL_QUEUE,
      async (data, meta) => {
        await send(data, meta);
        mails += 1;
        options.onMail?.();
        // The process dies after the mail went out and before the job was marked done: pg-boss will run it again.
        if (mails === options.crashAfterSend && meta.retryCount === 0) throw new Error('crash after send');
      },
      { retryLimit: 3, retryDelaySeconds: 1 },
    );
    return jobs;
  };

  beforeAll(async () => {
    smtp = await startSmtpSink();
    p = await startTestPlatform({ PUBLIC_URL: 'https://medilearn.test' });
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    token = (await p.login('skrbnik')).token;
    for (let i = 0; i < PEOPLE; i += 1) await p.createUser(`oseba${i}`, [{ roleId: ROLE.participant, unitId: 1, companyId: null }]);
  }, 180_000);

  afterAll(async () => {
    for (const jobs of workers) await jobs.stop().catch(() => undefined);
    await p?.close();
    await smtp?.close();
  });

  it('mails every one of 24 people exactly once across a crash and a hand-over to another worker', async () => {
    const call = async (method: 'POST', url: string, payload?: object) => {
      const response = await p.app.inject({ method, url, headers: { authorization: `JWT ${token}` }, ...(payload ? { payload } : {}) });
      const position = response.headers['x-event-position'];
      if (typeof position === 'string') await p.settleAll(parsePosition(position));
      return response;
    };
    const course = (
      await call('POST', '/api/courses', {
        type: 3,
        title: 'Obvestilo vsem',
        description: 'Izobraževanje za preizkus zanesljive dostave.',
        cover: '/c.svg',
        creditPoints: 1,
        public: true,
      })
    ).json() as { id: number };
    await call('POST', `/api/courses/${course.id}/blocks`, { block: { kind: 'points', name: 'Točke', points: 1 } });
    await call('POST', `/api/courses/${course.id}/publish`);
    expect((await call('POST', `/api/courses/${course.id}/notifications`, { subject: 'Zanesljivo', message: 'Eno sporočilo za vsakega.' })).statusCode).toBe(
      202,
    );
    const requested = (await p.store.readStream(`course-${course.id}`)).events.find((e) => e.type === 'CourseNotificationRequested');

    // Worker one: crashes after its third send, and is stopped once ten have gone.
    let stopped: Promise<void> | null = null;
    const first = await worker({
      crashAfterSend: 3,
      onMail: () => {
        if (smtp.received.length >= 10 && !stopped) stopped = first.stop();
      },
    });
    await first.send(NOTIFICATION_EXPAND_QUEUE, { streamName: `course-${course.id}`, eventId: requested?.eventId });
    const deadline = Date.now() + 30_000;
    while (!stopped && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    await stopped;
    const afterFirst = smtp.received.length;
    expect(afterFirst).toBeGreaterThanOrEqual(10);
    expect(afterFirst).toBeLessThan(PEOPLE + 1);
    // The stop came half way: the rest were left to the next worker.

    // Worker two takes over what is left.
    await worker();
    while (smtp.received.filter((m) => m.subject === 'Zanesljivo').length < PEOPLE + 1 && Date.now() < deadline + 30_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // A moment more, in case anything would arrive twice.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const recipients = smtp.received.filter((m) => m.subject === 'Zanesljivo').map((m) => m.to.toLowerCase());
    // The 24 and the admin: a public course is for every active user.
    expect(recipients).toHaveLength(PEOPLE + 1);
    expect(new Set(recipients).size).toBe(PEOPLE + 1);
  }, 120_000);
});
