import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventCodec } from '../../infrastructure/event-store/event-codec.ts';
import type { AllPosition, EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import { createPostgresEventStore } from '../../infrastructure/event-store/postgres/postgres-event-store.ts';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { type Database, openDatabase } from '../../infrastructure/postgres/database.ts';
import { type EmbeddedServer, startEmbeddedPostgres } from '../../infrastructure/postgres/embedded-postgres.ts';
import { migrateDatabase } from '../../infrastructure/postgres/migrate.ts';
import { createProjectionRunner, type ProjectionRunner } from '../../infrastructure/projections/projection-runner.ts';
import { countingProjection } from '../support/counting-projection.ts';
import { freePort } from '../support/replica-pair.ts';
import { testEvents } from '../support/test-events.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Decision 0070: projection batches commit without waiting for their WAL flush, so a crash of the
 * database may lose the last of them (never one out of order) while every append before them, which
 * waited for its flush, survives. The projection must then apply those events again, exactly once.
 *
 * The crash is made to lose them: PostgreSQL's WAL writer is stopped (SIGSTOP) before the last
 * appends, so the projection's commits after them stay in shared memory, then killed, which makes
 * the server end every backend and recover from the WAL on disk (restart_after_crash). The test
 * checks that the crash did lose projection commits (else it proves nothing) and that the runner,
 * which kept running through it, ends with every event applied once.
 */
describe('projection commits lost in a database crash (decision 0070)', () => {
  let server: EmbeddedServer;
  let db: Database;
  let store: EventStore;
  let runner: ProjectionRunner;
  const root = join(import.meta.dirname, '..', '..', '.data', `projection-crash-${process.pid}`);

  beforeAll(async () => {
    await rm(root, { recursive: true, force: true });
    server = await startEmbeddedPostgres({ dataDir: root, port: await freePort(), log: silentLog, database: 'medilearn' });
    const url = server.connectionString('medilearn');
    await migrateDatabase(url);
    // An autovacuum commit waits for its flush, and would write out the projection's commits the
    // crash is meant to lose.
    const admin = await openDatabase(url, { poolSize: 1 });
    await admin.pg.query('alter system set autovacuum = off');
    await admin.pg.query('select pg_reload_conf()');
    await admin.close();
    db = await openDatabase(url, { poolSize: 5 });
    store = createPostgresEventStore({ pool: db.pg, connect: db.connect, codec: createEventCodec(testEvents) });
    runner = createProjectionRunner({
      db,
      store,
      projections: [countingProjection()],
      log: silentLog,
      batchSize: 100,
      idlePollMs: 100,
      standbyPollMs: 100,
      lagLogIntervalMs: 0,
    });
    await runner.start();
  }, 120_000);

  afterAll(async () => {
    await runner?.stop();
    await store?.close();
    await db?.close();
    await server?.stop();
    await rm(root, { recursive: true, force: true });
  });

  const happened = (n: number) => ({ eventId: randomUUID(), type: 'TestHappened', data: { n }, metadata: {} });

  /** Asked again while the server recovers (its connections refused for a moment). */
  const query = async <T extends object>(text: string): Promise<T[]> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return (await db.pg.query<T>(text)).rows;
      } catch (error) {
        if (attempt > 300) throw error;
        await sleep(100);
      }
    }
  };
  const appliedTotal = async () => Number((await query<{ applied: string }>('select applied::text from rm.counting_totals'))[0]?.applied);

  it('applies the lost events again once the server has recovered, exactly once, and loses no answered append', async () => {
    let n = 0;
    let last: AllPosition | null = null;
    for (; n < 100; n++) last = (await store.append(`s-${n % 5}`, [happened(n)], { expectedRevision: 'any' })).position;
    expect(await runner.waitFor(['counting'], last as AllPosition, 20_000)).toBe(true);

    // Up to three crashes: one that happened to write the projection's commits out (something else
    // flushed the WAL in the moment between) proves nothing and is made again.
    let lostInAll = 0;
    for (let crash = 1; crash <= 3 && lostInAll === 0; crash++) {
      const [walWriter] = await query<{ pid: number }>("select pid from pg_stat_activity where backend_type = 'walwriter'");
      const pid = walWriter?.pid as number;
      expect(pid, 'the WAL writer process').toBeGreaterThan(0);
      // A connection of our own shows when the server has ended every backend (it ends this one too).
      const watcher = await db.connect();
      const ended = new Promise<void>((resolve) => {
        watcher.on('error', () => resolve());
        watcher.on('end', () => resolve());
      });
      const before = n;
      process.kill(pid, 'SIGSTOP');
      try {
        // Each append waits for its own flush (the WAL writer is not needed for that): these survive.
        for (; n < before + 50; n++) last = (await store.append(`s-${n % 5}`, [happened(n)], { expectedRevision: 'any' })).position;
        expect(await runner.waitFor(['counting'], last as AllPosition, 20_000), 'applied before the crash').toBe(true);
        expect(await appliedTotal(), 'the read model before the crash').toBe(n);
      } finally {
        // Killed even when a check above failed: a stopped WAL writer would hang the server's stop.
        process.kill(pid, 'SIGKILL');
      }
      await ended;
      await watcher.end().catch(() => undefined);
      // The server recovers from the WAL on disk; the first answer comes after the recovery.
      lostInAll += n - (await appliedTotal());

      // The runner kept running: it lost its lock with its connections, takes it again, reads from
      // the stored (older) checkpoint and applies those events again. Asked over and over with a
      // short wait, so that an answer given from the checkpoint of before the crash (while the runner
      // takes its lock again) is caught: the first "yes" must be a true one.
      const head = (await store.headPosition()) as AllPosition;
      const deadline = Date.now() + 60_000;
      // A pooled connection the crash ended may fail one question: asked again.
      const caughtUp = () => runner.waitFor(['counting'], head, 5).catch(() => false);
      while (!(await caughtUp())) expect(Date.now(), 'caught up after the crash').toBeLessThan(deadline);
      const events = await query<{ event_id: string }>("select event_id from es.events where event_type = 'TestHappened'");
      expect(events, 'every answered append is in the log').toHaveLength(n);
      const applied = await query<{ event_id: string }>('select event_id from rm.counting_applied');
      expect(new Set(applied.map((row) => row.event_id)), 'every event applied').toEqual(new Set(events.map((row) => row.event_id)));
      expect(applied, 'no event applied twice').toHaveLength(n);
      expect(await appliedTotal(), 'the counter').toBe(n);
    }
    // The crash did take projection commits back (else the test proved nothing).
    expect(lostInAll).toBeGreaterThan(0);
  }, 120_000);
});
