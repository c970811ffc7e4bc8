// Course reads under load: 10,000 participants, 200 courses, 1,000,000 enrollment events.
// `npm run bench -- courses`. Its parts: the seed (courses-seed.ts, appended by courses-seed-store.ts),
// what it measures (courses-traffic.ts) through the open-loop load client (courses-load.ts), the plain
// baseline (courses-plain.ts) and the tables it prints (courses-report.ts).

import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../infrastructure/config/config.ts';
import type { AllPosition } from '../../infrastructure/event-store/event-store.port.ts';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { createLogger } from '../../infrastructure/main/logger.ts';
import { buildPlatform, PROJECTIONS } from '../../infrastructure/main/platform.ts';
import { schemaOf } from '../../infrastructure/projections/generations.ts';
import { coursesProjection } from '../../projections/courses/courses.projection.ts';
import { createBenchDb } from './bench-support.ts';
import { type Figures, load } from './courses-load.ts';
import { startPlain } from './courses-plain.ts';
import { reportAnswerToFigure, reportReads, reportSeedAndCatchUp, reportStats } from './courses-report.ts';
import { COURSES_BENCH_SIZES, random, shuffled } from './courses-seed.ts';
import { ADMIN_ID, checkReadModelHoldsSeed, seedStore } from './courses-seed-store.ts';
import {
  answerToFigure,
  checkCourseListsAgree,
  checkRecordsAgree,
  participantReads,
  profiled,
  RATE,
  STATS_ENDPOINTS,
  STATS_RATE,
  statsRequests,
} from './courses-traffic.ts';

export const benchCourses = async (adminUrl: string, out: (line: string) => void) => {
  const total = Number(process.env.BENCH_COURSE_EVENTS ?? 1_000_000);
  const duration = Number(process.env.BENCH_SECONDS ?? 10);
  const db = await createBenchDb(adminUrl, { poolSize: 20, maxInFlight: 2 });
  const seedStarted = performance.now();
  const seed = await seedStore(db.store, total);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const storedEvents = Number((await db.pg.query<{ n: string }>('select sum(cardinality(event_ids))::text as n from es.appends')).rows[0]?.n);
  await db.pg.query('analyze es.appends');

  // Catch-up: the platform's own runner builds every read model from position zero.
  const config = loadConfig({ DEMO_DATA: 'false', UI_DIST_DIR: '/nonexistent', PORT: '0' });
  const platform = await buildPlatform({ config, db, store: db.store, logger: createLogger('silent'), log: silentLog, jobs: null });
  const head = (await db.store.headPosition()) as AllPosition;
  const catchUpStarted = performance.now();
  await platform.runner.start();
  if (
    !(await platform.runner.waitFor(
      PROJECTIONS.map((p) => p.name),
      head,
      3_600_000,
    ))
  )
    throw new Error('catch-up did not finish');
  const catchUpSeconds = (performance.now() - catchUpStarted) / 1000;

  // The read model holds every journey once: enrollments, completions, certificates, quiz attempts.
  const expected = seed.expected;
  const actual = await checkReadModelHoldsSeed(db.pg, expected);

  // Settle before the load: the vacuum and analyze autovacuum would start now, and a checkpoint,
  // so the figures are of reads, not of the aftermath of writing a million events.
  const generation = platform.runner.status().find((s) => s.name === 'courses')?.generation ?? 1;
  for (const table of coursesProjection.tables) await db.pg.query(`vacuum analyze "${schemaOf('courses', generation)}"."${table}"`);
  await db.pg.query('vacuum analyze es.appends');
  await db.pg.query('checkpoint');

  reportSeedAndCatchUp(out, { sizes: COURSES_BENCH_SIZES, expected, total, storedEvents, seedSeconds, catchUpSeconds, actual });

  // Requests: random participants, each with a token, and the courses they see (mostly started ones for records).
  await platform.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (platform.app.server.address() as { port: number }).port;
  const plain = await startPlain(db.pg);
  const rnd = random(99);
  const users = shuffled(seed.participants, rnd).slice(0, 2000);
  const tokens = new Map<number, string>();
  for (const p of users) tokens.set(p.id, await platform.tokens.sign({ userId: p.id, sessionId: randomUUID(), realUserId: null, position: null }));
  const { requests, mixed } = participantReads(seed, users, tokens, rnd, Math.round(RATE * duration));
  await checkCourseListsAgree(seed, users.slice(0, 100), tokens, { platform: port, plain: plain.port });
  await checkRecordsAgree(seed, users.slice(0, 50), tokens, { platform: port, plain: plain.port });
  // Warm-up, not reported: JIT, prepared statements, caches.
  await load({ port, rate: 250, seconds: 2, requests: mixed() });
  await load({ port: plain.port, rate: 250, seconds: 1, requests: requests('list', 'plain') });

  const rows: Figures[] = [];
  for (const kind of ['list', 'page', 'record'] as const) {
    rows.push(...(await profiled(`platform-${kind}`, () => load({ port, rate: RATE, seconds: duration, requests: requests(kind, 'platform') }))));
    rows.push(...(await load({ port: plain.port, rate: RATE, seconds: duration, requests: requests(kind, 'plain') })));
  }
  const mix = await load({ port, rate: RATE, seconds: duration, requests: mixed() });
  reportReads(out, RATE, duration, rows, mix);

  // Issue 7: each statistics endpoint for random courses, as the admin; then answer-to-figure.
  const adminToken = await platform.tokens.sign({ userId: ADMIN_ID, sessionId: randomUUID(), realUserId: null, position: null });
  const statsRows: Figures[] = [];
  for (const [label, path] of STATS_ENDPOINTS) {
    const requestsOf = () => statsRequests(seed.courses, adminToken, rnd, Math.round(STATS_RATE * duration), label, path);
    await load({ port, rate: STATS_RATE, seconds: 1, requests: requestsOf() });
    statsRows.push(...(await load({ port, rate: STATS_RATE, seconds: duration, requests: requestsOf() })));
  }
  reportStats(out, STATS_RATE, duration, statsRows);

  const delays = await answerToFigure(db.store, seed, users.slice(0, 20), port, adminToken);
  reportAnswerToFigure(out, delays);

  await plain.app.close();
  await platform.app.close();
  await platform.runner.stop();
  await db.drop();
  return { catchUpSeconds, rows, mix, statsRows, answerToFigure: delays };
};
