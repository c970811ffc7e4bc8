// Soak (issue 19 item 6): `npm run bench -- soak`. Mixed participant, admin and statistics traffic at
// a steady open-loop rate for SOAK_SECONDS (600) against the platform as `npm start` runs it, in its
// own process: non-2xx and errors, the server's memory every minute, p99 per route, the read models
// after the load; then a plain baseline in the same run. The load client is soak-load-process.ts, run
// with `--load`; the tables it prints, soak-report.ts. Settings: SOAK_SECONDS (600), SOAK_RATE (150
// requests/s), SOAK_WARMUP_SECONDS (30), SOAK_BASELINE_SECONDS (60), SOAK_SEED_EVENTS (100,000
// enrollment events seeded).

import { randomBytes, randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import Fastify from 'fastify';
import { createJwtSessionTokens } from '../../infrastructure/auth/jwt-session-tokens.ts';
import { type AllPosition, comparePositions } from '../../infrastructure/event-store/event-store.port.ts';
import { PROJECTIONS } from '../../infrastructure/main/platform.ts';
import { createBenchDb } from './bench-support.ts';
import { busyShare, cpuTicks } from './courses-load.ts';
import { startPlain } from './courses-plain.ts';
import { type Audience, courseFields, random, type SeedCourse, shuffled } from './courses-seed.ts';
import { ADMIN_ID, seedStore } from './courses-seed-store.ts';
import { load } from './soak-load-process.ts';
import { BASELINE_MIX, CONCURRENT_JOURNEYS, DRAFTS, type LoadResult, MIX, type Plan, SIZES } from './soak-plan.ts';
import { ROOT, startPlatformProcess } from './soak-platform.ts';
import { reportBaseline, reportSoak, reportSoakSetup, type Sample } from './soak-report.ts';

export const benchSoak = async (adminUrl: string, out: (line: string) => void) => {
  const seconds = Number(process.env.SOAK_SECONDS ?? 600);
  // 150 requests/s in all: on the 2-core VM the server, PostgreSQL and this load share, the
  // participants' reads alone took 40-80 % of both cores at 500/s (docs/benchmarks.md, course reads),
  // and a step (a command whose events ~16 projections then apply) costs several reads. With 15 % of
  // the requests steps, 60 s runs at 150/s kept the machine 41-56 % busy with every route's p99 under
  // 120 ms: room for the minute-to-minute noise of the VM, so the soak measures drift, not saturation.
  const rate = Number(process.env.SOAK_RATE ?? 150);
  const warmupSeconds = Number(process.env.SOAK_WARMUP_SECONDS ?? 30);
  const baselineSeconds = Number(process.env.SOAK_BASELINE_SECONDS ?? 60);
  const seedEvents = Number(process.env.SOAK_SEED_EVENTS ?? 100_000);

  const db = await createBenchDb(adminUrl, { poolSize: 20, maxInFlight: 2 });
  const dataDir = join(ROOT, '.data', `soak-${process.pid}`);
  let platform: Awaited<ReturnType<typeof startPlatformProcess>> | null = null;
  try {
    const seedStarted = performance.now();
    const seed = await seedStore(db.store, seedEvents, SIZES);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const storedEvents = Number((await db.pg.query<{ n: string }>('select sum(cardinality(event_ids))::text as n from es.appends')).rows[0]?.n);
    // Courses the admins create get ids from the allocator: past the seeded ones, as on a live platform.
    await db.pg.query('create sequence if not exists ids.course as bigint');
    await db.pg.query('select setval($1, 100000)', ['ids.course']);
    await db.pg.query('vacuum analyze es.appends');

    // The platform in its own process; it catches every projection up from zero.
    const secret = randomBytes(48).toString('base64url');
    const startedAt = performance.now();
    platform = await startPlatformProcess({
      DATABASE_URL: db.connectionString,
      DEMO_DATA: 'false',
      PORT: '0',
      HOST: '127.0.0.1',
      API_PROCESSES: '1',
      LOG_LEVEL: 'warn',
      JWT_SECRET: secret,
      DATA_DIR: dataDir,
      UI_DIST_DIR: '/nonexistent',
    });
    const server = platform;
    const projectionNames = PROJECTIONS.map((p) => p.name);
    /** Waits until every read model has applied the store's head as of now; returns the milliseconds waited. */
    const catchUp = async (timeoutMs: number) => {
      const head = (await db.store.headPosition()) as AllPosition;
      const since = performance.now();
      for (;;) {
        const rows = (
          await db.pg.query<{ name: string; commit: string; prepare: string }>(
            `select g.name, g.checkpoint_commit::text as commit, g.checkpoint_prepare::text as prepare
               from projections.registry r join projections.generations g on g.name = r.name and g.generation = r.active_generation
              where r.name = any($1)`,
            [projectionNames],
          )
        ).rows;
        const behind = projectionNames.filter((name) => {
          const row = rows.find((r) => r.name === name);
          return !row || comparePositions({ commit: BigInt(row.commit), prepare: BigInt(row.prepare) }, head) < 0;
        });
        if (behind.length === 0) return performance.now() - since;
        if (performance.now() - since > timeoutMs) throw new Error(`read models behind after ${timeoutMs} ms: ${behind.join(', ')}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    await catchUp(1_800_000);
    const catchUpSeconds = (performance.now() - startedAt) / 1000;
    const base = `http://127.0.0.1:${server.port}`;

    // Tokens of real roles: every participant (role 10 in their unit) and the admin (role 1) of the seed.
    const tokens = createJwtSessionTokens({ secret, ttlSeconds: 24 * 3600 });
    const sign = (userId: number) => tokens.sign({ userId, sessionId: randomUUID(), realUserId: null, position: null });
    const admin = await sign(ADMIN_ID);
    const draftAudience: Audience = { public: false, companyIds: [1], unitIds: [], professionIds: [] };
    // Type 2 (OTC): the draft asks for nothing a live webinar or a powerclass would.
    const draftFields = (title: string) => ({ ...courseFields(1, draftAudience), type: 2, title });
    const drafts: Plan['drafts'] = [];
    for (let i = 1; i <= DRAFTS; i++) {
      const fields = draftFields(`Osnutek ${i}`);
      const response = await fetch(`${base}/api/courses`, {
        method: 'POST',
        headers: { authorization: `JWT ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify(fields),
      });
      if (response.status !== 201) throw new Error(`draft: ${response.status} ${await response.text()}`);
      drafts.push({ id: ((await response.json()) as { id: number }).id, fields });
    }
    const participants: Plan['participants'] = [];
    for (const p of seed.participants) {
      participants.push({
        id: p.id,
        company: p.company,
        token: await sign(p.id),
        seen: (seed.seen.get(p.id) as SeedCourse[]).map((c) => c.id),
        started: [...(seed.started.get(p.id) as Set<number>)],
      });
    }
    // Courses not started yet, in a shuffled order: each journey starts one of them.
    const journeys = shuffled(
      participants.flatMap((p) => p.seen.filter((c) => !p.started.includes(c)).map((c): [number, number] => [p.id, c])),
      random(5),
    );
    const journeySlots = ((warmupSeconds + seconds) * rate * 60) / 200;
    // Each journey takes at least 24 slots (12 steps, each followed by a read).
    if (journeys.length < 2 * (journeySlots / 24 + 2 * CONCURRENT_JOURNEYS))
      throw new Error(`only ${journeys.length} courses left to start: seed more participants or lower SOAK_RATE`);
    let taken = 0;
    const plan = (phaseSeconds: number, seedNumber: number): Plan => ({
      port: server.port,
      rate,
      seconds: phaseSeconds,
      seed: seedNumber,
      mix: MIX,
      participants,
      courses: seed.courses.map((c) => ({ id: c.id, blocks: c.blocks })),
      journeys: journeys.slice(taken),
      admin,
      drafts,
      newCourse: draftFields('Nov osnutek'),
      companies: Array.from({ length: SIZES.companies }, (_, i) => i + 1),
    });

    reportSoakSetup(out, { expected: seed.expected, seedEvents, storedEvents, seedSeconds, catchUpSeconds });

    // The retained heap, after a full collection: a leak shows there even while RSS waits for the next
    // major GC. Forced before the warm-up, which then lets the heap grow back, so RSS at the start is not
    // measured on a freshly collected heap.
    const retainedBefore = await server.memory(true);
    // Warm-up, not in the figures: JIT, prepared statements, caches, the statistics' first results.
    let warmup: LoadResult | null = null;
    if (warmupSeconds > 0) {
      warmup = await load(plan(warmupSeconds, 1));
      taken += warmup.journeysTaken;
      await catchUp(60_000);
    }

    // The soak: memory, projection lag and CPU at the start, every minute and at the end.
    let ticks = await cpuTicks();
    const sample = async (label: string): Promise<Sample> => {
      const memory = await server.memory().catch(() => ({ rss: Number.NaN, heapUsed: Number.NaN, heapTotal: Number.NaN, external: Number.NaN }));
      const metrics = await fetch(`${base}/api/metrics`)
        .then((r) => r.text())
        .catch(() => '');
      const lags = [...metrics.matchAll(/^projection_lag_events\{[^}]*\} (\d+)$/gm)].map((m) => Number(m[1]));
      const lag = lags.length > 0 ? Math.max(...lags) : Number.NaN;
      const now = await cpuTicks();
      const busy = (now.busy - ticks.busy) / (now.total - ticks.total || 1);
      ticks = now;
      return {
        label,
        rss: memory.rss,
        heapUsed: memory.heapUsed,
        heapTotal: memory.heapTotal,
        external: memory.external,
        lag,
        busy: label === 'start' ? null : busy,
      };
    };
    const samples: Promise<Sample>[] = [];
    const timers: NodeJS.Timeout[] = [];
    const soakTicks = { before: await cpuTicks() };
    const soak = await load(plan(seconds, 2), () => {
      samples.push(sample('start'));
      for (let minute = 1; minute * 60 < seconds; minute++) timers.push(setTimeout(() => samples.push(sample(String(minute))), minute * 60_000));
    });
    const soakEnded = performance.now();
    for (const timer of timers) clearTimeout(timer);
    const soakAfter = await cpuTicks();
    samples.push(sample(`${Math.ceil(seconds / 60)} (end)`));
    const memory = await Promise.all(samples);
    taken += soak.journeysTaken;

    // The read models after the load: caught up with the last write, holding what the load wrote.
    const lastWriteToCaughtUp = (await catchUp(60_000)) + (performance.now() - soakEnded);
    const started = (warmup?.started ?? 0) + soak.started;
    const completed = (warmup?.completed ?? 0) + soak.completed;
    const created = (warmup?.coursesCreated ?? 0) + soak.coursesCreated;
    const expected = {
      enrollments: seed.expected.enrollments + started,
      completed: seed.expected.completed + completed,
      courses: SIZES.courses + DRAFTS + created,
    };
    const actual = (
      await db.pg.query<{ enrollments: number; completed: number; courses: number }>(`
        select (select count(*) from rm.enrollments)::int as enrollments,
               (select count(*) from rm.enrollments where status = 'completed')::int as completed,
               (select count(*) from rm.courses)::int as courses`)
    ).rows[0] as typeof expected;
    const retainedAfter = await server.memory(true);
    const stopCode = await server.stop();
    platform = null;

    reportSoak(out, {
      rate,
      seconds,
      warmupSeconds,
      warmup,
      soak,
      busy: busyShare(soakTicks.before, soakAfter),
      memory,
      retainedBefore,
      retainedAfter,
      lastWriteToCaughtUp,
      actual,
      expected,
      log: server.log,
      stopCode,
    });

    // ---- the baseline, same run: a bare route and the participants' reads as one prepared statement each.
    const plain = await startPlain(db.pg);
    const bare = Fastify();
    bare.get('/bare', async () => ({ ok: true }));
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const barePort = (bare.server.address() as { port: number }).port;
    const baselinePlan: Plan = { ...plan(baselineSeconds, 3), mix: BASELINE_MIX, journeys: [], baseline: { plainPort: plain.port, barePort } };
    await load({ ...baselinePlan, seconds: Math.min(5, baselineSeconds) });
    const baselineBefore = await cpuTicks();
    const baseline = await load(baselinePlan);
    const baselineBusy = busyShare(baselineBefore, await cpuTicks());
    await bare.close();
    await plain.app.close();
    reportBaseline(out, { rate, seconds: baselineSeconds, busy: baselineBusy, baseline });
  } finally {
    await platform?.stop();
    await db.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
};
