import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventCodec } from '../../infrastructure/event-store/event-codec.ts';
import { type AllPosition, START } from '../../infrastructure/event-store/event-store.port.ts';
import { createPostgresEventStore } from '../../infrastructure/event-store/postgres/postgres-event-store.ts';
import { readAllPages } from '../support/read-all-pages.ts';
import { createTestDatabase } from '../support/test-database.ts';
import { testEvents } from '../support/test-events.ts';
import { eventStoreContract } from './event-store.contract.ts';

eventStoreContract('postgres', async () => {
  const db = await createTestDatabase();
  return {
    create: async (definitions) => createPostgresEventStore({ pool: db.pg, connect: db.connect, codec: createEventCodec(definitions) }),
    dispose: () => db.drop(),
  };
});

describe('postgres event store: batches side by side (decision 0037)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('lets 32 single-event writers share one commit per round, as with one batch in flight', async () => {
    const store = createPostgresEventStore({ pool: db.pg, connect: db.connect, codec: createEventCodec(testEvents) });
    const rounds = 20;
    const streams = Array.from({ length: 32 }, () => `single-${randomUUID()}`);
    await Promise.all(
      streams.map(async (name) => {
        for (let n = 0; n < rounds; n++) {
          await store.append(name, [{ eventId: randomUUID(), type: 'TestHappened', data: { n }, metadata: { actorId: 1 } }], { expectedRevision: 'any' });
        }
      }),
    );
    const commits = await db.pg.query<{ n: string }>('select count(distinct transaction_id)::text as n from es.events where stream_name = any($1)', [streams]);
    // A batch's streams held until its bookkeeping ended split every round into a batch of 1 and one
    // of 31 (two commits per round: 40 here); shared, a round is one commit after the first.
    expect(Number(commits.rows[0]?.n)).toBeLessThan(rounds * 1.5);
    await store.close();
  });

  it('keeps one stream in the order its appends came while long queues run in batches side by side', async () => {
    const wide = createPostgresEventStore({ pool: db.pg, connect: db.connect, codec: createEventCodec(testEvents), maxInFlight: 3 });
    const name = (label: string) => `${label}-${randomUUID()}`;
    const tenEvents = (from: number) =>
      Array.from({ length: 10 }, (_, i) => ({ eventId: randomUUID(), type: 'TestHappened', data: { n: from + i }, metadata: { actorId: 1 } }));
    const [held, ordered] = [name('a'), name('z')];
    await wide.append(held, tenEvents(0), { expectedRevision: 'no_stream' });
    // Another session holds the first stream's row, so the batch that writes it waits.
    const blocker = await db.pg.connect();
    await blocker.query('begin');
    await blocker.query('select 1 from es.streams where stream_name = $1 for update', [held]);
    const appends = [
      wide.append(held, tenEvents(10), { expectedRevision: 'any' }), // batch 1, waits on the row
      wide.append(held, tenEvents(20), { expectedRevision: 'any' }),
      wide.append(ordered, tenEvents(0), { expectedRevision: 'any' }),
      wide.append(name('f'), tenEvents(0), { expectedRevision: 'any' }),
      wide.append(name('f'), tenEvents(0), { expectedRevision: 'any' }), // 40 events queued: a second batch
      wide.append(ordered, tenEvents(10), { expectedRevision: 'any' }),
      wide.append(name('g'), tenEvents(0), { expectedRevision: 'any' }),
      wide.append(name('g'), tenEvents(0), { expectedRevision: 'any' }),
      wide.append(name('g'), tenEvents(0), { expectedRevision: 'any' }), // and a third
    ];
    await new Promise((resolve) => setTimeout(resolve, 300));
    await blocker.query('commit');
    blocker.release();
    await Promise.all(appends);
    const read = await wide.readStream(ordered);
    expect(read.events.map((e) => (e.data as { n: number }).n)).toEqual(Array.from({ length: 20 }, (_, n) => n));
    expect((await wide.readStream(held)).events.map((e) => (e.data as { n: number }).n)).toEqual(Array.from({ length: 30 }, (_, n) => n));
    await wide.close();
  });
});

