import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventCodec } from '../../infrastructure/event-store/event-codec.ts';
import { createPostgresEventStore } from '../../infrastructure/event-store/postgres/postgres-event-store.ts';
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
