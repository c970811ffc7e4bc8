// The replica bench's closed-loop load client (replica.bench.ts): `connections` keep-alive
// connections, each sending its next request as soon as the last one is answered, spread over the
// given ports (connection i to ports[i % ports.length], as a balancer would spread them). The most
// a set of processes answers is then what it answers per second. Runs in its own process
// (`closedLoad` spawns this file with `--load`), so it does not share the bench's event loop.

import http from 'node:http';
import { percentile } from './bench-support.ts';
import { loadFromProcess, type Request } from './courses-load.ts';

export type ClosedJob = { ports: number[]; connections: number; seconds: number; requests: Request[] };
export type Throughput = { count: number; rps: number; p50: number; p99: number; non2xx: number; errors: number; busy?: number };

const get = (agent: http.Agent, port: number, r: Request) =>
  new Promise<number | null>((resolve) => {
    const request = http.get(
      { agent, host: '127.0.0.1', port, path: r.path, headers: r.token ? { authorization: `JWT ${r.token}` } : {}, timeout: 10_000 },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', () => resolve(null));
      },
    );
    request.on('error', () => resolve(null));
    request.on('timeout', () => request.destroy());
  });

const runClosed = async (job: ClosedJob): Promise<Throughput> => {
  const agents = job.ports.map(() => new http.Agent({ keepAlive: true, maxSockets: job.connections }));
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + job.seconds * 1000;
  await Promise.all(
    Array.from({ length: job.connections }, async (_, c) => {
      const at = c % job.ports.length;
      // Each connection walks the request list from its own offset, so connections do not repeat each other.
      for (let i = c; performance.now() < deadline; i += job.connections) {
        const sent = performance.now();
        const status = await get(agents[at] as http.Agent, job.ports[at] as number, job.requests[i % job.requests.length] as Request);
        if (status === null) errors++;
        else {
          latencies.push(performance.now() - sent);
          if (status >= 300) non2xx++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  for (const agent of agents) agent.destroy();
  return { count: latencies.length + errors, rps: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), non2xx, errors };
};

if (import.meta.main && process.argv[2] === '--load') {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  process.stdout.write(JSON.stringify(await runClosed(JSON.parse(input) as ClosedJob)));
}

/** One closed-loop phase from a separate process; `busy` is the machine's CPU busy share during it. */
export const closedLoad = async (job: ClosedJob): Promise<Throughput> => {
  const { answer, busy } = await loadFromProcess<Throughput>(import.meta.filename, 'closed-loop load client', job);
  return { ...answer, busy };
};
