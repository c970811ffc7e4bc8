// The screens bench's report (screens.bench.ts): the Markdown lines and tables it prints for
// docs/benchmarks.md, from the figures the bench measured.

import { fmt } from './bench-support.ts';
import type { Figures } from './courses-load.ts';
import type { SeedSizes } from './courses-seed.ts';
import type { timeUsersExport, timeUsersImport } from './screens-jobs.ts';

type Out = (line: string) => void;

export const reportSeed = (
  out: Out,
  f: {
    sizes: SeedSizes;
    total: number;
    storedEvents: number;
    enrollments: number;
    seedSeconds: number;
    catchUpSeconds: number;
    historical: number;
    drained: string;
    drainSeconds: number;
    settleSeconds: number;
  },
) => {
  const { sizes } = f;
  out(
    `Seeded ${fmt(sizes.participants)} participants in ${fmt(sizes.companies * sizes.unitsPerCompany)} units of ${fmt(sizes.companies)} companies, ${sizes.professions} professions, ${fmt(sizes.courses)} courses of 4 blocks, ${fmt(f.enrollments)} enrollments:`,
  );
  out(`${fmt(f.total)} enrollment events, ${fmt(f.storedEvents)} in the store, generated and appended in ${fmt(f.seedSeconds, 1)} s.`);
  out('');
  out('| phase | seconds | events/s |');
  out('|---|---:|---:|');
  out(
    `| catch-up from zero: every projection and reactor, the job workers running as with \`npm start\` (platform runner; read model checked) | ${fmt(f.catchUpSeconds, 1)} | ${fmt(f.storedEvents / f.catchUpSeconds)} |`,
  );
  out(
    `| job queue drained (${fmt(f.historical)} chamber-credit and xAPI forwarding jobs the reactors queued for the seeded history removed first; then waiting: ${f.drained}) | ${fmt(f.drainSeconds, 1)} | |`,
  );
  out(`| vacuum analyze and checkpoint before the reads | ${fmt(f.settleSeconds, 1)} | |`);
};

const HEADER = [
  '| screen | alone ms | target/s | achieved/s | p50 ms | p95 ms | p99 ms | max ms | non-2xx | errors | CPU busy |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
];

export const reportScreens = (out: Out, rate: number, duration: number, rows: Figures[], alone: Map<string, number>) => {
  out('');
  out(
    `Each screen's main request as the admin, open-loop at ${rate} requests/s for ${duration} s (after a 1 s warm-up), random courses and companies, from a separate process; latency from when each request was due. Alone: the median of 20 requests one after another, warm. Below each, its plain baseline: the same rows by hand-written SQL on a bare Fastify route (checked equal on a sample first).`,
  );
  out('');
  for (const line of HEADER) out(line);
  for (const f of rows)
    out(
      `| ${f.label} | ${fmt(alone.get(f.label) ?? Number.NaN, 1)} | ${fmt(rate)} | ${fmt(f.achieved)} | ${fmt(f.p50, 1)} | ${fmt(f.p95, 1)} | ${fmt(f.p99, 1)} | ${fmt(f.max, 1)} | ${f.non2xx} | ${f.errors} | ${fmt((f.busy ?? 0) * 100)} % |`,
    );
};

export const reportJobs = (out: Out, exported: Awaited<ReturnType<typeof timeUsersExport>>, imported: Awaited<ReturnType<typeof timeUsersImport>>) => {
  out('');
  out('| job screen | rows | seconds | rows/s | notes |');
  out('|---|---:|---:|---:|---|');
  out(
    `| users export (every company, every status): request to file ready, pg-boss job | ${fmt(exported.rows)} | ${fmt(exported.platformSeconds, 1)} | ${fmt(exported.rows / exported.platformSeconds)} | ${fmt(exported.bytes / 1024)} KB xlsx |`,
  );
  out(
    `| plain: one SELECT of the same rows + the same xlsx writer | ${fmt(exported.plainRows)} | ${fmt(exported.plainSeconds, 1)} | ${fmt(exported.plainRows / exported.plainSeconds)} | SELECT ${fmt(exported.selectSeconds, 2)} s; ${fmt(exported.plainBytes / 1024)} KB; same ids as the export's file |`,
  );
  out(
    `| users import into the organisation: upload with precheck | ${fmt(imported.created)} | ${fmt(imported.precheckSeconds, 1)} | ${fmt(imported.created / imported.precheckSeconds)} | ${fmt(imported.fileBytes / 1024)} KB xlsx |`,
  );
  out(
    `| users import: start to completed, pg-boss job, no welcome mail | ${fmt(imported.created)} | ${fmt(imported.jobSeconds, 1)} | ${fmt(imported.created / imported.jobSeconds)} | ${fmt(imported.created)} created |`,
  );
  out(
    `| plain: single-row INSERTs of the same rows, 32 connections | ${fmt(imported.created)} | ${fmt(imported.plainSingleSeconds, 1)} | ${fmt(imported.created / imported.plainSingleSeconds)} | |`,
  );
  out(
    `| plain: one INSERT of the same rows | ${fmt(imported.created)} | ${fmt(imported.plainBulkSeconds, 2)} | ${fmt(imported.created / imported.plainBulkSeconds)} | |`,
  );
};
