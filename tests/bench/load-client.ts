// Load generator for the HTTP benchmark, in its own process so it does not share the server's
// event loop. Prints autocannon's figures as JSON.
import autocannon from 'autocannon';

type Job = { url: string; method: 'GET' | 'POST'; seconds: number; connections: number; headers?: Record<string, string>; bodies?: string[] };

const job = JSON.parse(process.argv[2] as string) as Job;
let next = 0;
const result = await autocannon({
  url: job.url,
  method: job.method,
  connections: job.connections,
  duration: job.seconds,
  headers: { ...(job.headers ?? {}), ...(job.bodies ? { 'content-type': 'application/json' } : {}) },
  requests: job.bodies
    ? [
        {
          setupRequest: (request) => {
            request.body = job.bodies?.[next++ % (job.bodies?.length ?? 1)];
            return request;
          },
        },
      ]
    : undefined,
});
process.stdout.write(
  JSON.stringify({
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    total: result.requests.total,
  }),
);
