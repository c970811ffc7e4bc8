import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_QUEUE } from '../../application/exports/export.job.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { PROJECTIONS } from '../../infrastructure/main/platform.ts';
import { createProjectionRunner } from '../../infrastructure/projections/projection-runner.ts';
import { freePort, type ReplicaPair, startReplicaPair } from '../support/replica-pair.ts';
import { startTestPlatform, TEST_PASSWORD, type TestPlatform } from '../support/test-platform.ts';
import {
  type Balancer,
  killHard,
  metric,
  type PlatformProcess,
  type Role,
  residentMb,
  sleep,
  startBalancer,
  startPlatformProcess,
  stopGently,
  waitReady,
} from './deployment-harness.ts';

/**
 * Issue 37 item 3 (decision 0068): the deployment of decision 0068 on one machine, every part a real
 * process. A primary PostgreSQL and a streaming replica of it (decision 0067), two API processes
 * (PROCESS_ROLE=api, reads on the replica) and one job process (PROCESS_ROLE=jobs, decision 0066),
 * HAProxy in front with deploy/haproxy.cfg. Under mixed load through the balancer (logins, tags
 * created and renamed, courses created, each followed by a read with X-Min-Position, and a
 * server-sent events stream held open):
 *   1. the replica is SIGKILLed: reads go on from the primary, no error;
 *   2. it starts again: reads return to it (each process's db_reads_total{pool="replica-1"} grows);
 *   3. the job process is SIGKILLed mid-export (held while storing its file) and another one starts:
 *      the export finishes, once;
 *   4. an API process is SIGKILLed: HAProxy takes it out and routes around it, and back in when a
 *      new one starts on its address. Only a write that was in flight on the dead process may get a
 *      502 (decision 0068: writes are not sent twice); every read is answered.
 * Then: every command answered 2xx is in the event store exactly once, no read returned data older
 * than its write, the replica's read models equal the primary's, and those equal a full rebuild.
 * `npm run test:scale` (about 1.5 minutes; not in `npm test`).
 */

const RUN = Date.now().toString(36);
const PARTICIPANTS = 3;

type Call = { what: string; method: string; status: number; startedAt: number; endedAt: number; detail: string };
type Answer = { status: number; headers: Headers; body: unknown };

const sessionOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()) as { sid: string }).sid;

