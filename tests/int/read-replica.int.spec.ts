import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type ReadReplicaSpec, readMetric, startReadReplicaSpec, until } from '../support/read-replica-spec.ts';
import { freePort, type ReplicaPair } from '../support/replica-pair.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

/**
 * A platform on a primary and a real streaming replica (decision 0067): GET routes read from the
 * replica, a read after a write sees it, and a replica that stops, lags or comes back changes where
 * reads go without one failed answer.
 */
describe('read replica', () => {
  let spec: ReadReplicaSpec;
  let pair: ReplicaPair;
  let platform: TestPlatform;
  let token = '';

  /** A GET as the admin; with `minPosition`, a read that must see the write at that position. */
  const call = (url: string, options: { minPosition?: string } = {}) =>
    platform.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `JWT ${token}`, ...(options.minPosition ? { 'x-min-position': options.minPosition } : {}) },
    });
  const metric = (name: string, label: string) => readMetric(platform, name, label);
  const onReplica = async (sql: string, params: unknown[] = []) => {
    const client = await connect(pair.replicaUrl);
    try {
      return (await client.query(sql, params)).rows;
    } finally {
      await client.end();
    }
  };
  const createTag = (name: string) => spec.createTag(name);

  beforeAll(async () => {
    spec = await startReadReplicaSpec('read-replica', { REPLICA_MAX_LAG_MS: '1500', READ_WAIT_MS: '1000' });
    ({ pair, platform, token } = spec);
  });

  afterAll(async () => {
    await spec?.close();
  });

  it('sends GET routes to the replica, and a read after a write sees the write', async () => {
    expect(platform.reads?.status()).toEqual([expect.objectContaining({ replica: 1, up: true })]);
    const before = await metric('db_reads_total', 'pool="replica-1"');
    for (let i = 0; i < 15; i++) {
      const { id, position: written } = await createTag(`Značka ${i}`);
      const read = await call(`/api/tags/${id}`, { minPosition: written });
      expect(read.statusCode, `tag ${i}`).toBe(200);
      expect(read.headers['x-read-stale']).toBeUndefined();
      expect(read.json()).toMatchObject({ id, name: `Značka ${i}` });
    }
    const list = await call('/api/tags?kind=course&pageSize=50');
    expect(list.statusCode).toBe(200);
    expect((list.json() as { items: unknown[] }).items).toHaveLength(15);
    expect(await metric('db_reads_total', 'pool="replica-1"')).toBeGreaterThanOrEqual(before + 16);
    // The replica itself shows it: the platform's read sessions there, the last of them having read the tags.
    const sessions = await onReplica(`select query from pg_stat_activity where application_name = $1`, [`medilearn:${process.pid}:read`]);
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions.some((s) => /\btags\b/.test(String(s.query)))).toBe(true);
  });

  it('runs a query that writes, made in a GET through the read pool, on the primary instead (and says so)', async () => {
    const reads = platform.reads;
    if (!reads) throw new Error('no read routing');
    const writes = await metric('db_read_fallbacks_total', 'reason="write"');
    const request = { method: 'GET', routeOptions: { config: { access: { kind: 'public' } } } } as unknown as Parameters<typeof reads.requestScope.enter>[0];
    const inserted = await new Promise<unknown>((resolve, reject) =>
      reads.requestScope.enter(request, () => {
        const where = reads.onReplica();
        reads.slonik
          .oneFirst(sql.unsafe`insert into public.app_secrets (name, value) values ('replica-test', 'x') returning value`)
          .then((count) => resolve({ where, count, after: reads.onReplica() }), reject);
      }),
    );
    expect(inserted).toEqual({ where: true, count: 'x', after: false });
    expect(await metric('db_read_fallbacks_total', 'reason="write"')).toBe(writes + 1);
  });

  it('answers from the primary when the replica has not replayed a write within READ_WAIT_MS, and leaves a lagging replica', async () => {
    await onReplica('select pg_wal_replay_pause()');
    try {
      const waits = await metric('db_read_fallbacks_total', 'reason="wait"');
      const { id, position: written } = await createTag('Med premorom');
      const read = await call(`/api/tags/${id}`, { minPosition: written });
      expect(read.statusCode).toBe(200);
      expect(read.headers['x-read-stale']).toBeUndefined();
      expect(read.json()).toMatchObject({ id, name: 'Med premorom' });
      expect(await metric('db_read_fallbacks_total', 'reason="wait"')).toBe(waits + 1);
      // Still paused past REPLICA_MAX_LAG_MS: the health check takes it out, reads go to the primary at once.
      await until('the replica marked lagging', async () => (await metric('db_replica_up', 'replica="1"')) === 0);
      expect(await metric('db_replica_lag_seconds', 'replica="1"')).toBeGreaterThan(1.5);
      const lagging = await metric('db_read_fallbacks_total', 'reason="lagging"');
      const plain = await call(`/api/tags/${id}`);
      expect(plain.statusCode).toBe(200);
      expect(await metric('db_read_fallbacks_total', 'reason="lagging"')).toBeGreaterThan(lagging);
    } finally {
      await onReplica('select pg_wal_replay_resume()');
    }
    await until('the replica caught up again', async () => (await metric('db_replica_up', 'replica="1"')) === 1);
  });

  it('keeps answering from the primary while the replica is down, and returns to it when it is back', async () => {
    const tags = await Promise.all([createTag('Pred izpadom A'), createTag('Pred izpadom B')]);
    await platform.settleAll(tags[1]?.position);
    const reads = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const tag = tags[i % tags.length] as { id: number };
        const response = await call(`/api/tags/${tag.id}`);
        expect(response.statusCode, response.body).toBe(200);
      }
    };
    for (const stop of [() => pair.replica.stop(), () => pair.replica.kill()]) {
      const down = await metric('db_read_fallbacks_total', 'reason="down"');
      await stop();
      // Straight after the stop: the health check has not seen it yet, the pooled connections are gone.
      await reads(10);
      await until('the replica marked down', async () => (await metric('db_replica_up', 'replica="1"')) === 0);
      await reads(10);
      expect(await metric('db_read_fallbacks_total', 'reason="down"')).toBeGreaterThan(down);
      // Written while it is down, read after it comes back: it streams what it missed from its slot.
      const missed = await createTag(`Med izpadom ${down}`);
      await pair.replica.start();
      await until('the replica back in use', async () => (await metric('db_replica_up', 'replica="1"')) === 1);
      const onReplicaBefore = await metric('db_reads_total', 'pool="replica-1"');
      await reads(10);
      const read = await call(`/api/tags/${missed.id}`, { minPosition: missed.position });
      expect(read.statusCode).toBe(200);
      expect(read.json()).toMatchObject({ id: missed.id });
      expect(await metric('db_reads_total', 'pool="replica-1"')).toBeGreaterThanOrEqual(onReplicaBefore + 11);
    }
  });

  it('does not take a replica that is behind when a process starts for caught up, and refuses a read URL that is no standby', async () => {
    await onReplica('select pg_wal_replay_pause()');
    let other: TestPlatform | null = null;
    try {
      await createTag('Pred zagonom');
      // A process started now has no history of the primary's positions: it must still see the lag.
      other = await startTestPlatform(
        { DATABASE_READ_URL: pair.replicaUrl, REPLICA_CHECK_MS: '100', REPLICA_MAX_LAG_MS: '60000' },
        { joinDatabase: pair.primaryUrl },
      );
      await new Promise((r) => setTimeout(r, 500));
      expect(other.reads?.status()).toEqual([expect.objectContaining({ up: false })]);
    } finally {
      await onReplica('select pg_wal_replay_resume()');
      await other?.close();
    }
    const primaryAsReplica = await startTestPlatform({ DATABASE_READ_URL: pair.primaryUrl, REPLICA_CHECK_MS: '100' }, { joinDatabase: pair.primaryUrl });
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(primaryAsReplica.reads?.status()).toEqual([expect.objectContaining({ up: false, lastError: expect.stringContaining('not a standby') })]);
    } finally {
      await primaryAsReplica.close();
    }
    await until('the replica caught up again', async () => (await metric('db_replica_up', 'replica="1"')) === 1);
  });

  it('starts while a replica is down, serving its reads from the primary', async () => {
    const nobody = await freePort();
    const other = await startTestPlatform(
      { DATABASE_READ_URL: `postgres://postgres:x@127.0.0.1:${nobody}/medilearn`, REPLICA_CHECK_MS: '100' },
      { joinDatabase: pair.primaryUrl },
    );
    try {
      const response = await other.app.inject({ method: 'GET', url: '/api/users/me', headers: { authorization: `JWT ${token}` } });
      expect(response.statusCode).toBe(200);
      expect(other.reads?.status()).toEqual([expect.objectContaining({ up: false, lastError: expect.stringContaining('ECONNREFUSED') })]);
    } finally {
      await other.close();
    }
  });
});
