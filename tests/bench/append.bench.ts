import { randomUUID } from 'node:crypto';
import { newEventId } from '../../infrastructure/event-store/event-store.port.ts';
import { benchPayload, createBenchDb, fmt, runFor, seconds } from './bench-support.ts';

/**
 * Append throughput at 1, 8 and 32 writers, single-event and 10-event commands, each writer
 * appending to its own stream at the revision it last wrote (as commands on different aggregates
 * do), beside plain INSERT transactions on the same database in the same run.
 */
export const benchAppend = async (adminUrl: string, out: (line: string) => void) => {
  const durationMs = seconds() * 1000;
  const db = await createBenchDb(adminUrl);
  await db.pg.query(
    'create table bench_plain (id bigserial primary key, stream text not null, data jsonb not null, created_at timestamptz not null default now())',
  );
  const data = JSON.stringify(benchPayload(1));

  const plain = async (writers: number, rows: number) => {
    const values = Array.from({ length: rows }, (_, i) => `($1, $${i + 2}::jsonb)`).join(', ');
    const sql = { name: `plain_${rows}`, text: `insert into bench_plain (stream, data) values ${values}` };
    return runFor(writers, durationMs, async (w) => {
      const client = await db.pg.connect();
      try {
        await client.query({ ...sql, values: [`w-${w}`, ...Array.from({ length: rows }, () => data)] });
      } finally {
        client.release();
      }
      return 1;
    });
  };

  const appends = async (writers: number, size: number) => {
    const run = randomUUID().slice(0, 8);
    const revisions = new Map<number, bigint | 'no_stream'>();
    return runFor(writers, durationMs, async (w) => {
      const events = Array.from({ length: size }, (_, i) => ({
        eventId: newEventId(),
        type: 'BenchEventHappened',
        data: benchPayload(i),
        metadata: { actorId: w },
      }));
      const result = await db.store.append(`bench-${run}-${w}`, events, { expectedRevision: revisions.get(w) ?? 'no_stream' });
      revisions.set(w, result.nextRevision);
      return 1;
    });
  };

  out(
    '| writers | plain 1-row INSERT tx/s | single-event appends/s | ratio | plain 10-row INSERT tx/s | 10-event appends/s (events/s) | ratio to 1-row INSERT |',
  );
  out('|---:|---:|---:|---:|---:|---:|---:|');
  const figures: Record<string, number> = {};
  for (const writers of [1, 8, 32]) {
    const plain1 = await plain(writers, 1);
    const single = await appends(writers, 1);
    const plain10 = await plain(writers, 10);
    const ten = await appends(writers, 10);
    figures[`plain1_${writers}`] = plain1;
    figures[`single_${writers}`] = single;
    figures[`ten_${writers}`] = ten;
    out(
      `| ${writers} | ${fmt(plain1)} | ${fmt(single)} | ${fmt(single / plain1, 2)} | ${fmt(plain10)} | ${fmt(ten)} (${fmt(ten * 10)}) | ${fmt(ten / plain1, 2)} |`,
    );
  }
  await db.drop();
  return figures;
};
