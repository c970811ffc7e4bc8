// The replica bench's lag measure (replica.bench.ts): writes at a steady rate to the primary, each
// watched for on the streaming replica until it is there; the delay from a write's answer to its
// first sighting on the replica is its replica lag.

import type pg from 'pg';
import { percentile } from './bench-support.ts';

/** What one write left to look for on the replica, by kind ('row': what a reader reads; 'event': the appended event). */
export type Written = Partial<Record<'row' | 'event', number>>;

export type LagFigures = {
  readonly writes: number;
  readonly achieved: number;
  readonly failed: number;
  /** The write's own answer time (ms from when it was due). */
  readonly answer: { p50: number; p99: number };
  /** ms from each write's answer to its sighting on the replica, by kind. */
  readonly lag: Record<string, { p50: number; p99: number; max: number; unseen: number }>;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Open loop: write i is due at start + i / rate whatever the ones before did (a slow primary cannot
 * slow the load down). One watcher on the replica asks, every `pollMs`, which of the writes still
 * unseen are there now (`watch` gets the pending keys of each kind and answers the ones found), so
 * the lag is known to within about `pollMs` plus one query, the same for the platform and the plain
 * baseline. A write not seen within 10 s of the end counts as unseen.
 */
export const measureLag = async (options: {
  rate: number;
  seconds: number;
  pollMs: number;
  write: (i: number) => Promise<Written | null>;
  replica: pg.Client;
  watch: (replica: pg.Client, pending: Record<string, number[]>) => Promise<Record<string, number[]>>;
}): Promise<LagFigures> => {
  const total = Math.round(options.rate * options.seconds);
  const pending = new Map<string, Map<number, number>>();
  const delays = new Map<string, number[]>();
  const answers: number[] = [];
  let failed = 0;
  let settled = 0;
  const started = performance.now();
  let lastAnswer = started;
  const writes: Promise<void>[] = [];
  const due = (i: number) => started + (i * 1000) / options.rate;

  let writing = true;
  const watcher = (async () => {
    const deadline = () => (writing ? Number.POSITIVE_INFINITY : lastAnswer + 10_000);
    while ((writing || [...pending.values()].some((m) => m.size > 0)) && performance.now() < deadline()) {
      const asked = Object.fromEntries([...pending].filter(([, m]) => m.size > 0).map(([kind, m]) => [kind, [...m.keys()]]));
      if (Object.keys(asked).length > 0) {
        const found = await options.watch(options.replica, asked);
        const now = performance.now();
        for (const [kind, keys] of Object.entries(found)) {
          const waiting = pending.get(kind);
          for (const key of keys) {
            const answeredAt = waiting?.get(key);
            if (answeredAt === undefined) continue;
            waiting?.delete(key);
            if (!delays.has(kind)) delays.set(kind, []);
            delays.get(kind)?.push(Math.max(0, now - answeredAt));
          }
        }
      }
      await sleep(options.pollMs);
    }
  })();

  for (let i = 0; i < total; i++) {
    const wait = due(i) - performance.now();
    if (wait > 1) await sleep(wait);
    writes.push(
      options.write(i).then(
        (written) => {
          const now = performance.now();
          lastAnswer = now;
          settled++;
          if (!written) {
            failed++;
            return;
          }
          answers.push(now - due(i));
          for (const [kind, key] of Object.entries(written)) {
            if (key === undefined) continue;
            if (!pending.has(kind)) pending.set(kind, new Map());
            pending.get(kind)?.set(key, now);
          }
        },
        () => {
          failed++;
          settled++;
        },
      ),
    );
  }
  await Promise.all(writes);
  const elapsed = (lastAnswer - started) / 1000;
  writing = false;
  await watcher;
  const lag: LagFigures['lag'] = {};
  for (const kind of new Set([...pending.keys(), ...delays.keys()])) {
    const d = delays.get(kind) ?? [];
    lag[kind] = { p50: percentile(d, 50), p99: percentile(d, 99), max: d.reduce((a, b) => Math.max(a, b), 0), unseen: pending.get(kind)?.size ?? 0 };
  }
  return { writes: settled, achieved: settled / elapsed, failed, answer: { p50: percentile(answers, 50), p99: percentile(answers, 99) }, lag };
};

/**
 * PostgreSQL's own figure beside it: `replay_lag` of pg_stat_replication on the primary (from a WAL
 * flush there to the replica's report that it has replayed it), sampled every `everyMs` until the
 * returned function is called, which answers its p50, p99 and max in ms over the samples it had.
 */
export const sampleReplayLag = (primary: pg.Pool, everyMs: number) => {
  const samples: number[] = [];
  let sampling = true;
  const done = (async () => {
    while (sampling) {
      const row = (await primary.query<{ ms: number | null }>('select (extract(epoch from max(replay_lag)) * 1000)::float8 as ms from pg_stat_replication'))
        .rows[0];
      if (row?.ms != null) samples.push(row.ms);
      await sleep(everyMs);
    }
  })();
  return async () => {
    sampling = false;
    await done;
    return { p50: percentile(samples, 50), p99: percentile(samples, 99), max: samples.reduce((a, b) => Math.max(a, b), 0), samples: samples.length };
  };
};
