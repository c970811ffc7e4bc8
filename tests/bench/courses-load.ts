// The courses bench's open-loop load client (courses.bench.ts; the soak reuses its figures): `load`
// runs this file in its own process with `--load`, so the client does not share the server's event
// loop, and answers each row's latency figures and the machine's CPU busy share during the row.

import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import { percentile } from './bench-support.ts';

export type Request = { label: string; path: string; token: string | null };
export type LoadJob = { port: number; rate: number; seconds: number; requests: Request[] };
export type Figures = {
  label: string;
  count: number;
  achieved: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  /** Share of the machine's CPU time busy during the phase (server, PostgreSQL, load client and anything else). */
  busy?: number;
};

/** A row's figures from its latencies (ms, from when each request was due) over `seconds`. */
export const figuresOf = (label: string, t: { latencies: number[]; non2xx: number; errors: number }, seconds: number): Figures => ({
  label,
  count: t.latencies.length + t.errors,
  achieved: (t.latencies.length + t.errors) / seconds,
  p50: percentile(t.latencies, 50),
  p95: percentile(t.latencies, 95),
  p99: percentile(t.latencies, 99),
  max: t.latencies.reduce((a, b) => Math.max(a, b), 0),
  non2xx: t.non2xx,
  errors: t.errors,
});

/**
 * Open loop: request i is due at start + i / rate whatever happened to the ones before, and its
 * latency counts from when it was due, so a slow server cannot slow the load down and hide its
 * queueing (coordinated omission). Runs in its own process: `node courses-load.ts --load`.
 */
const runLoad = async (job: LoadJob): Promise<Figures[]> => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const total = Math.round(job.rate * job.seconds);
  const interval = 1000 / job.rate;
  const byLabel = new Map<string, { latencies: number[]; non2xx: number; errors: number }>();
  const start = performance.now() + 20;
  let end = start;
  let fired = 0;
  let settled = 0;
  const { promise: finished, resolve } = Promise.withResolvers<void>();
  const fire = (i: number) => {
    const r = job.requests[i % job.requests.length] as Request;
    const due = start + i * interval;
    const figures = byLabel.get(r.label) ?? { latencies: [], non2xx: 0, errors: 0 };
    byLabel.set(r.label, figures);
    const done = (ok: boolean | null) => {
      end = performance.now();
      if (ok === null) figures.errors++;
      else {
        figures.latencies.push(end - due);
        if (!ok) figures.non2xx++;
      }
      if (++settled === total) resolve();
    };
    const request = http.get(
      { agent, host: '127.0.0.1', port: job.port, path: r.path, headers: r.token ? { authorization: `JWT ${r.token}` } : {}, timeout: 10_000 },
      (response) => {
        response.resume();
        response.on('end', () => done((response.statusCode ?? 0) < 300));
        response.on('error', () => done(null));
      },
    );
    request.on('error', () => done(null));
    request.on('timeout', () => request.destroy());
  };
  const tick = () => {
    const now = performance.now();
    while (fired < total && start + fired * interval <= now) fire(fired++);
    if (fired < total) setTimeout(tick, Math.max(0, start + fired * interval - performance.now()));
  };
  setTimeout(tick, 20);
  await finished;
  agent.destroy();
  const elapsed = (end - start) / 1000;
  return [...byLabel].map(([label, f]) => figuresOf(label, f, elapsed));
};

if (import.meta.main && process.argv[2] === '--load') {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  process.stdout.write(JSON.stringify(await runLoad(JSON.parse(input) as LoadJob)));
}

/** Busy and total CPU time of the machine so far (/proc/stat, in clock ticks). */
export const cpuTicks = async () => {
  const fields = (await readFile('/proc/stat', 'utf8')).split('\n', 1)[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
  const total = fields.reduce((a, b) => a + b, 0);
  return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total };
};

/** The share of the machine's CPU time busy between two readings of cpuTicks. */
export const busyShare = (before: { busy: number; total: number }, after: { busy: number; total: number }) =>
  (after.busy - before.busy) / (after.total - before.total);

/**
 * Runs a load client file (`file --load`: the job on its stdin, its figures as JSON on its stdout)
 * in a separate process, so it does not share the server's event loop; its answer and the machine's
 * CPU busy share meanwhile. `name` names the client in the error when it fails.
 */
export const loadFromProcess = async <T>(file: string, name: string, job: object): Promise<{ answer: T; busy: number }> => {
  const before = await cpuTicks();
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', file, '--load'], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  child.stdin.end(JSON.stringify(job));
  const code = await exited;
  if (code !== 0) throw new Error(`${name} exited with ${code}`);
  return { answer: JSON.parse(output) as T, busy: busyShare(before, await cpuTicks()) };
};

/** One phase of load from a separate process (so it does not share the server's event loop). */
export const load = async (job: LoadJob): Promise<Figures[]> => {
  const { answer, busy } = await loadFromProcess<Figures[]>(import.meta.filename, 'load client', job);
  return answer.map((f) => ({ ...f, busy }));
};
