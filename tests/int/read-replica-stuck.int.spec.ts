import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type ReadReplicaSpec, readMetric, startReadReplicaSpec, until } from '../support/read-replica-spec.ts';
import type { ReplicaPair } from '../support/replica-pair.ts';
import type { TestPlatform } from '../support/test-platform.ts';

/**
 * A read stuck on a replica (decision 0067, review of issue 37): a statement waiting there for a lock
 * that replay holds, with replay paused, would hold a GET for as long as replay stays paused. With
 * REPLICA_STATEMENT_TIMEOUT_MS it is cancelled and the request answered by the primary.
 */
describe('a read stuck on a replica', () => {
  let spec: ReadReplicaSpec;
  let pair: ReplicaPair;
  let platform: TestPlatform;
  let token = '';

  const call = (url: string, headers: Record<string, string> = {}) =>
    platform.app.inject({ method: 'GET', url, headers: { authorization: `JWT ${token}`, ...headers } });
  /** The GET, failing with `held` if it has no answer within `ms` (a GET held by the replica would wait as long as it stays stuck). */
  const callWithin = (url: string, ms: number, held: string) =>
    Promise.race([call(url), new Promise<never>((_, reject) => setTimeout(() => reject(new Error(held)), ms))]);
  const metric = (name: string, label: string) => readMetric(platform, name, label);

  beforeAll(async () => {
    // A lag limit far away: the paused replica stays in use, so the read goes to it.
    spec = await startReadReplicaSpec('read-replica-stuck', { REPLICA_MAX_LAG_MS: '60000', READ_WAIT_MS: '1000', REPLICA_STATEMENT_TIMEOUT_MS: '300' });
    ({ pair, platform, token } = spec);
  });

  afterAll(async () => {
    await spec?.close();
  });

  it('answers from the primary when the replica’s statement waits on a lock replay holds', async () => {
    const { id, position } = await spec.createTag('Zaklenjena');
    await platform.settleAll(position);
    await until('the replica has the tag', async () => (await call(`/api/tags/${id}`)).statusCode === 200);

    const primary = await connect(pair.primaryUrl);
    const replica = await connect(pair.replicaUrl);
    try {
      // The primary takes ACCESS EXCLUSIVE on the tags; replay takes it on the replica too and keeps it until the commit is replayed.
      await primary.query('begin');
      await primary.query('lock table rm.tags in access exclusive mode');
      const flusher = await connect(pair.primaryUrl);
      // A commit elsewhere flushes the WAL that holds the lock record, so the replica receives it.
      await flusher.query('select pg_current_xact_id()');
      await flusher.end();
      await until(
        'replay holding the lock',
        async () =>
          (await replica.query(`select count(*)::int as n from pg_locks where mode = 'AccessExclusiveLock' and relation = 'rm.tags'::regclass`)).rows[0].n > 0,
      );
      // Replay paused before the commit: the replica keeps the lock, the primary lets it go.
      await replica.query('select pg_wal_replay_pause()');
      await until('replay paused', async () => (await replica.query('select pg_get_wal_replay_pause_state() as s')).rows[0].s === 'paused');
      await primary.query('commit');

      const timeouts = await metric('db_read_fallbacks_total', 'reason="timeout"');
      const replicaReads = await metric('db_reads_total', 'pool="replica-1"');
      const started = Date.now();
      const read = await callWithin(`/api/tags/${id}`, 5000, 'the GET is held by the stuck replica');
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json()).toMatchObject({ id, name: 'Zaklenjena' });
      expect(Date.now() - started).toBeLessThan(3000);
      expect(await metric('db_reads_total', 'pool="replica-1"')).toBe(replicaReads + 1);
      expect(await metric('db_read_fallbacks_total', 'reason="timeout"')).toBe(timeouts + 1);
      // A timeout is no outage: the replica stays in use.
      expect(platform.reads?.status()).toEqual([expect.objectContaining({ up: true })]);
    } finally {
      await primary.query('rollback').catch(() => undefined);
      await replica.query('select pg_wal_replay_resume()').catch(() => undefined);
      await primary.end();
      await replica.end();
    }
  });

  it('answers from the primary when the replica hangs (no answer, no cancel), and takes it back once it answers', async () => {
    await until('the replica in use', async () => platform.reads?.status()[0]?.up === true);
    const { id, position: written } = await spec.createTag('Zamrznjena');
    // Read once on the replica: its pools hold open connections, which the stop below leaves hanging.
    expect((await call(`/api/tags/${id}`, { 'x-min-position': written })).statusCode).toBe(200);
    // The replica's server and every process of it (each backend is a process group of its own):
    // SIGSTOP, so their sockets stay open and nothing answers.
    const probe = await connect(pair.replicaUrl);
    const backend = (await probe.query('select pg_backend_pid() as pid')).rows[0].pid as number;
    const postmaster = Number(readFileSync(`/proc/${backend}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
    await probe.end();
    expect(postmaster).toBeGreaterThan(1);
    const frozen = [
      postmaster,
      ...execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' })
        .split('\n')
        .map(Number)
        .filter((pid) => pid > 0),
    ];
    const signal = (name: NodeJS.Signals) => {
      for (const pid of frozen) {
        try {
          process.kill(pid, name);
        } catch {
          // Ended meanwhile.
        }
      }
    };
    const timeouts = await metric('db_read_fallbacks_total', 'reason="timeout"');
    signal('SIGSTOP');
    try {
      const started = Date.now();
      const read = await callWithin(`/api/tags/${id}`, 6000, 'the GET is held by the hung replica');
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json()).toMatchObject({ id, name: 'Zamrznjena' });
      // The statement timeout (300 ms) and a second's grace.
      expect(Date.now() - started).toBeLessThan(4000);
      expect(await metric('db_read_fallbacks_total', 'reason="timeout"')).toBeGreaterThan(timeouts);
    } finally {
      signal('SIGCONT');
    }
    await until('the replica in use again', async () => platform.reads?.status()[0]?.up === true);
  });
});
