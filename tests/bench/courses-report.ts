// The courses bench's report (courses.bench.ts): the Markdown lines and tables it prints for
// docs/benchmarks.md, from the figures the bench measured.

import { fmt } from './bench-support.ts';
import type { Figures } from './courses-load.ts';
import type { SeedSizes } from './courses-seed.ts';

type Out = (line: string) => void;
type ReadModelCount = { enrollments: number; certificates: number; attempts: number } | undefined;

/** What was seeded, and the catch-up of every projection from zero with its read model check. */
export const reportSeedAndCatchUp = (
  out: Out,
  f: {
    sizes: SeedSizes;
    expected: { enrollments: number; completed: number };
    total: number;
    storedEvents: number;
    seedSeconds: number;
    catchUpSeconds: number;
    actual: ReadModelCount;
  },
) => {
  const { sizes, expected, storedEvents, catchUpSeconds, actual } = f;
  out(
    `Seeded ${fmt(sizes.participants)} participants in ${sizes.companies * sizes.unitsPerCompany} units of ${sizes.companies} companies, ${sizes.courses} courses of 4 blocks`,
  );
  out(`(40 each public, by 2 companies, by 10 units, by 2 professions, by company and profession), ${fmt(expected.enrollments)} enrollments`);
  out(
    `(${fmt(expected.completed)} completed): ${fmt(f.total)} enrollment events, ${fmt(storedEvents)} in the store, generated and appended in ${fmt(f.seedSeconds, 1)} s.`,
  );
  out('');
  out('| catch-up from zero | events | seconds | events/s | read model check |');
  out('|---|---:|---:|---:|---|');
  out(
    `| every projection (platform runner) | ${fmt(storedEvents)} | ${fmt(catchUpSeconds, 1)} | ${fmt(storedEvents / catchUpSeconds)} | ${fmt(actual?.enrollments ?? 0)} enrollments, ${fmt(actual?.certificates ?? 0)} certificates, ${fmt(actual?.attempts ?? 0)} quiz attempts: as seeded |`,
  );
};

const LOAD_HEADER = [
  '| endpoint | target/s | achieved/s | p50 ms | p95 ms | p99 ms | max ms | non-2xx | errors | CPU busy |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
];

const loadRow = (out: Out, name: string, target: number, f: Figures) =>
  out(
    `| ${name} | ${fmt(target)} | ${fmt(f.achieved)} | ${fmt(f.p50, 1)} | ${fmt(f.p95, 1)} | ${fmt(f.p99, 1)} | ${fmt(f.max, 1)} | ${f.non2xx} | ${f.errors} | ${fmt((f.busy ?? 0) * 100)} % |`,
  );

/** The rows' names by the load's labels (see courses-traffic.ts). */
const READ_NAMES: Record<string, string> = {
  'platform list': 'GET /api/user-courses',
  'plain list': 'plain: course list SQL',
  'platform page': 'GET /api/user-courses/{id}',
  'plain page': 'plain: course page SQL',
  'platform record': 'GET /api/record?course_id=',
  'plain record': 'plain: records SQL',
};

/** The participants' reads, platform and plain row by row, then the three mixed. */
export const reportReads = (out: Out, rate: number, duration: number, rows: Figures[], mix: Figures[]) => {
  out('');
  out(`Open-loop load at ${rate} requests/s for ${duration} s per row, from a separate process; latency from when each request was due;`);
  out('CPU busy: share of both cores busy during the row (server, PostgreSQL, load client, anything else).');
  out('');
  for (const line of LOAD_HEADER) out(line);
  for (const f of rows) loadRow(out, READ_NAMES[f.label] ?? f.label, rate, f);
  for (const f of mix) loadRow(out, `mixed, one third each: ${READ_NAMES[f.label] ?? f.label}`, rate / 3, f);
};

/** Issue 7: each statistics endpoint's row. */
export const reportStats = (out: Out, rate: number, duration: number, rows: Figures[]) => {
  out('');
  out(`Statistics (issue 7): each endpoint at ${rate} requests/s for ${duration} s, as the admin, random courses, after a 1 s warm-up.`);
  out('');
  for (const line of LOAD_HEADER) out(line);
  for (const f of rows) loadRow(out, f.label, rate, f);
};

/** The 20 answer-to-figure delays, sorted. */
export const reportAnswerToFigure = (out: Out, delays: number[]) => {
  out('');
  out(
    `Answer to figure (append an NPS answer, poll the overview every 20 ms until it changes), 20 samples: p50 ${fmt(delays[10] as number, 1)} ms, max ${fmt(delays[19] as number, 1)} ms.`,
  );
};
