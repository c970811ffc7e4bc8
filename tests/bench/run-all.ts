// `npm run bench [-- append catch-up rebuild lag save-read http courses users personal-data imports soak flood screens replica]`: runs the benchmarks on one PostgreSQL
// (embedded with fsync on, or DATABASE_URL) and prints Markdown tables for docs/benchmarks.md.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { benchAppend } from './append.bench.ts';
import { startBenchServer } from './bench-support.ts';
import { benchCatchUp } from './catch-up.bench.ts';
import { benchCourses } from './courses.bench.ts';
import { benchFlood } from './flood.bench.ts';
import { benchHttp } from './http.bench.ts';
import { benchImports } from './imports.bench.ts';
import { benchLag } from './lag.bench.ts';
import { benchPersonalData } from './personal-data.bench.ts';
import { benchRebuild } from './rebuild.bench.ts';
import { benchReplica } from './replica.bench.ts';
import { benchSaveRead } from './save-read.bench.ts';
import { benchScreens } from './screens.bench.ts';
import { benchSoak } from './soak.bench.ts';
import { benchUsers } from './users.bench.ts';

const all = {
  append: benchAppend,
  'catch-up': benchCatchUp,
  rebuild: benchRebuild,
  lag: benchLag,
  'save-read': benchSaveRead,
  http: benchHttp,
  courses: benchCourses,
  users: benchUsers,
  'personal-data': benchPersonalData,
  imports: benchImports,
  soak: benchSoak,
  flood: benchFlood,
  replica: benchReplica,
  screens: benchScreens,
} as const;
const chosen = process.argv.slice(2).filter((name) => name in all) as (keyof typeof all)[];
const names = chosen.length > 0 ? chosen : (Object.keys(all) as (keyof typeof all)[]);

const lines: string[] = [];
const out = (line: string) => {
  lines.push(line);
  process.stdout.write(`${line}\n`);
};

out(
  `Run ${new Date().toISOString()} on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, BENCH_SECONDS=${process.env.BENCH_SECONDS ?? 5}`,
);
const server = await startBenchServer();
try {
  for (const name of names) {
    out('');
    out(`### ${name}`);
    out('');
    await all[name](server.adminUrl, out);
  }
} finally {
  await server.stop();
}
const dir = join(import.meta.dirname, '..', '..', 'test-results', 'bench');
await mkdir(dir, { recursive: true });
await writeFile(join(dir, 'latest.md'), `${lines.join('\n')}\n`);