describe('postgres event store: one row per append (decision 0041)', () => {
  it('keeps a log written one row per event: same ids, revisions and positions after the migration, and appends go on from it', async () => {
    const db = await createTestDatabase({ migrateBefore: '0012' });
    try {
      const [a, b] = [`old-a-${randomUUID()}`, `old-b-${randomUUID()}`];
      const ids = Array.from({ length: 6 }, () => randomUUID());
      const data = (n: number) => JSON.stringify({ n });
      const meta = JSON.stringify({ actorId: 1 });
      // As the store wrote before 0012: one batch of two appends (three events to a, one to b), then one more to b.
      await db.pg.query('select * from es.append_batch($1, $2, $3, $4, $5, $6, $7, $8, false)', [
        [a, b],
        [-2, -2],
        [3, 1],
        ids.slice(0, 4),
        Array(4).fill('TestHappened'),
        Array(4).fill(1),
        [0, 1, 2, 10].map(data),
        Array(4).fill(meta),
      ]);
      await db.pg.query('select * from es.append_batch($1, $2, $3, $4, $5, $6, $7, $8, false)', [
        [b],
        [0],
        [2],
        ids.slice(4),
        Array(2).fill('TestHappened'),
        Array(2).fill(1),
        [11, 12].map(data),
        Array(2).fill(meta),
      ]);
      const before = (
        await db.pg.query<{ id: string; stream: string; revision: string; commit: string; prepare: string }>(
          'select event_id as id, stream_name as stream, stream_revision::text as revision, transaction_id::text as commit, global_position::text as prepare from es.events order by transaction_id, global_position',
        )
      ).rows;
      expect(before).toHaveLength(6);

      expect(await db.migrate()).toContain('0012_one_row_per_append.sql');
      const store = createPostgresEventStore({ pool: db.pg, connect: db.connect, codec: createEventCodec(testEvents) });
      try {
        const all = await readAllPages(store, START, 100);
        expect(
          all.map((e) => ({
            id: e.eventId,
            stream: e.streamName,
            revision: `${e.revision}`,
            commit: `${e.position.commit}`,
            prepare: `${e.position.prepare}`,
          })),
        ).toEqual(before);
        expect((await store.readStream(b)).events.map((e) => [(e.data as { n: number }).n, e.revision])).toEqual([
          [10, 0n],
          [11, 1n],
          [12, 2n],
        ]);
        // A retry of an append of two events stored before the migration (a row each now) is
        // still answered as the original.
        const retried = await store.append(
          b,
          ids.slice(4).map((eventId, k) => ({ eventId, type: 'TestHappened', data: { n: 11 + k }, metadata: { actorId: 1 } })),
          { expectedRevision: 0n },
        );
        expect(retried.nextRevision).toBe(2n);
        expect(`${retried.position.commit}-${retried.position.prepare}`).toBe(`${before[5]?.commit}-${before[5]?.prepare}`);
        expect((await store.readStream(b)).events).toHaveLength(3);
        // New appends follow the old log in $all and in their stream.
        const next = await store.append(
          a,
          [3, 4].map((n) => ({ eventId: randomUUID(), type: 'TestHappened', data: { n }, metadata: { actorId: 1 } })),
          {
            expectedRevision: 2n,
          },
        );
        expect(next.nextRevision).toBe(4n);
        const last = all.at(-1)?.position as AllPosition;
        const after = await readAllPages(store, last, 100);
        expect(after.map((e) => [(e.data as { n: number }).n, e.revision])).toEqual([
          [3, 3n],
          [4, 4n],
        ]);
        expect((await store.readStream(a)).events.map((e) => (e.data as { n: number }).n)).toEqual([0, 1, 2, 3, 4]);
      } finally {
        await store.close();
      }
    } finally {
      await db.drop();
    }
  });
});

