import { START } from '../../infrastructure/event-store/event-store.port.ts';
import { createBenchDb, fmt, seedEventsSql } from './bench-support.ts';

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
  await db.drop();
  return { ours, plain };
};
