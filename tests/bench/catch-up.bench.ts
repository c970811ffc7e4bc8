import { randomBytes } from 'node:crypto';
import { newEventId, START } from '../../infrastructure/event-store/event-store.port.ts';
import { createBenchDb, fmt, percentile, seedEventsSql } from './bench-support.ts';

/**
 * `$all` catch-up read rate over N events, checked for completeness (every event once, in
 * order), beside a plain indexed SELECT over the same rows and columns in the same run.
 */
export const benchCatchUp = async (adminUrl: string, out: (line: string) => void) => {
  const total = Number(process.env.BENCH_CATCHUP_EVENTS ?? 300_000);
  const page = 5000;
  const db = await createBenchDb(adminUrl);
  // Written straight into the table: this measures reading, not writing.
  await db.pg.query(
    seedEventsSql(`
    select 'bench-' || (g % 1000) as stream_name, g / 1000 as stream_revision, gen_random_uuid() as event_id, 'BenchEventHappened' as event_type, 1 as schema_version,
           jsonb_build_object('n', g, 'course', g % 97, 'note', 'Udeleženec je odprl blok s kvizom in odgovoril na vprašanje o interakcijah zdravil.') as data,
           jsonb_build_object('actorId', g % 500, 'correlationId', gen_random_uuid()) as metadata, now() as created_at
      from generate_series(0, ${total - 1}) g order by g`),
  );
  await db.pg.query('analyze es.appends');

  let seen = 0;
  let last = -1n;
  const ids = new Set<string>();
  let from = START;
  const started = performance.now();
  for (;;) {
    const read = await db.store.readAll(from, page);
    if (read.events.length === 0) break;
    for (const event of read.events) {
      if (event.position.prepare <= last) throw new Error('catch-up read out of order');
      last = event.position.prepare;
      ids.add(event.eventId);
    }
    seen += read.events.length;
    from = (read.events.at(-1) as { position: typeof from }).position;
  }
  const ours = seen / ((performance.now() - started) / 1000);
  if (seen !== total || ids.size !== total) throw new Error(`catch-up read incomplete: ${seen} read, ${ids.size} distinct, ${total} written`);

  // The baseline: the same rows and columns, one per event, in a plain table with a position index.
  await db.pg.query('create table bench_plain_events as select * from es.events');
  await db.pg.query('create index bench_global_position on bench_plain_events (global_position)');
  await db.pg.query('analyze bench_plain_events');
  let plainSeen = 0;
  let cursor = 0;
  const plainStarted = performance.now();
  for (;;) {
    const result = await db.pg.query<{ global_position: number }>({
      name: 'plain_page',
      text: `select event_id, stream_name, stream_revision, transaction_id::text, global_position, event_type, schema_version, data, metadata, created_at
               from bench_plain_events where global_position > $1 order by global_position limit $2`,
      values: [cursor, page],
    });
    if (result.rows.length === 0) break;
    plainSeen += result.rows.length;
    cursor = Number((result.rows.at(-1) as { global_position: number }).global_position);
  }
  const plain = plainSeen / ((performance.now() - plainStarted) / 1000);
  out('| events | $all catch-up events/s | plain indexed SELECT rows/s | ratio | complete |');
  out('|---:|---:|---:|---:|---|');
  out(`| ${fmt(total)} | ${fmt(ours)} | ${fmt(plain)} | ${fmt(ours / plain, 2)} | yes: ${fmt(ids.size)} distinct, in order |`);

  // Long appends (decision 0041 stores more than 64 events of one append in rows of 64): reading
  // the stream back, beside a plain SELECT of the same rows from a table with a row per event.
  out('');
  out('| one append of | readStream ms (median of 5) | plain SELECT of the same rows, ms | ratio |');
  out('|---|---:|---:|---:|');
  await db.pg.query(
    'create table bench_plain_stream (stream_name text, stream_revision bigint, event_id uuid, data jsonb, primary key (stream_name, stream_revision))',
  );
  for (const [count, bytes] of [
    [30, 20_000],
    [300, 2_000],
    [2_000, 300],
  ] as const) {
    const name = `long-${count}`;
    const events = Array.from({ length: count }, (_, n) => ({
      eventId: newEventId(),
      type: 'BenchEventHappened',
      data: { n, course: n % 97, note: randomBytes(bytes / 2).toString('hex') },
      metadata: { actorId: 1 },
    }));
    await db.store.append(name, events, { expectedRevision: 'no_stream' });
    await db.pg.query('insert into bench_plain_stream select stream_name, stream_revision, event_id, data from es.events where stream_name = $1', [name]);
    const times: number[] = [];
    const plainTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      let started = performance.now();
      const read = await db.store.readStream(name);
      times.push(performance.now() - started);
      if (read.events.length !== count) throw new Error(`long append read back ${read.events.length} of ${count}`);
      started = performance.now();
      await db.pg.query({
        name: 'plain_stream',
        text: 'select event_id, stream_revision, data from bench_plain_stream where stream_name = $1 order by stream_revision',
        values: [name],
      });
      plainTimes.push(performance.now() - started);
    }
    out(
      `| ${fmt(count)} events of ${fmt(bytes)} bytes | ${fmt(percentile(times, 50), 1)} | ${fmt(percentile(plainTimes, 50), 1)} | ${fmt(percentile(times, 50) / percentile(plainTimes, 50), 1)} |`,
    );
  }
  await db.drop();
  return { ours, plain };
};
