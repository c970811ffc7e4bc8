// Every admin screen's main query at the size of a large organisation (issue 37 item 4): by default
// 1,000,000 enrollment events over 50,000 users in 1,000 units of 200 companies, 2,000 courses.
// `npm run bench -- screens`; sizes from BENCH_SCREEN_EVENTS, BENCH_SCREEN_USERS, BENCH_SCREEN_COURSES,
// BENCH_SCREEN_COMPANIES, the rate from BENCH_SCREEN_RATE, each row's length from BENCH_SECONDS,
// the import's rows from BENCH_SCREEN_IMPORT_ROWS. Its parts: the courses bench's seed
// (courses-seed.ts, courses-seed-store.ts), the requests and their equality check (screens-traffic.ts)
// through the open-loop load client (courses-load.ts), the plain baseline (screens-plain.ts), the
// export and import (screens-jobs.ts) and the tables it prints (screens-report.ts).

import { randomUUID } from 'node:crypto';
import { CHAMBER_CREDIT_QUEUE } from '../../application/chambers/chamber-credits.job.ts';
import { XAPI_OUT_QUEUE } from '../../application/xapi-out/xapi-out.job.ts';
import { loadConfig } from '../../infrastructure/config/config.ts';
import { type AllPosition, parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { startJobs } from '../../infrastructure/jobs/pg-boss-jobs.ts';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { createLogger } from '../../infrastructure/main/logger.ts';
import { buildPlatform } from '../../infrastructure/main/platform.ts';
import { createBenchDb } from './bench-support.ts';
import { type Figures, load } from './courses-load.ts';
import { random, type SeedCourse, type SeedSizes, shuffled } from './courses-seed.ts';
import { ADMIN_ID, checkReadModelHoldsSeed, seedStore } from './courses-seed-store.ts';
import { type Call, timeUsersExport, timeUsersImport } from './screens-jobs.ts';
import { startScreensPlain } from './screens-plain.ts';
import { reportJobs, reportScreens, reportSeed } from './screens-report.ts';
import { checkScreensAgree, SCREENS, screenRequests, type Target } from './screens-traffic.ts';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
/** Courses with a report generated before the load (the reports screen reads one of them). */
const REPORTED_COURSES = 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const benchScreens = async (adminUrl: string, out: (line: string) => void) => {
  const total = env('BENCH_SCREEN_EVENTS', 1_000_000);
  const sizes: SeedSizes = {
    participants: env('BENCH_SCREEN_USERS', 50_000),
    companies: env('BENCH_SCREEN_COMPANIES', 200),
    unitsPerCompany: 5,
    professions: 10,
    courses: env('BENCH_SCREEN_COURSES', 2_000),
  };
  const rate = env('BENCH_SCREEN_RATE', 100);
  const duration = env('BENCH_SECONDS', 10);
  const importRows = env('BENCH_SCREEN_IMPORT_ROWS', 10_000);
  const db = await createBenchDb(adminUrl, { poolSize: 20, maxInFlight: 2 });

  const seedStarted = performance.now();
  // Only the courses and the expected counts are kept: the journeys would weigh on every garbage collection of the server in this process.
  const { courses, expected } = await seedStore(db.store, total, sizes);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const storedEvents = Number((await db.pg.query<{ n: string }>('select sum(cardinality(event_ids))::text as n from es.appends')).rows[0]?.n);
  // The seed wrote its users' ids itself: the id allocator hands out the import's above them.
  await db.pg.query('create sequence if not exists ids.user as bigint');
  await db.pg.query(`select setval('ids.user', 1000000)`);
  await db.pg.query('analyze es.appends');

  // The platform as `npm start` runs it in one process (PROCESS_ROLE=all): API, projections, reactors and job workers.
  const config = loadConfig({ DEMO_DATA: 'false', UI_DIST_DIR: '/nonexistent', PORT: '0', EXPORTS_PER_HOUR: '1000' });
  const jobs = await startJobs({ connectionString: db.connectionString, log: silentLog, pollingIntervalSeconds: 0.5 });
  const platform = await buildPlatform({ config, db, store: db.store, logger: createLogger('silent'), log: silentLog, jobs });
  // Stopped in reverse order whatever happens, so a failed run leaves no worker or server behind.
  const cleanup: (() => Promise<unknown>)[] = [db.drop, jobs.stop, () => platform.runner.stop(), () => platform.app.close()];
  try {
    const head = (await db.store.headPosition()) as AllPosition;
    const catchUpStarted = performance.now();
    await platform.runner.start();
    const everything = platform.runner.status().map((s) => s.name);
    if (!(await platform.runner.waitFor(everything, head, 3_600_000))) throw new Error('catch-up did not finish');
    const catchUpSeconds = (performance.now() - catchUpStarted) / 1000;
    await checkReadModelHoldsSeed(db.pg, expected);

    // The reactors queued jobs for the seeded history while catching up: a chamber-credit job per
    // completion (it ends at once for a course reporting to no chamber) and an xAPI forwarding run per
    // batch (a no-op with no LRS set), which the queue works one at a time. They are removed, as an
    // organisation's history would have been worked long ago; the rest is drained.
    const historical =
      (await db.pg.query(`delete from pgboss.job where name = any($1::text[]) and state in ('created', 'retry')`, [[CHAMBER_CREDIT_QUEUE, XAPI_OUT_QUEUE]]))
        .rowCount ?? 0;
    const queued = await db.pg.query<{ name: string; n: number }>(
      `select name, count(*)::int as n from pgboss.job where state in ('created', 'retry', 'active') and start_after <= now() group by name order by name`,
    );
    const drained = queued.rows.map((r) => `${r.name} ${r.n}`).join(', ') || 'none';
    const drainStarted = performance.now();
    for (;;) {
      const waiting = await db.pg.query<{ n: number }>(
        `select count(*)::int as n from pgboss.job where state in ('created', 'retry', 'active') and start_after <= now()`,
      );
      if ((waiting.rows[0]?.n ?? 0) === 0) break;
      if (performance.now() - drainStarted > 600_000) throw new Error('the job queue did not drain');
      await sleep(500);
    }
    const drainSeconds = (performance.now() - drainStarted) / 1000;
    // Settle: the vacuum and analyze autovacuum would start now, and a checkpoint, so the figures are of reads.
    const settleStarted = performance.now();
    await db.pg.query('vacuum analyze');
    await db.pg.query('checkpoint');
    const settleSeconds = (performance.now() - settleStarted) / 1000;
    reportSeed(out, {
      sizes,
      total,
      storedEvents,
      enrollments: expected.enrollments,
      seedSeconds,
      catchUpSeconds,
      historical,
      drained,
      drainSeconds,
      settleSeconds,
    });

    await platform.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (platform.app.server.address() as { port: number }).port;
    const plain = await startScreensPlain(db.pg);
    cleanup.push(() => plain.app.close());
    const token = await platform.tokens.sign({ userId: ADMIN_ID, sessionId: randomUUID(), realUserId: null, position: null });
    const call: Call = async (method, url, payload, contentType) => {
      const response = await platform.app.inject({
        method,
        url,
        headers: { authorization: `JWT ${token}`, ...(contentType ? { 'content-type': contentType } : {}) },
        ...(payload ? { payload } : {}),
      });
      if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
      const position = response.headers['x-event-position'];
      if (typeof position === 'string') await platform.runner.waitFor(everything, parsePosition(position) as AllPosition, 600_000);
      return response.json();
    };

    // The reports screen reads a report: one generated (all time) for each of some random courses.
    const rnd = random(37);
    const reported: { course: SeedCourse; reportId: number }[] = [];
    for (const course of shuffled(courses, rnd).slice(0, REPORTED_COURSES)) {
      reported.push({ course, reportId: (await call('POST', `/api/courses/${course.id}/reports`, { intervalId: 0 })).id });
    }
    const target = (needsReport: boolean): Target => {
      const company = 1 + Math.floor(rnd() * sizes.companies);
      if (needsReport) return { ...(reported[Math.floor(rnd() * reported.length)] as (typeof reported)[number]), company };
      return { course: courses[Math.floor(rnd() * courses.length)] as SeedCourse, reportId: 0, company };
    };

    const rows: Figures[] = [];
    /** Each row's median time of one request alone (warm, one after another), by the row's label. */
    const alone = new Map<string, number>();
    const ports = { platform: port, plain: plain.port };
    const sides = [
      ['platform', port],
      ['plain', plain.port],
    ] as const;
    for (const screen of SCREENS) {
      const targets = () => target(screen.needsReport ?? false);
      await checkScreensAgree(screen, Array.from({ length: 10 }, targets), token, ports);
      // Warm-up, not reported: JIT, prepared statements, caches.
      for (const [side, serverPort] of sides) await load({ port: serverPort, rate, seconds: 1, requests: screenRequests(screen, side, targets, token, rate) });
      const medians = await checkScreensAgree(screen, Array.from({ length: 20 }, targets), token, ports);
      alone.set(screen.name, medians.platform).set(screen.plainName, medians.plain);
      for (const [side, serverPort] of sides) {
        rows.push(
          ...(await load({ port: serverPort, rate, seconds: duration, requests: screenRequests(screen, side, targets, token, Math.round(rate * duration)) })),
        );
      }
    }
    reportScreens(out, rate, duration, rows, alone);

    const fileOf = async (id: number) => {
      const response = await platform.app.inject({ method: 'GET', url: `/api/exports/${id}/file`, headers: { authorization: `JWT ${token}` } });
      if (response.statusCode !== 200) throw new Error(`export file ${id}: ${response.statusCode} ${response.body}`);
      return response.rawPayload;
    };
    const exported = await timeUsersExport(call, db.pg, fileOf);
    const imported = await timeUsersImport(call, db.pg, importRows, sizes);
    reportJobs(out, exported, imported);

    return { seedSeconds, catchUpSeconds, drainSeconds, rows, exported, imported };
  } finally {
    for (const close of cleanup.reverse()) await close().catch(() => undefined);
  }
};