describe('the deployment: HAProxy, two API processes, a job process, a primary and a streaming replica', () => {
  let pair: ReplicaPair;
  let seed: TestPlatform;
  let dataDir: string;
  let balancer: Balancer;
  let adminToken = '';
  const participants: { username: string; id: number }[] = [];
  const apis: PlatformProcess[] = [];
  const jobs: PlatformProcess[] = [];
  const began = Date.now();
  const timings: Record<string, number> = {};
  const mark = (what: string) => {
    timings[what] = Math.round((Date.now() - began) / 100) / 10;
  };

  // The balancer's addresses, known before the processes start: the platform names itself and its content origin by them.
  const front = { bind: 0, contentBind: 0, stats: 0 };
  const contentPorts = new Map<number, number>();
  const env = (): Record<string, string> => ({
    DATABASE_URL: pair.primaryUrl,
    PUBLIC_URL: `http://localhost:${front.bind}`,
    CONTENT_ORIGIN: `http://127.0.0.1:${front.contentBind}`,
    CONTENT_PORT: '0',
    HOST: '127.0.0.1',
    DEMO_DATA: 'false',
    DATA_DIR: dataDir,
    UI_DIST_DIR: '/nonexistent',
    LOG_LEVEL: 'warn',
    DATABASE_POOL_SIZE: '6',
    // A read may wait for a projection's lock to move after a kill, and for its catch-up.
    READ_WAIT_MS: '8000',
    // The load's clients all run on this machine: one client address for every sign-in.
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    AUTH_ADDRESS_RATE_LIMIT_PER_MINUTE: '100000',
    // The balancer is the one proxy believed (the load's clients are all on this machine, hence the limit above).
    TRUST_PROXY: '127.0.0.1',
    EXPORTS_PER_HOUR: '1000',
    // A dead job process's export runs again within seconds (decision 0066), not the default minute and a half.
    JOB_HEARTBEAT_SECONDS: '10',
    JOB_MONITOR_INTERVAL_SECONDS: '1',
  });
  const apiEnv = (): Record<string, string> => ({ ...env(), DATABASE_READ_URL: pair.replicaUrl, REPLICA_CHECK_MS: '250' });

  const start = async (role: Role, port?: number) => {
    const chosen = port ?? (await freePort());
    // An API process's package-content server, on a port of its own the balancer knows (a replacement keeps it).
    if (role === 'api' && !contentPorts.has(chosen)) contentPorts.set(chosen, await freePort());
    const p = startPlatformProcess(role, chosen, role === 'api' ? { ...apiEnv(), CONTENT_PORT: String(contentPorts.get(chosen)) } : env());
    (role === 'api' ? apis : jobs).push(p);
    return p;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'medilearn-deploy-'));
    front.bind = await freePort();
    front.contentBind = await freePort();
    front.stats = await freePort();
    pair = await startReplicaPair({ name: 'deployment-scale' });
    mark('primary and replica');
    // Seeding through a platform of the test's own on the primary; its runner leaves before the processes start.
    seed = await startTestPlatform({}, { joinDatabase: pair.primaryUrl });
    await seed.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    for (let i = 1; i <= PARTICIPANTS; i++) {
      const id = await seed.createUser(`ucenec${i}`, [{ roleId: ROLE.participant, unitId: 1, companyId: null }]);
      participants.push({ username: `ucenec${i}`, id });
    }
    adminToken = (await seed.login('skrbnik')).token;
    await seed.runner.stop();
    mark('seeded');
    const first = [await start('api'), await start('api'), await start('jobs')];
    await Promise.all(first.map((p) => waitReady(p)));
    mark('processes ready');
    balancer = await startBalancer({ ...front, api: apis.map((a) => ({ port: a.port, contentPort: contentPorts.get(a.port) as number })) });
    mark('balancer ready');
  }, 180_000);

  afterAll(async () => {
    await balancer?.stop();
    await Promise.all([...apis, ...jobs].map((p) => stopGently(p, 5000)));
    await seed?.close();
    await pair?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('serves through a replica crash, a job process crash and an API process crash, loses no acknowledged command and reads nothing stale', async () => {
    const calls: Call[] = [];
    const stale: string[] = [];
    const acked = {
      tags: [] as { id: number; name: string }[],
      renames: [] as { id: number; name: string }[],
      courses: [] as { id: number; title: string }[],
      logins: [] as string[],
    };
    let apiKilledAt = Number.POSITIVE_INFINITY;
    let apiGoneAt = Number.POSITIVE_INFINITY;

    const call = async (
      what: string,
      method: 'GET' | 'POST' | 'PUT',
      path: string,
      options: { token?: string; body?: object; minPosition?: string | null; base?: string } = {},
    ): Promise<Answer | null> => {
      const startedAt = Date.now();
      const headers: Record<string, string> = {};
      if (options.token) headers.authorization = `JWT ${options.token}`;
      if (options.body) headers['content-type'] = 'application/json';
      if (options.minPosition) headers['x-min-position'] = options.minPosition;
      try {
        const response = await fetch(`${options.base ?? balancer.url}${path}`, {
          method,
          headers,
          ...(options.body ? { body: JSON.stringify(options.body) } : {}),
          signal: AbortSignal.timeout(30_000),
        });
        const text = await response.text();
        calls.push({ what, method, status: response.status, startedAt, endedAt: Date.now(), detail: response.status >= 300 ? text.slice(0, 200) : '' });
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // Not JSON: kept as text.
        }
        return { status: response.status, headers: response.headers, body };
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        calls.push({ what, method, status: 0, startedAt, endedAt: Date.now(), detail: `${(error as Error).message} (${cause?.code ?? cause?.message ?? ''})` });
        return null;
      }
    };
    const position = (answer: Answer) => answer.headers.get('x-event-position');
    const read = async (what: string, path: string, token: string, minPosition: string | null, fresh: (body: Record<string, unknown>) => boolean) => {
      const answer = await call(what, 'GET', path, { token, minPosition });
      if (!answer) return;
      if (answer.status !== 200 || answer.headers.get('x-read-stale') || !fresh(answer.body as Record<string, unknown>)) {
        stale.push(`${what} ${path} at ${minPosition}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
      }
    };

    let loading = true;
    let sequence = 0;
    const tagWriter = async () => {
      while (loading) {
        const n = sequence++;
        const name = `scale-${RUN}-tag-${n}`;
        const created = await call('create tag', 'POST', '/api/tags', { token: adminToken, body: { kind: 'course', name } });
        if (created?.status !== 201) continue;
        const id = (created.body as { id: number }).id;
        acked.tags.push({ id, name });
        await read('tag', `/api/tags/${id}`, adminToken, position(created), (b) => b.name === name);
        if (n % 3 !== 0) continue;
        const renamed = `${name}-b`;
        const changed = await call('rename tag', 'PUT', `/api/tags/${id}`, { token: adminToken, body: { name: renamed } });
        if (changed?.status !== 200) continue;
        acked.renames.push({ id, name: renamed });
        await read('renamed tag', `/api/tags/${id}`, adminToken, position(changed), (b) => b.name === renamed);
      }
    };
    const courseWriter = async () => {
      while (loading) {
        const title = `Tečaj ${RUN} ${sequence++}`;
        const body = { type: 3, title, description: 'Kratek pregled novosti pri izdaji zdravil.', cover: '/covers/novosti.jpg', creditPoints: 1 };
        const created = await call('create course', 'POST', '/api/courses', { token: adminToken, body });
        if (created?.status !== 201) continue;
        const id = (created.body as { id: number }).id;
        acked.courses.push({ id, title });
        await read('course', `/api/courses/${id}`, adminToken, position(created), (b) => (b.fields as { title?: string } | undefined)?.title === title);
      }
    };
    const loginWriter = async () => {
      for (let n = 0; loading; n++) {
        const who = participants[n % participants.length] as { username: string; id: number };
        const login = await call('login', 'POST', '/api/auth/login', { body: { usernameOrEmail: who.username, password: TEST_PASSWORD } });
        if (login?.status !== 200) continue;
        const token = (login.body as { authToken: string }).authToken;
        acked.logins.push(sessionOf(token));
        // The new session is known wherever the read runs (replica or primary).
        await read('me', '/api/users/me', token, position(login), (b) => b.id === who.id);
      }
    };

    // An open page's live stream through the balancer, reconnecting as EventSource does.
    const live = { connects: 0, ready: 0, changed: 0, cut: 0, readyAfterMs: [] as number[], refused: [] as number[] };
    const stopLive = new AbortController();
    const follow = async () => {
      while (!stopLive.signal.aborted) {
        const opened = Date.now();
        try {
          const response = await fetch(`${balancer.url}/api/live`, { headers: { authorization: `JWT ${adminToken}` }, signal: stopLive.signal });
          if (response.status !== 200 || !response.body) {
            live.refused.push(response.status);
            await sleep(500);
            continue;
          }
          live.connects++;
          const reader = response.body.getReader();
          const decoder = new TextDecoder();
          let buffer = '';
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            buffer += decoder.decode(value, { stream: true });
            for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              if (block.includes('event: ready')) {
                live.ready++;
                live.readyAfterMs.push(Date.now() - opened);
              }
              if (block.includes('event: changed')) live.changed++;
            }
          }
          live.cut++;
        } catch {
          if (stopLive.signal.aborted) break;
          live.cut++;
        }
        await sleep(200);
      }
    };

    // Two open pages' streams, opened one after the other before any other request: round robin puts one on each API process.
    const streams: Promise<void>[] = [];
    for (const n of [1, 2]) {
      streams.push(follow());
      const deadline = Date.now() + 10_000;
      while (live.ready < n && Date.now() < deadline) await sleep(20);
      expect(live.ready, `live stream ${n} says it is ready`).toBe(n);
    }
    const load = [...streams, tagWriter(), tagWriter(), courseWriter(), loginWriter()];
    const writes = () => acked.tags.length + acked.renames.length + acked.courses.length + acked.logins.length;
    const until = async (what: string, condition: () => Promise<boolean> | boolean, ms = 30_000) => {
      const deadline = Date.now() + ms;
      while (!(await condition())) {
        if (Date.now() > deadline) {
          const logs = [...apis, ...jobs].map((p) => `--- ${p.role} ${p.pid}\n${p.output.join('').slice(-3000)}`).join('\n');
          throw new Error(`${what} within ${ms} ms\n${logs}\n--- haproxy\n${balancer.log.slice(-30).join('\n')}`);
        }
        await sleep(50);
      }
    };
    const moreWrites = async (count: number) => {
      const target = writes() + count;
      await until(`${count} more acknowledged writes`, () => writes() >= target);
    };
    const perApi = async (name: string, label: string, on = apis.filter((a) => a.alive)) => Promise.all(on.map((a) => metric(a.port, name, label)));

    await moreWrites(30);
    mark('load running');

    // What each part takes under this load (decision 0068): resident memory, and connections by process on each server.
    const connections = async (query: (sql: string) => Promise<{ rows: { pid: string; n: number }[] }>) =>
      new Map(
        (
          await query(
            `select split_part(application_name, ':', 2) as pid, count(*)::int as n from pg_stat_activity where application_name like 'medilearn%' group by 1`,
          )
        ).rows.map((r) => [Number(r.pid), r.n]),
      );
    const onPrimaryConnections = await connections((sql) => seed.db.pg.query(sql));
    const replicaProbe = new pg.Client({ connectionString: pair.replicaUrl });
    await replicaProbe.connect();
    const onReplicaConnections = await connections((sql) => replicaProbe.query(sql)).finally(() => replicaProbe.end());
    const footprint = [...apis, ...jobs]
      .map(
        (p) =>
          `${p.role} ${residentMb(p.pid)} MB, ${onPrimaryConnections.get(p.pid) ?? 0} connections to the primary, ${onReplicaConnections.get(p.pid) ?? 0} to the replica`,
      )
      .concat(`HAProxy ${residentMb(balancer.pid)} MB`);

    // 1. The replica dies: reads go to the primary without an error.
    const primaryReadsBefore = await perApi('db_reads_total', 'pool="primary"');
    await pair.replica.kill();
    mark('replica killed');
    await until('every API process sends reads to the primary', async () => (await perApi('db_replica_up', 'replica="1"')).every((up) => up === 0));
    const downSince = Date.now();
    await moreWrites(40);
    await sleep(Math.max(0, 2000 - (Date.now() - downSince)));
    const primaryReadsDuring = await perApi('db_reads_total', 'pool="primary"');
    for (const [i, n] of primaryReadsDuring.entries()) {
      expect(n, `api ${i + 1} read from the primary while the replica was down`).toBeGreaterThan(primaryReadsBefore[i] as number);
    }
    const fallbacksDown = await perApi('db_read_fallbacks_total', 'reason="down"');

    // 2. It starts again and catches up from its slot: reads return to it.
    const replicaReadsBefore = await perApi('db_reads_total', 'pool="replica-1"');
    await pair.replica.start();
    mark('replica started again');
    await until(
      'every API process reads from the replica again',
      async () => (await perApi('db_reads_total', 'pool="replica-1"')).every((n, i) => n >= (replicaReadsBefore[i] as number) + 5),
      30_000,
    );
    mark('reads back on the replica');
    const replicaReadsAfter = await perApi('db_reads_total', 'pool="replica-1"');

    // 3. The job process dies mid-export (held while storing the file, so it is surely mid-way), another one starts.
    const blocker = await seed.db.pg.connect();
    let exportId = 0;
    try {
      await blocker.query('begin');
      await blocker.query('lock table public.files in exclusive mode');
      const asked = await call('export', 'POST', '/api/exports', { token: adminToken, body: { kind: 'users', parameters: { companyId: 0, status: 'all' } } });
      expect(asked?.status, JSON.stringify(asked?.body)).toBe(202);
      exportId = (asked?.body as { id: number } | undefined)?.id ?? 0;
      const first = jobs[0] as PlatformProcess;
      await until('the job process is storing the export file', async () => {
        const waiting = await seed.db.pg.query(
          `select 1 from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock' and query like '%public.files%'`,
          [`medilearn:${first.pid}`],
        );
        return (waiting.rowCount ?? 0) > 0;
      });
      await killHard(first);
      mark('job process killed mid-export');
    } finally {
      await blocker.query('rollback').catch(() => undefined);
      blocker.release();
    }
    const secondJobs = await start('jobs');

    // 4. An API process dies under load (meanwhile the export waits for its job's heartbeat to lapse).
    const victim = apis[1] as PlatformProcess;
    apiKilledAt = Date.now();
    await killHard(victim);
    apiGoneAt = Date.now();
    mark('API process killed');
    const servers = async () => (await balancer.stats()).servers;
    await until('HAProxy takes the dead process out', async () => {
      const now = await servers();
      return now['api/api2'] === 'DOWN' && now['content/content2'] === 'DOWN';
    });
    mark('HAProxy routes around it');
    // The content origin (package code) is served by the survivor.
    for (let i = 0; i < 4; i++) await call('content origin', 'GET', '/health', { base: balancer.contentUrl });
    await moreWrites(20);
    // A new API process on the dead one's address: HAProxy puts it back once its health check answers.
    const replacement = await start('api', victim.port);
    await waitReady(replacement);
    await until('HAProxy takes the new process in', async () => {
      const now = await servers();
      return now['api/api2'] === 'UP' && now['content/content2'] === 'UP';
    });
    mark('new API process in the rotation');
    await waitReady(secondJobs);

    const exportItem = async () => {
      const answer = await call('exports', 'GET', '/api/exports', { token: adminToken });
      return ((answer?.body as { items?: { id: number; status: string; attempts: number }[] } | undefined)?.items ?? []).find((i) => i.id === exportId);
    };
    await until('the export finishes on the second job process', async () => (await exportItem())?.status === 'finished', 60_000);
    mark('export finished');
    await moreWrites(10);

    loading = false;
    stopLive.abort();
    await Promise.all(load);
    mark('load stopped');

    // Every read model has applied every event, on the primary and then on the replica.
    const names = PROJECTIONS.map((p) => p.name);
    const behind = async () =>
      (
        await seed.db.pg.query<{ behind: number }>(
          `with head as (select transaction_id::text::bigint as c, global_position as p from es.events order by transaction_id desc, global_position desc limit 1)
           select count(*)::int as behind from projections.generations g, head
            where g.status = 'active' and g.name = any($1::text[]) and (g.checkpoint_commit, g.checkpoint_prepare) < (head.c, head.p)`,
          [names],
        )
      ).rows[0]?.behind;
    await until('every read model catches up', async () => (await behind()) === 0);
    await pair.replica.caughtUp();

    // Answers: only writes in flight on the killed API process may have gone unanswered, and nothing else failed. Unanswered is
    // a 502, or on a kept-alive connection HAProxy's close without an answer (as the process's own close would be; 0 here).
    const inFlightAtKill = (c: Call) => c.method !== 'GET' && c.startedAt <= apiGoneAt && c.endedAt >= apiKilledAt && [0, 502, 503].includes(c.status);
    const exportEvents = (await seed.store.readStream(`export-${exportId}`)).events.map((e) => e.type);
    const stats = await balancer.stats();
    const balancerTrouble = balancer.log.filter((line) => !/ 20[0-9] \d+ - - ----/.test(line) && !line.includes('stats/<STATS>'));
    const unanswered = calls.filter(inFlightAtKill);
    const reads = calls.filter((c) => c.method === 'GET').length;
    process.stdout.write(
      [
        `deployment scale test (${((Date.now() - began) / 1000).toFixed(1)} s, API process killed at +${apiKilledAt - began} ms): ${calls.length} answers through HAProxy (${reads} reads), ` +
          `acknowledged ${acked.tags.length} tags, ${acked.renames.length} renames, ${acked.courses.length} courses, ${acked.logins.length} logins`,
        `  writes in flight on the killed API process left unanswered: ${unanswered.map((c) => `${c.what} ${c.status || 'closed'}`).join(', ') || 'none'}; HAProxy retries ${stats.retries}, redispatches ${stats.redispatches}`,
        `  replica down: reads from the primary per API process ${primaryReadsBefore.join('/')} -> ${primaryReadsDuring.join('/')}, fallbacks 'down' ${fallbacksDown.join('/')}`,
        `  replica back: reads from it per API process ${replicaReadsBefore.join('/')} -> ${replicaReadsAfter.join('/')}`,
        `  footprint under load: ${footprint.join('; ')}`,
        `  live stream: ${live.connects} connections, ${live.ready} ready, ${live.changed} changes, ${live.cut} cut; first event after ${live.readyAfterMs.join('/')} ms`,
        `  export ${exportId}: ${exportEvents.join(', ')}`,
        `  HAProxy lines other than 2xx: ${balancerTrouble.length}${balancerTrouble.map((line) => `\n    ${line}`).join('')}`,
        `  timeline (s): ${Object.entries(timings)
          .map(([k, v]) => `${k} ${v}`)
          .join('; ')}`,
        '',
      ].join('\n'),
    );
    const failed = calls.filter((c) => (c.status < 200 || c.status >= 300) && !inFlightAtKill(c));
    expect(failed.map((c) => `${c.what} ${c.method} ${c.status} at +${c.startedAt - began} ms: ${c.detail}`)).toEqual([]);
    expect(stale).toEqual([]);

    // Every acknowledged command is in the event store exactly once (found by the names and sessions the test made).
    const count = async (sql: string, keys: string[]) => {
      const rows = await seed.db.pg.query<{ key: string; n: number }>(sql, [keys]);
      return new Map(rows.rows.map((r) => [r.key, r.n]));
    };
    const once = (counts: Map<string, number>, keys: string[]) => keys.filter((k) => counts.get(k) !== 1).map((k) => `${k}: ${counts.get(k) ?? 0}`);
    const tagNames = acked.tags.map((t) => t.name);
    const renameNames = acked.renames.map((t) => t.name);
    const titles = acked.courses.map((c) => c.title);
    expect(
      once(
        await count(
          `select data->>'name' as key, count(*)::int as n from es.events where event_type = 'TagCreated' and data->>'name' = any($1) group by 1`,
          tagNames,
        ),
        tagNames,
      ),
    ).toEqual([]);
    expect(
      once(
        await count(
          `select data->>'name' as key, count(*)::int as n from es.events where event_type = 'TagUpdated' and data->>'name' = any($1) group by 1`,
          renameNames,
        ),
        renameNames,
      ),
    ).toEqual([]);
    expect(
      once(
        await count(
          `select data->'fields'->>'title' as key, count(*)::int as n from es.events where event_type = 'CourseCreated' and data->'fields'->>'title' = any($1) group by 1`,
          titles,
        ),
        titles,
      ),
    ).toEqual([]);
    expect(
      once(
        await count(
          `select data->>'sessionId' as key, count(*)::int as n from es.events where event_type = 'UserLoggedIn' and data->>'sessionId' = any($1) group by 1`,
          acked.logins,
        ),
        acked.logins,
      ),
    ).toEqual([]);
    // And in the read models.
    const tagRows = await seed.db.pg.query<{ id: number }>('select id from rm.tags where id = any($1::int[])', [acked.tags.map((t) => t.id)]);
    expect(tagRows.rowCount).toBe(acked.tags.length);

    // The export finished once, on its second attempt.
    expect(await exportItem()).toMatchObject({ status: 'finished', attempts: 2 });
    expect(exportEvents.filter((t) => t === 'ExportStarted')).toHaveLength(2);
    expect(exportEvents.filter((t) => t === 'ExportFinished')).toHaveLength(1);
    const job = await seed.db.pg.query(`select state from pgboss.job where name = $1 and (data->>'exportId')::int = $2`, [EXPORT_QUEUE, exportId]);
    expect(job.rows).toEqual([{ state: 'completed' }]);

    // Server-sent events passed through the balancer as they were written, and the stream came back after its process died.
    expect(live.refused).toEqual([]);
    expect(live.ready).toBe(live.connects);
    // The stream on the killed process was cut and opened again on the other one.
    expect(live.cut).toBeGreaterThanOrEqual(1);
    expect(live.connects).toBeGreaterThanOrEqual(3);
    expect(live.changed).toBeGreaterThan(0);
    expect(Math.max(...live.readyAfterMs)).toBeLessThan(5000);

    // The replica's read models equal the primary's, and those equal a full rebuild from the log.
    const snapshot = async (query: (sql: string) => Promise<{ rows: { rows: unknown }[] }>) => {
      const tables: Record<string, unknown> = {};
      for (const projection of PROJECTIONS) {
        for (const table of projection.tables) {
          const result = await query(`select coalesce(jsonb_agg(to_jsonb(x) order by to_jsonb(x)::text), '[]'::jsonb) as rows from rm."${table}" x`);
          tables[`${projection.name}.${table}`] = result.rows[0]?.rows;
        }
      }
      return tables;
    };
    const onPrimary = (sql: string) => seed.db.pg.query<{ rows: unknown }>(sql);
    const live1 = await snapshot(onPrimary);
    const replicaClient = new pg.Client({ connectionString: pair.replicaUrl });
    await replicaClient.connect();
    try {
      const onReplica = await snapshot((sql) => replicaClient.query<{ rows: unknown }>(sql));
      for (const key of Object.keys(live1)) expect(onReplica[key], `replica ${key}`).toEqual(live1[key]);
    } finally {
      await replicaClient.end();
    }
    const rebuilder = createProjectionRunner({ db: seed.db, store: seed.store, projections: PROJECTIONS, log: silentLog, lagLogIntervalMs: 0 });
    try {
      for (const projection of PROJECTIONS) await rebuilder.rebuild(projection.name);
    } finally {
      await rebuilder.stop();
    }
    const rebuilt = await snapshot(onPrimary);
    for (const key of Object.keys(live1)) expect(rebuilt[key], key).toEqual(live1[key]);
    mark('checked');
    process.stdout.write(`deployment scale test: all checks passed after ${((Date.now() - began) / 1000).toFixed(1)} s (${JSON.stringify(timings)})\n`);
  }, 240_000);
});