describe('postgres event store: event data as json (decision 0042)', () => {
  it('reads every event of a log written as jsonb with the same data and metadata after the migration, a 70-event append in its two rows too', async () => {
    const db = await createTestDatabase({ migrateBefore: '0013' });
    try {
      const stream = `jsonb-${randomUUID()}`;
      const texts = Array.from({ length: 70 }, (_, n) => `Čebelar št. ${n}: "navednice", \\ in ${'ž'.repeat(n)}`);
      const metadata = { actorId: 7, correlationId: randomUUID(), nested: { list: [1, 2.5, null, true], empty: {} } };
      // As the store wrote before 0013: jsonb arrays, one append of 70 events (rows of 64 and 6).
      await db.pg.query('select * from es.append_batch($1, $2, $3, $4, $5, $6, $7::jsonb[], $8::jsonb[], false)', [
        [stream],
        [-2],
        [70],
        texts.map(() => randomUUID()),
        Array(70).fill('TestNoted'),
        Array(70).fill(1),
        texts.map((text) => JSON.stringify({ text })),
        Array(70).fill(JSON.stringify(metadata)),
      ]);
      // 0013 first; later migrations (the consent checkpoints' leaves, 0014, ...) follow it.
      expect((await db.migrate())[0]).toBe('0013_event_data_as_json.sql');
      const types = await db.pg.query<{ column: string }>(
        "select attname || ' ' || format_type(atttypid, atttypmod) as column from pg_attribute where attrelid = 'es.appends'::regclass and attname in ('data', 'metadata') order by attname",
      );
      expect(types.rows.map((r) => r.column)).toEqual(['data json[]', 'metadata json[]']);
      const store = createPostgresEventStore({ pool: db.pg, connect: db.connect, codec: createEventCodec(testEvents) });
      try {
        const read = await store.readStream(stream);
        expect(read.events.map((e) => (e.data as { text: string }).text)).toEqual(texts);
        for (const event of read.events) expect(event.metadata).toEqual(metadata);
        const seen = await readAllPages(store, START, 40);
        expect(seen.filter((e) => e.streamName === stream).map((e) => (e.data as { text: string }).text)).toEqual(texts);
        // Appends go on after the migration, written and read back as the application wrote them.
        await store.append(stream, [{ eventId: randomUUID(), type: 'TestNoted', data: { text: 'Ščepec "soli" \\' }, metadata: { actorId: 8 } }], {
          expectedRevision: 69n,
        });
        expect((await store.readStream(stream)).events.at(-1)?.data).toEqual({ text: 'Ščepec "soli" \\' });
      } finally {
        await store.close();
      }
    } finally {
      await db.drop();
    }
  });
});

describe('postgres event store: reads of the log', () => {
  it('never reads the log with parallel workers, even where the planner would think them cheaper (a 50-event stream took 4-5 ms so, 0.1 without)', async () => {
    const db = await createTestDatabase({ poolSize: 2 });
    const client = await db.pg.connect();
    try {
      await client.query(`insert into es.appends (global_position, stream_name, first_revision, positions, event_ids, event_types, schema_versions, data, metadata)
        select g, 's-' || (g % 50), g / 50, array[g], array[gen_random_uuid()], array['TestNoted'], array[1], array[json_build_object('n', g)], array['{}'::json]
          from generate_series(1, 20000) g`);
      // Parallelism made free: before autovacuum had analysed a busy log, the planner's guesses
      // made it look cheaper than it is, and a stream read went to two workers.
      await client.query(
        'set parallel_setup_cost = 0; set parallel_tuple_cost = 0; set min_parallel_table_scan_size = 0; set min_parallel_index_scan_size = 0',
      );
      for (const query of [
        "select * from es.appends where stream_name = 's-7' order by first_revision",
        "select * from es.appends where (transaction_id, global_position) > ('0'::xid8, 0) order by transaction_id, global_position limit 5000",
      ]) {
        const plan = await client.query<{ 'QUERY PLAN': string }>(`explain ${query}`);
        expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).not.toMatch(/Gather|Parallel/);
      }
    } finally {
      client.release();
      await db.drop();
    }
  });
});

