import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventCodec } from '../../infrastructure/event-store/event-codec.ts';
import type { AllPosition, EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import { createPostgresEventStore } from '../../infrastructure/event-store/postgres/postgres-event-store.ts';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { createProjectionRunner } from '../../infrastructure/projections/projection-runner.ts';
import { countingProjection } from '../support/counting-projection.ts';
import { createTestDatabase } from '../support/test-database.ts';
import { testEvents } from '../support/test-events.ts';

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;

/**
 * Issue 38: a wake-up that arrives between "nothing new" and "now sleeping" must not be lost. Each
 * test forces that interleaving and gives the runner an idle poll far longer than the wait it allows,
 * so a lost wake-up shows as a waitFor that times out, not as a slow figure.
 */
const IDLE_POLL_MS = 20_000;

const happened = (n: number) => ({ eventId: randomUUID(), type: 'TestHappened', data: { n }, metadata: {} });

const runnerOn = (db: TestDb, store: EventStore) =>
  createProjectionRunner({
    db,
    store,
    projections: [countingProjection()],
    log: silentLog,
    idlePollMs: IDLE_POLL_MS,
    standbyPollMs: IDLE_POLL_MS,
    lagLogIntervalMs: 0,
  });

describe('projection wake-ups (issue 38)', () => {
  let db: TestDb;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db.drop();
  });

  const reset = async () => {
    await db.pg.query('truncate es.appends, es.streams, projections.registry, projections.generations');
    const schemas = await db.pg.query<{ nspname: string }>("select nspname from pg_namespace where nspname like 'rm\\_%'");
    for (const { nspname } of schemas.rows) await db.pg.query(`drop schema "${nspname}" cascade`);
  };

  it('reads again at once when an append wakes it while it is reading an empty page', async () => {
    await reset();
    const codec = createEventCodec(testEvents);
    const inner = createPostgresEventStore({ pool: db.pg, connect: db.connect, codec });
    // The interleaving: the loop's read finds nothing, and before it answers an append commits and
    // wakes the loop (this process's own wake-up, at once). The loop has not gone to sleep yet.
    let armed = false;
    let appended: Promise<AllPosition> | null = null;
    let reading = 0;
    let lastPageEmpty = false;
    const store: EventStore = {
      ...inner,
      async readAll(from, limit) {
        reading++;
        try {
          const page = await inner.readAll(from, limit);
          if (armed && page.events.length === 0) {
            armed = false;
            appended = inner.append('late', [happened(2)], { expectedRevision: 'any' }).then((r) => r.position);
            await appended;
          }
          lastPageEmpty = page.events.length === 0;
          return page;
        } finally {
          reading--;
        }
      },
    };
    const runner = runnerOn(db, store);
    await runner.start();
    try {
      const first = await inner.append('early', [happened(0)], { expectedRevision: 'any' });
      expect(await runner.waitFor(['counting'], first.position, 5_000)).toBe(true);
      // Idle: its last read found nothing and none is running, so the loop sleeps (20 s).
      for (let i = 0; i < 500 && (reading > 0 || !lastPageEmpty); i++) await new Promise((r) => setTimeout(r, 10));
      armed = true;
      // Wakes the loop: it reads this event, then a page that comes back empty, and during that read
      // another append commits and wakes the loop, which has not gone to sleep yet.
      await inner.append('trigger', [happened(1)], { expectedRevision: 'any' });
      for (let i = 0; i < 500 && appended === null; i++) await new Promise((r) => setTimeout(r, 10));
      const position = await (appended as unknown as Promise<AllPosition>);
      const started = Date.now();
      // Before the fix the loop slept out its idle poll (20 s) and this timed out.
      expect(await runner.waitFor(['counting'], position, 5_000)).toBe(true);
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      await runner.stop();
      await inner.close();
    }
  });

  it('does not let a loop woken later join a read of the log started before its wake-up', async () => {
    await reset();
    const codec = createEventCodec(testEvents);
    const inner = createPostgresEventStore({ pool: db.pg, connect: db.connect, codec });
    // Two projections woken by one append share their reads of the log. "slow" takes a second over
    // event 1, so "fast" is already reading the page after it when event 2 is appended; that read is
    // held until "slow" asks for the same page, after the wake-up of event 2.
    let holdAfter: AllPosition | null = null;
    let appended: Promise<AllPosition> | null = null;
    let emptyReads = 0;
    const store: EventStore = {
      ...inner,
      async readAll(from, limit) {
        const page = await inner.readAll(from, limit);
        if (page.events.length === 0) emptyReads++;
        if (holdAfter && from.commit === holdAfter.commit && from.prepare === holdAfter.prepare && page.events.length === 0 && appended === null) {
          appended = inner.append('second', [happened(2)], { expectedRevision: 'any' }).then((r) => r.position);
          await appended;
          await new Promise((r) => setTimeout(r, 1_800));
        }
        return page;
      },
    };
    const runner = createProjectionRunner({
      db,
      store,
      projections: [countingProjection({ name: 'fast' }), countingProjection({ name: 'slow', sleepWhen: (n) => (n === 1 ? 1 : 0) })],
      log: silentLog,
      idlePollMs: IDLE_POLL_MS,
      standbyPollMs: IDLE_POLL_MS,
      lagLogIntervalMs: 0,
    });
    await runner.start();
    try {
      // Both loops idle at the head of the log before the first append wakes them together.
      for (let i = 0; i < 500 && emptyReads === 0; i++) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 300));
      const first = inner.append('first', [happened(1)], { expectedRevision: 'any' });
      holdAfter = (await first).position;
      for (let i = 0; i < 500 && appended === null; i++) await new Promise((r) => setTimeout(r, 10));
      const position = await (appended as unknown as Promise<AllPosition>);
      // Before the fix "slow" joined the held read, found nothing and slept out its idle poll (20 s).
      expect(await runner.waitFor(['fast', 'slow'], position, 6_000)).toBe(true);
    } finally {
      await runner.stop();
      await inner.close();
    }
  });

  it("sends another process's trailing wake-up only after the append it announces has committed", async () => {
    await reset();
    const codec = createEventCodec(testEvents);
    // The writer's wake-ups are at most one a second, so its second append owes a trailing one.
    // Another process: a pool of its own (a process ignores the NOTIFYs its own pool sent).
    const writerPool = new pg.Pool({ connectionString: db.connectionString, max: 4 });
    const writer = createPostgresEventStore({ pool: writerPool, connect: db.connect, codec, notifyIntervalMs: 1_000 });
    const reader = createPostgresEventStore({ pool: db.pg, connect: db.connect, codec });
    const runner = runnerOn(db, reader);
    await runner.start();
    const locker = await db.connect();
    try {
      await writer.append('slow', [happened(0)], { expectedRevision: 'any' });
      expect(await runner.waitFor(['counting'], { commit: 0n, prepare: 0n }, 5_000)).toBe(true);
      // Hold the stream's row so the next append to it commits only after 1.5 s, later than the
      // trailing wake-up's timer: a wake-up sent then finds nothing and the runner goes back to sleep.
      await writer.append('fast', [happened(1)], { expectedRevision: 'any' });
      await new Promise((r) => setTimeout(r, 1_100));
      const fast = await writer.append('fast', [happened(2)], { expectedRevision: 'any' });
      expect(await runner.waitFor(['counting'], fast.position, 5_000)).toBe(true);
      await locker.query('begin');
      await locker.query("select 1 from es.streams where stream_name = 'slow' for update");
      const slow = writer.append('slow', [happened(3)], { expectedRevision: 'any' });
      await new Promise((r) => setTimeout(r, 1_500));
      await locker.query('commit');
      const { position } = await slow;
      expect(await runner.waitFor(['counting'], position, 5_000)).toBe(true);
    } finally {
      await locker.end();
      await runner.stop();
      await writer.close();
      await writerPool.end();
      await reader.close();
    }
  });
});
