// The soak's report (soak.bench.ts): the Markdown lines and tables it prints for docs/benchmarks.md,
// and the judgements in them (errors, memory growth, read models as written), from what the soak measured.

import { fmt } from './bench-support.ts';
import { DRAFTS, type Figures, type LoadResult, ROUTES, SIZES } from './soak-plan.ts';

type Out = (line: string) => void;
type Memory = { rss: number; heapUsed: number };
type ReadModels = { enrollments: number; completed: number; courses: number };
/** The server's memory, projection lag and CPU busy share at the start, every minute and at the end of the soak. */
export type Sample = { label: string; rss: number; heapUsed: number; heapTotal: number; external: number; lag: number; busy: number | null };

const mb = (bytes: number) => bytes / (1024 * 1024);
const who = new Map(ROUTES);

/** Each route's row, then all routes' against the target rate. */
const routeTable = (out: Out, result: LoadResult, rate: number) => {
  const row = (f: Figures, by: string) =>
    out(
      `| ${f.label} | ${by} | ${fmt(f.count)} | ${fmt(f.achieved, 1)} | ${fmt(f.p50, 1)} | ${fmt(f.p95, 1)} | ${fmt(f.p99, 1)} | ${fmt(f.max, 1)} | ${f.non2xx} | ${f.errors} | ${f.stale} |`,
    );
  out('| route | who | count | achieved/s | p50 ms | p95 ms | p99 ms | max ms | non-2xx | errors | X-Read-Stale |');
  out('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const f of result.routes) row(f, who.get(f.label) ?? '');
  row({ ...result.all, label: '**all routes**' }, `target ${rate}/s`);
};

/** What was seeded, and the platform's start with its catch-up from zero. */
export const reportSoakSetup = (
  out: Out,
  f: { expected: { enrollments: number; completed: number }; seedEvents: number; storedEvents: number; seedSeconds: number; catchUpSeconds: number },
) => {
  out(
    `Seeded ${fmt(SIZES.participants)} participants in ${SIZES.companies * SIZES.unitsPerCompany} units of ${SIZES.companies} companies, ${SIZES.courses} published courses of 4 blocks, ` +
      `${fmt(f.expected.enrollments)} enrollments (${fmt(f.expected.completed)} completed): ${fmt(f.seedEvents)} enrollment events, ${fmt(f.storedEvents)} in the store, in ${fmt(f.seedSeconds, 1)} s.`,
  );
  out(
    `The platform as \`npm start\` runs it (\`node infrastructure/main/main.ts\` in its own process, with pg-boss jobs, LOG_LEVEL=warn, and --expose-gc for the bench's memory probe) on that database: ` +
      `started and every projection caught up from zero in ${fmt(f.catchUpSeconds, 1)} s; ${DRAFTS} draft courses made through the API.`,
  );
};

/** The soak: its routes, the per-minute table and the judgements. */
export const reportSoak = (
  out: Out,
  r: {
    rate: number;
    seconds: number;
    warmupSeconds: number;
    warmup: LoadResult | null;
    soak: LoadResult;
    busy: number;
    memory: Sample[];
    retainedBefore: Memory;
    retainedAfter: Memory;
    lastWriteToCaughtUp: number;
    actual: ReadModels;
    expected: ReadModels;
    log: { warnings: number; errors: number };
    stopCode: number | null;
  },
) => {
  const { rate, seconds, warmupSeconds, warmup, soak, memory, retainedBefore, retainedAfter, actual, expected } = r;
  out('');
  out(
    `Soak: open-loop load at ${rate} requests/s for ${seconds} s from a separate process (latency from when each request was due), after a ${warmupSeconds} s warm-up of the same mix` +
      (warmup ? ` (${fmt(warmup.all.count)} requests, ${warmup.all.non2xx} non-2xx, ${warmup.all.errors} errors, not in the figures)` : '') +
      `. ${fmt(soak.started)} courses started and ${fmt(soak.completed)} completed step by step, ${fmt(soak.coursesCreated)} drafts created; CPU busy (both cores, everything on the machine) ${fmt(r.busy * 100)} %.`,
  );
  out('');
  routeTable(out, soak, rate);
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
    `- Read models: every projection had the last write ${fmt(r.lastWriteToCaughtUp)} ms after the last response; enrollments ${fmt(actual.enrollments)} (expected ${fmt(expected.enrollments)}), ` +
      `completed ${fmt(actual.completed)} (${fmt(expected.completed)}), courses ${fmt(actual.courses)} (${fmt(expected.courses)}): **${JSON.stringify(actual) === JSON.stringify(expected) ? 'as written' : 'differ'}**.`,
  );
  out(`- Server log (warn and above): ${r.log.warnings} warnings, ${r.log.errors} errors; the process exited with ${r.stopCode} on SIGTERM.`);
};

/** The baseline after the soak: the same open loop to a bare route and the plain SQL reads. */
export const reportBaseline = (out: Out, r: { rate: number; seconds: number; busy: number; baseline: LoadResult }) => {
  out('');
  out(
    `Baseline, same run, after the soak (platform stopped): the same open loop at ${r.rate} requests/s for ${r.seconds} s after a 5 s warm-up, a quarter each to a bare Fastify route ` +
      `and to the participants' course list, course page and records as one prepared SQL statement on the plain pg pool (no token, no zod, no slonik); CPU busy ${fmt(r.busy * 100)} %.`,
  );
  out('');
  routeTable(out, r.baseline, r.rate);
};
