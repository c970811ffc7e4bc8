// Soak (issue 19 item 6): `npm run bench -- soak`. Mixed participant, admin and statistics traffic at
// a steady open-loop rate for SOAK_SECONDS (600) against the platform as `npm start` runs it, in its
// own process: non-2xx and errors, the server's memory every minute, p99 per route, the read models
// after the load; then a plain baseline in the same run. The load client is soak-load-process.ts, run
// with `--load`. Settings: SOAK_SECONDS (600), SOAK_RATE (150 requests/s), SOAK_WARMUP_SECONDS (30),
// SOAK_BASELINE_SECONDS (60), SOAK_SEED_EVENTS (100,000 enrollment events seeded).

import { randomBytes, randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import Fastify from 'fastify';
import { createJwtSessionTokens } from '../../infrastructure/auth/jwt-session-tokens.ts';
import { type AllPosition, comparePositions } from '../../infrastructure/event-store/event-store.port.ts';
import { PROJECTIONS } from '../../infrastructure/main/projections.ts';
import { createBenchDb, fmt } from './bench-support.ts';
import { ADMIN_ID, type Audience, courseFields, cpuTicks, random, type SeedCourse, seedStore, shuffled, startPlain } from './courses.bench.ts';
import { load } from './soak-load-process.ts';
import { BASELINE_MIX, CONCURRENT_JOURNEYS, DRAFTS, type Figures, type LoadResult, MIX, type Plan, ROUTES, SIZES } from './soak-plan.ts';
import { ROOT, startPlatformProcess } from './soak-platform.ts';

// ------------------------------------------------------------------ the benchmark

const mb = (bytes: number) => bytes / (1024 * 1024);

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

    out(
      `Seeded ${fmt(SIZES.participants)} participants in ${SIZES.companies * SIZES.unitsPerCompany} units of ${SIZES.companies} companies, ${SIZES.courses} published courses of 4 blocks, ` +
        `${fmt(seed.expected.enrollments)} enrollments (${fmt(seed.expected.completed)} completed): ${fmt(seedEvents)} enrollment events, ${fmt(storedEvents)} in the store, in ${fmt(seedSeconds, 1)} s.`,
    );
    out(
      `The platform as \`npm start\` runs it (\`node infrastructure/main/main.ts\` in its own process, with pg-boss jobs, LOG_LEVEL=warn, and --expose-gc for the bench's memory probe) on that database: ` +
        `started and every projection caught up from zero in ${fmt(catchUpSeconds, 1)} s; ${DRAFTS} draft courses made through the API.`,
    );

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
    type Sample = { label: string; rss: number; heapUsed: number; heapTotal: number; external: number; lag: number; busy: number | null };
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
    const readModelsMatch = JSON.stringify(actual) === JSON.stringify(expected);
    const retainedAfter = await server.memory(true);
    const stopCode = await server.stop();
    platform = null;

    // ---- report the soak
    const who = new Map(ROUTES);
    const header = () => {
      out('| route | who | count | achieved/s | p50 ms | p95 ms | p99 ms | max ms | non-2xx | errors | X-Read-Stale |');
      out('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    };
    const row = (f: Figures, by: string) =>
      out(
        `| ${f.label} | ${by} | ${fmt(f.count)} | ${fmt(f.achieved, 1)} | ${fmt(f.p50, 1)} | ${fmt(f.p95, 1)} | ${fmt(f.p99, 1)} | ${fmt(f.max, 1)} | ${f.non2xx} | ${f.errors} | ${f.stale} |`,
      );
    const busy = (before: { busy: number; total: number }, after: { busy: number; total: number }) => (after.busy - before.busy) / (after.total - before.total);
    out('');
    out(
      `Soak: open-loop load at ${rate} requests/s for ${seconds} s from a separate process (latency from when each request was due), after a ${warmupSeconds} s warm-up of the same mix` +
        (warmup ? ` (${fmt(warmup.all.count)} requests, ${warmup.all.non2xx} non-2xx, ${warmup.all.errors} errors, not in the figures)` : '') +
        `. ${fmt(soak.started)} courses started and ${fmt(soak.completed)} completed step by step, ${fmt(soak.coursesCreated)} drafts created; CPU busy (both cores, everything on the machine) ${fmt(busy(soakTicks.before, soakAfter) * 100)} %.`,
    );
    out('');
    header();
    for (const f of soak.routes) row(f, who.get(f.label) ?? '');
    row({ ...soak.all, label: '**all routes**' }, `target ${rate}/s`);
    out('');
    out('Per minute (requests by the minute they were due; memory of the server process, projection lag from its /api/metrics, at the end of the minute):');
    out('');
    out(
      '| minute | requests | p50 ms | p99 ms | non-2xx + errors | server RSS MB | heap used MB | heap total MB | external MB | projection lag (events) | CPU busy |',
    );
    out('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const [i, s] of memory.entries()) {
      const m = i === 0 ? null : soak.minutes[i - 1];
      out(
        `| ${s.label} | ${m ? fmt(m.count) : ''} | ${m ? fmt(m.p50, 1) : ''} | ${m ? fmt(m.p99, 1) : ''} | ${m ? m.non2xx + m.errors : ''} | ${fmt(mb(s.rss), 1)} | ${fmt(mb(s.heapUsed), 1)} | ${fmt(mb(s.heapTotal), 1)} | ${fmt(mb(s.external), 1)} | ${fmt(s.lag)} | ${s.busy === null ? '' : `${fmt(s.busy * 100)} %`} |`,
      );
    }
    const first = memory[0] as Sample;
    const last = memory.at(-1) as Sample;
    const delta = mb(last.rss - first.rss);
    // A leak keeps growing; an allocator or V8 reserving more pages once steps and stays. Flat: what
    // the heap keeps after a full GC grew by at most 10 % (or 10 MB), and RSS over the second half
    // of the soak by at most 5 % (or 25 MB).
    const half = memory[Math.floor((memory.length - 1) / 2)] as Sample;
    const lateDelta = mb(last.rss - half.rss);
    const retainedDelta = mb(retainedAfter.heapUsed - retainedBefore.heapUsed);
    const flat = retainedDelta <= Math.max(10, 0.1 * mb(retainedBefore.heapUsed)) && lateDelta <= Math.max(25, 0.05 * mb(half.rss));
    const problems = soak.all.non2xx + soak.all.errors + soak.all.stale;
    out('');
    out(
      `- Errors: ${soak.all.non2xx} non-2xx, ${soak.all.errors} network errors or timeouts, ${soak.all.stale} stale reads after a write, of ${fmt(soak.all.count)} requests: **${problems === 0 ? 'met' : 'missed'}** (0 errors).`,
    );
    for (const failure of soak.failures.slice(0, 5)) out(`  - ${failure}`);
    out(
      `- Memory: server RSS ${fmt(mb(first.rss), 1)} MB after the warm-up, ${fmt(mb(last.rss), 1)} MB at the end (${delta >= 0 ? '+' : ''}${fmt(delta, 1)} MB, ${fmt((delta / mb(first.rss)) * 100, 1)} %), ` +
        `peak ${fmt(mb(Math.max(...memory.map((s) => s.rss))), 1)} MB; heap used ${fmt(mb(first.heapUsed), 1)} → ${fmt(mb(last.heapUsed), 1)} MB: RSS start to end **${Math.abs(delta) <= Math.max(50, 0.1 * mb(first.rss)) ? 'within' : 'not within'}** 10 % or 50 MB; RSS over the second half (from minute ${half.label}) ${lateDelta >= 0 ? '+' : ''}${fmt(lateDelta, 1)} MB; leak check **${flat ? 'flat' : 'grew'}** (retained heap within 10 % or 10 MB, RSS over the second half within 5 % or 25 MB). ` +
        `Heap used after a full GC (forced before the warm-up and after the soak): ${fmt(mb(retainedBefore.heapUsed), 1)} → ${fmt(mb(retainedAfter.heapUsed), 1)} MB ` +
        `(${retainedAfter.heapUsed >= retainedBefore.heapUsed ? '+' : ''}${fmt(mb(retainedAfter.heapUsed - retainedBefore.heapUsed), 1)} MB), RSS then ${fmt(mb(retainedBefore.rss), 1)} → ${fmt(mb(retainedAfter.rss), 1)} MB.`,
    );
    const byP99 = [...soak.routes].sort((a, b) => b.p99 - a.p99);
    out(
      `- p99 per route: ${byP99.map((f) => `${f.label} ${fmt(f.p99, 1)} ms`).join('; ')}. All routes: p99 ${fmt(soak.all.p99, 1)} ms; achieved ${fmt(soak.all.achieved, 1)} of ${rate} requests/s.`,
    );
    out(
      `- Read models: every projection had the last write ${fmt(lastWriteToCaughtUp)} ms after the last response; enrollments ${fmt(actual.enrollments)} (expected ${fmt(expected.enrollments)}), ` +
        `completed ${fmt(actual.completed)} (${fmt(expected.completed)}), courses ${fmt(actual.courses)} (${fmt(expected.courses)}): **${readModelsMatch ? 'as written' : 'differ'}**.`,
    );
    out(`- Server log (warn and above): ${server.log.warnings} warnings, ${server.log.errors} errors; the process exited with ${stopCode} on SIGTERM.`);

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
    const baselineBusy = busy(baselineBefore, await cpuTicks());
    await bare.close();
    await plain.app.close();
    out('');
    out(
      `Baseline, same run, after the soak (platform stopped): the same open loop at ${rate} requests/s for ${baselineSeconds} s after a 5 s warm-up, a quarter each to a bare Fastify route ` +
        `and to the participants' course list, course page and records as one prepared SQL statement on the plain pg pool (no token, no zod, no slonik); CPU busy ${fmt(baselineBusy * 100)} %.`,
    );
    out('');
    header();
    for (const f of baseline.routes) row(f, who.get(f.label) ?? '');
    row({ ...baseline.all, label: '**all routes**' }, `target ${rate}/s`);
  } finally {
    await platform?.stop();
    await db.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
};
