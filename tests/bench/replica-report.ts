// The replica bench's tables (replica.bench.ts): reads/s of one and two processes of each server,
// and the lag rows, with the sentences that say how each was measured.

import { cpus } from 'node:os';
import { fmt } from './bench-support.ts';
import type { Figures } from './courses-load.ts';
import type { SeedSizes } from './courses-seed.ts';
import type { Throughput } from './replica-closed-load.ts';
import type { LagFigures } from './replica-lag.ts';

export type LagPhase = { lag: LagFigures; reads: Figures[]; replayLag: { p50: number; p99: number; max: number; samples: number } };
export type Lags = { rate: number; platform: LagPhase; plain: LagPhase };

const ratio = (a: number, b: number) => `${fmt(a / b, 2)}x`;

export const reportReplica = (
  out: (line: string) => void,
  r: {
    sizes: SeedSizes;
    events: number;
    seedSeconds: number;
    duration: number;
    connections: number;
    throughput: Record<'platformOne' | 'platformTwo' | 'plainOne' | 'plainTwo', [Throughput, { servers: number; replica: number }]>;
    pools: { replica: number; primary: number; fallbacks: number }[];
    readRate: number;
    pollMs: number;
    lags: Lags[];
  },
) => {
  const t = r.throughput;
  out(
    `A primary and a streaming replica of it (decision 0067) on this machine; ${fmt(r.sizes.participants)} participants, ${fmt(r.sizes.courses)} courses, ${fmt(r.events)} enrollment events, seeded and caught up on the primary and replayed on the replica in ${fmt(r.seedSeconds)} s. Every process below shares this machine's ${cpus().length} cores with both PostgreSQL servers and the load client: two processes can gain only what cores are left, which the plain rows show.`,
  );
  out('');
  out(
    `Reads/s, closed loop: ${r.connections} keep-alive connections spread evenly over the processes, each sending the next request when the last is answered, for ${r.duration} s; participants' course list and course page alternately (the same picks for both servers). Platform: API processes (PROCESS_ROLE=api, DATABASE_READ_URL on the replica). Plain: a bare Fastify process per API process, the same rows by hand-written SQL on a pg pool on the replica.`,
  );
  out('');
  out('| server | processes | reads/s | p50 ms | p99 ms | non-2xx | errors | cores: its processes / replica PostgreSQL | machine CPU busy | 2 vs 1 |');
  out('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const row = (name: string, processes: number, [f, cores]: [Throughput, { servers: number; replica: number }], vs: string) =>
    out(
      `| ${name} | ${processes} | ${fmt(f.rps)} | ${fmt(f.p50, 1)} | ${fmt(f.p99, 1)} | ${f.non2xx} | ${f.errors} | ${fmt(cores.servers, 2)} / ${fmt(cores.replica, 2)} | ${fmt((f.busy ?? 0) * 100)} % | ${vs} |`,
    );
  row('platform', 1, t.platformOne, '');
  row('platform', 2, t.platformTwo, ratio(t.platformTwo[0].rps, t.platformOne[0].rps));
  row('plain SQL', 1, t.plainOne, '');
  row('plain SQL', 2, t.plainTwo, ratio(t.plainTwo[0].rps, t.plainOne[0].rps));
  const replicaReads = r.pools.reduce((n, p) => n + p.replica, 0);
  const primaryReads = r.pools.reduce((n, p) => n + p.primary, 0);
  out('');
  out(
    `Two API processes answer ${ratio(t.platformTwo[0].rps, t.platformOne[0].rps)} the reads of one (goal >= 1.7x); two plain processes ${ratio(t.plainTwo[0].rps, t.plainOne[0].rps)}, which is what this machine's cores allow beside both PostgreSQL servers and the load client, so the platform keeps ${fmt((100 * (t.platformTwo[0].rps / t.platformOne[0].rps)) / (t.plainTwo[0].rps / t.plainOne[0].rps))} % of the gain the machine allows. The API processes sent ${fmt(replicaReads)} reads to the replica and ${fmt(primaryReads)} to the primary over the whole run (${fmt(r.pools.reduce((n, p) => n + p.fallbacks, 0))} moved there from the replica).`,
  );
  out('');
  out(
    `Replica lag under a steady write load: ${r.lags.map((l) => l.rate).join(' and ')} writes/s, ${r.duration} s each, to the primary (platform: POST /api/tags as the admin, to both API processes in turn; plain: an INSERT of the same row on a pg pool) while ${r.readRate} participants' reads/s (open loop) go to the replica. Lag: from a write's answer to the moment a watcher on the replica, asking every ${r.pollMs} ms, finds it there (the platform's read model row also waits for the projection on the primary); beside it PostgreSQL's own replay_lag (pg_stat_replication on the primary, sampled every 50 ms during the phase).`,
  );
  out('');
  out(
    '| writes/s | writes | achieved/s | failed | write answer p50 / p99 ms | seen on the replica | lag p50 ms | lag p99 ms | lag max ms | not seen | PostgreSQL replay_lag p50 / p99 ms | reads p99 ms |',
  );
  out('|---:|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|');
  const lagRows = (rate: number, name: string, { lag, reads, replayLag }: LagPhase, kinds: [string, string][]) => {
    const readP99 = Math.max(...reads.map((f) => f.p99));
    for (const [kind, what] of kinds) {
      const k = lag.lag[kind] ?? { p50: Number.NaN, p99: Number.NaN, max: Number.NaN, unseen: 0 };
      out(
        `| ${rate} | ${name} | ${fmt(lag.achieved)} | ${lag.failed} | ${fmt(lag.answer.p50, 1)} / ${fmt(lag.answer.p99, 1)} | ${what} | ${fmt(k.p50, 1)} | ${fmt(k.p99, 1)} | ${fmt(k.max, 1)} | ${k.unseen} | ${fmt(replayLag.p50, 1)} / ${fmt(replayLag.p99, 1)} | ${fmt(readP99, 1)} |`,
      );
    }
  };
  for (const l of r.lags) {
    lagRows(l.rate, 'platform POST /api/tags', l.platform, [
      ['event', 'its event (es.appends)'],
      ['row', 'its tag in the read model (rm.tags)'],
    ]);
    lagRows(l.rate, 'plain INSERT', l.plain, [['row', 'the row']]);
  }
};