describe('postgres event store: arrays sent in binary (decision 0043)', () => {
  it('fails an append with a malformed event id on its own, and the appends batched beside it are stored with their text as written', async () => {
    const db = await createTestDatabase({ poolSize: 4 });
    const store = createPostgresEventStore({ pool: db.pg, connect: db.connect, codec: createEventCodec(testEvents) });
    try {
      const text = 'Čežek "citat" \\ pot C:\\x, {a,b} NULL 💊';
      const stream = (label: string) => `${label}-${randomUUID()}`;
      const [before, after] = [stream('a'), stream('c')];
      // Called in one tick: the first starts a batch at once, the other two queue behind it and would
      // form the next batch together unless the bad one is refused before it joins (then both failed).
      const results = await Promise.allSettled([
        store.append(before, [{ eventId: randomUUID(), type: 'TestNoted', data: { text }, metadata: { actorId: 1 } }], { expectedRevision: 'no_stream' }),
        store.append(stream('b'), [{ eventId: 'not-a-uuid', type: 'TestNoted', data: { text }, metadata: { actorId: 1 } }], { expectedRevision: 'no_stream' }),
        store.append(
          after,
          Array.from({ length: 3 }, (_, n) => ({ eventId: randomUUID(), type: 'TestNoted', data: { text: `${n} ${text}` }, metadata: { actorId: 2 } })),
          { expectedRevision: 'no_stream' },
        ),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(RangeError);
      expect((await store.readStream(before)).events.map((e) => e.data)).toEqual([{ text }]);
      expect((await store.readStream(after)).events.map((e) => [e.revision, e.data, e.metadata])).toEqual([
        [0n, { text: `0 ${text}` }, { actorId: 2 }],
        [1n, { text: `1 ${text}` }, { actorId: 2 }],
        [2n, { text: `2 ${text}` }, { actorId: 2 }],
      ]);
      const stored = await db.pg.query<{ data: string }>('select data::text as data from es.events where stream_name = $1', [before]);
      expect(stored.rows[0]?.data).toBe(JSON.stringify({ text }));
    } finally {
      await store.close();
      await db.drop();
    }
  });

  it('refuses an append that names one event id twice, short or long, and stores none of its events', async () => {
    const db = await createTestDatabase({ poolSize: 2 });
    const store = createPostgresEventStore({ pool: db.pg, connect: db.connect, codec: createEventCodec(testEvents) });
    try {
      const events = (count: number, repeatAt: number) => {
        const ids: string[] = Array.from({ length: count }, () => randomUUID());
        ids[repeatAt] = ids[0] as string;
        return ids.map((eventId, n) => ({ eventId, type: 'TestHappened', data: { n }, metadata: { actorId: 1 } }));
      };
      // The repeat at the end of a command-sized append, and past the pairwise check's reach.
      for (const [count, repeatAt] of [
        [2, 1],
        [10, 9],
        [40, 39],
      ] as const) {
        const stream = `twice-${count}-${randomUUID()}`;
        await expect(store.append(stream, events(count, repeatAt), { expectedRevision: 'no_stream' })).rejects.toThrow(RangeError);
        expect((await store.readStream(stream)).revision).toBe('no_stream');
      }
      const fine = `once-${randomUUID()}`;
      await store.append(fine, events(10, 0), { expectedRevision: 'no_stream' });
      expect((await store.readStream(fine)).events).toHaveLength(10);
    } finally {
      await store.close();
      await db.drop();
    }
  });

  it("gives each event its own metadata, whether the append's events share one object or not", async () => {
    const db = await createTestDatabase({ poolSize: 2 });
    const store = createPostgresEventStore({ pool: db.pg, connect: db.connect, codec: createEventCodec(testEvents) });
    try {
      const shared = { actorId: 1, correlationId: 'skupni' };
      const own = { actorId: 2 };
      const metadata = [shared, shared, own, shared, { actorId: 1, correlationId: 'skupni' }, {}];
      const stream = `metadata-${randomUUID()}`;
      await store.append(
        stream,
        metadata.map((m, n) => ({ eventId: randomUUID(), type: 'TestHappened', data: { n }, metadata: m })),
        { expectedRevision: 'no_stream' },
      );
      expect((await store.readStream(stream)).events.map((e) => e.metadata)).toEqual(metadata.map((m) => ({ ...m })));
    } finally {
      await store.close();
      await db.drop();
    }
  });
});
