import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_QUEUE } from '../../application/exports/export.job.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

/**
 * Issue 37 item 2 (decision 0066): an api process (`PROCESS_ROLE=api`) and job processes
 * (`PROCESS_ROLE=jobs`), real `node infrastructure/main/main.ts` processes on one PostgreSQL.
 * An export asked through the api process waits in its queue while only the api process runs (it
 * sends jobs, never works them); a job process computes it. That job process is SIGKILLed with the
 * export half done (held up while storing its file), and the api process still does not take the
 * job; another job process runs it again once it falls silent (heartbeat 10 s, monitor every second),
 * and the export finishes once, on its second attempt.
 */
const MAIN = join(import.meta.dirname, '..', '..', 'infrastructure', 'main', 'main.ts');

type Role = 'api' | 'jobs';
type Child = { child: ChildProcess; role: Role; port: number; pid: number; output: string[] };
type Item = { id: number; status: string; attempts: number; rows: number | null };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

describe('an api process and job processes on one PostgreSQL', () => {
  let seed: TestPlatform;
  let dataDir: string;
  let token: string;
  let position: string | null = null;
  const children: Child[] = [];

  const start = async (role: Role): Promise<Child> => {
    const port = await freePort();
    const env: Record<string, string | undefined> = {
      ...process.env,
      PROCESS_ROLE: role,
      DATABASE_URL: seed.db.connectionString,
      PORT: String(port),
      CONTENT_PORT: '0',
      HOST: '127.0.0.1',
      DEMO_DATA: 'false',
      DATA_DIR: dataDir,
      UI_DIST_DIR: '/nonexistent',
      LOG_LEVEL: 'info',
      DATABASE_POOL_SIZE: '4',
      READ_WAIT_MS: '8000',
      // A dead process's export runs again within seconds (decision 0066), not the default minute and a half.
      JOB_HEARTBEAT_SECONDS: '10',
      JOB_MONITOR_INTERVAL_SECONDS: '1',
    };
    delete env.API_PROCESSES;
    delete env.JOB_PROCESSES;
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: string[] = [];
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const started = { child, role, port, pid: child.pid as number, output };
    children.push(started);
    return started;
  };

  /** An api process answers its health check; a job process, which listens on nothing, says it works the queues. */
  const ready = async (p: Child) => {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (p.child.exitCode !== null) throw new Error(`${p.role} process ${p.pid} ended at start:\n${p.output.join('')}`);
      if (p.role === 'jobs' && p.output.join('').includes('is working the queues')) return;
      if (
        p.role === 'api' &&
        (await fetch(`http://127.0.0.1:${p.port}/api/health`).then(
          (r) => r.ok,
          () => false,
        ))
      )
        return;
      await sleep(100);
    }
    throw new Error(`${p.role} process ${p.pid} is not ready:\n${p.output.join('')}`);
  };

  const call = async (api: Child, method: 'GET' | 'POST', url: string, body?: object) => {
    const response = await fetch(`http://127.0.0.1:${api.port}${url}`, {
      method,
      headers: {
        authorization: `JWT ${token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(position ? { 'x-min-position': position } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    position = response.headers.get('x-event-position') ?? position;
    return response;
  };
  const item = async (api: Child, id: number) =>
    ((await (await call(api, 'GET', '/api/exports')).json()) as { items: Item[] }).items.find((i) => i.id === id) as Item;
  const job = async (exportId: number) =>
    (
      await seed.db.pg.query<{ state: string; retry_count: number }>(
        `select state, retry_count from pgboss.job where name = $1 and (data->>'exportId')::int = $2`,
        [EXPORT_QUEUE, exportId],
      )
    ).rows;
  const waitUntil = async (what: string, check: () => Promise<boolean>, seconds: number) => {
    const deadline = Date.now() + seconds * 1000;
    while (!(await check())) {
      if (Date.now() > deadline)
        throw new Error(`${what} within ${seconds} s\n${children.map((c) => `--- ${c.role} ${c.pid}\n${c.output.join('')}`).join('\n')}`);
      await sleep(200);
    }
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'medilearn-roles-'));
    seed = await startTestPlatform();
    await seed.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    for (const name of ['prva', 'druga']) await seed.createUser(name, [{ roleId: ROLE.participant, unitId: 1, companyId: null }]);
    token = (await seed.login('skrbnik')).token;
    // The seeding runner leaves: the api process applies the projections and runs the reactors.
    await seed.runner.stop();
  }, 120_000);

  afterAll(async () => {
    for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
    await seed?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('an export asked through the api process is computed by a job process, and by another after the first is SIGKILLed mid-export', async () => {
    const api = await start('api');
    await ready(api);
    // A balancer's metrics scrape says which kind of process answered.
    expect(await (await fetch(`http://127.0.0.1:${api.port}/api/metrics`)).text()).toMatch(/^process_role\{role="api"\} 1$/m);

    // Only the api process runs: its reactor queues the export's job, and nothing works it.
    const asked = await call(api, 'POST', '/api/exports', { kind: 'users', parameters: { companyId: 0, status: 'all' } });
    expect(asked.status, await asked.clone().text()).toBe(202);
    const id = ((await asked.json()) as { id: number }).id;
    await waitUntil('the api process queues the export job', async () => (await job(id)).length === 1, 15);
    await sleep(3000);
    expect(await job(id)).toEqual([{ state: 'created', retry_count: 0 }]);
    expect(await item(api, id)).toMatchObject({ status: 'initiated', attempts: 0 });
    // Storing export files is held up: the job process's export stops halfway, in its INSERT.
    const blocker: pg.PoolClient = await seed.db.pg.connect();
    let first: Child;
    try {
      await blocker.query('begin');
      await blocker.query('lock table public.files in exclusive mode');
      first = await start('jobs');
      await ready(first);
      await waitUntil(
        'the first job process is storing the file',
        async () =>
          ((
            await seed.db.pg.query(
              `select 1 from pg_stat_activity where datname = current_database() and application_name = $1 and wait_event_type = 'Lock' and query like '%public.files%'`,
              [`medilearn:${first.pid}`],
            )
          ).rowCount ?? 0) > 0,
        30,
      );
      // The job process's ExportStarted reaches the api process's read model through its projection,
      // a moment after the job process appended it (the api's own position cannot name it).
      await waitUntil('the api process shows the export computing', async () => (await item(api, id)).status === 'computing', 15);
      expect(await item(api, id)).toMatchObject({ status: 'computing', attempts: 1 });
      expect(await job(id)).toEqual([{ state: 'active', retry_count: 0 }]);
      // pg-boss's connections name their process and whether it works jobs: the api process's never do.
      const bossConnections = await seed.db.pg.query<{ application_name: string }>(
        `select distinct application_name from pg_stat_activity where datname = current_database() and application_name like 'medilearn-jobs:%'`,
      );
      const named = bossConnections.rows.map((r) => r.application_name);
      expect(named).toContain(`medilearn-jobs:${first.pid}:work`);
      expect(named.filter((name) => name.startsWith(`medilearn-jobs:${api.pid}:`) && !name.endsWith(':send'))).toEqual([]);
      first.child.kill('SIGKILL');
      await new Promise((resolve) => first.child.once('exit', resolve));
    } finally {
      await blocker.query('rollback').catch(() => undefined);
      blocker.release();
    }

    // The api process keeps running and still does not take the job.
    await sleep(2000);
    expect(await item(api, id)).toMatchObject({ status: 'computing', attempts: 1 });
    expect((await job(id))[0]?.state).toBe('active');

    // Another job process: once the first one's job has fallen silent, it runs the export again.
    const second = await start('jobs');
    await ready(second);
    await waitUntil('the export finishes', async () => (await item(api, id)).status !== 'computing', 45);
    expect(await item(api, id)).toMatchObject({ status: 'finished', attempts: 2, rows: 3 });
    expect(await job(id)).toEqual([{ state: 'completed', retry_count: 1 }]);
    const file = await call(api, 'GET', `/api/exports/${id}/file`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('spreadsheetml');
    const events = (await seed.store.readStream(`export-${id}`)).events.map((e) => e.type);
    expect(events.filter((type) => type === 'ExportStarted')).toHaveLength(2);
    expect(events.filter((type) => type === 'ExportFinished')).toHaveLength(1);
    for (const c of [api, second]) c.child.kill('SIGKILL');
    // A SIGKILLed process's backends end when PostgreSQL reads the closed socket: wait, so the next
    // test counts only its own processes' connections.
    await waitUntil(
      'the killed processes leave PostgreSQL',
      async () =>
        ((
          await seed.db.pg.query(`select 1 from pg_stat_activity where datname = current_database() and application_name like any($1)`, [
            children.flatMap((c) => [`medilearn:${c.pid}%`, `medilearn-jobs:${c.pid}:%`]),
          ])
        ).rowCount ?? 0) === 0,
      30,
    );
  }, 120_000);

  /** `API_PROCESSES=1 JOB_PROCESSES=1 npm start` on a free port, its output collected (and stopped after the test). */
  const startSupervisor = async (extra: Record<string, string>) => {
    const port = await freePort();
    const env: Record<string, string | undefined> = {
      ...process.env,
      API_PROCESSES: '1',
      JOB_PROCESSES: '1',
      ...extra,
      DATABASE_URL: seed.db.connectionString,
      PORT: String(port),
      CONTENT_PORT: '0',
      HOST: '127.0.0.1',
      DEMO_DATA: 'false',
      DATA_DIR: dataDir,
      UI_DIST_DIR: '/nonexistent',
      LOG_LEVEL: 'info',
      DATABASE_POOL_SIZE: '4',
    };
    delete env.PROCESS_ROLE;
    const supervisor = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: string[] = [];
    supervisor.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    supervisor.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    children.push({ child: supervisor, role: 'api', port, pid: supervisor.pid as number, output });
    return { port, supervisor, output };
  };

  it('API_PROCESSES=1 JOB_PROCESSES=1 npm start: the supervisor forks one of each (pg-boss workers only in the job process), a killed job process is replaced while the api process serves on', async () => {
    const { port, supervisor, output } = await startSupervisor({});
    /** The job processes' pids, from their "working the queues" lines. */
    const jobPids = () =>
      output
        .join('')
        .split('\n')
        .filter((line) => line.includes('job process is working the queues'))
        .map((line) => (JSON.parse(line) as { pid: number }).pid);

    await waitUntil('the supervisor says every process is ready', async () => output.join('').includes('1 job process work the queues'), 60);
    expect(output.join('')).toContain(`1 API process serve http://localhost:${port}`);
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
    const [jobPid] = jobPids();
    expect(jobPid).toBeGreaterThan(0);
    // The job process holds pg-boss workers; the api process at most a sender.
    const named = (
      await seed.db.pg.query<{ application_name: string }>(
        `select distinct application_name from pg_stat_activity where datname = current_database() and application_name like 'medilearn-jobs:%:work'`,
      )
    ).rows.map((r) => r.application_name);
    expect(named).toEqual([`medilearn-jobs:${jobPid}:work`]);

    process.kill(jobPid as number, 'SIGKILL');
    await waitUntil('another job process takes its place', async () => jobPids().length === 2, 45);
    expect(jobPids()[1]).not.toBe(jobPid);
    expect(output.join('')).toMatch(/"role":"jobs".*job process ended; starting another/);
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);

    supervisor.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => supervisor.once('exit', (exit) => resolve(exit)));
    expect(code, output.join('')).toBe(0);
  }, 120_000);

  it('a job process that keeps ending is started again later and later, and the api process serves on', async () => {
    // Back-off doubling from 1 s, here capped at 2 s so that seven ends take seconds, not minutes.
    const { port, supervisor, output } = await startSupervisor({ JOB_RESTART_MAX_DELAY_MS: '2000' });
    /** The supervisor's children of a role, by the PROCESS_ROLE it forked them with. */
    const forked = (role: Role) =>
      execFileSync('ps', ['-o', 'pid=', '--ppid', String(supervisor.pid)], { encoding: 'utf8' })
        .split('\n')
        .map(Number)
        .filter((pid) => {
          try {
            return pid > 0 && readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`PROCESS_ROLE=${role}`);
          } catch {
            return false;
          }
        });
    const log = () => output.join('');
    await waitUntil('the supervisor says every process is ready', async () => log().includes('1 job process work the queues'), 60);
    const [api] = forked('api');
    expect(api).toBeGreaterThan(0);

    // Seven job processes in a row, each killed as soon as it is forked: a crash loop (more than five ends in a minute).
    const killed = new Set<number>();
    for (let i = 0; i < 7; i++) {
      let pid = 0;
      await waitUntil(
        `job process ${i + 1} forked`,
        async () => {
          if (supervisor.exitCode !== null) throw new Error(`the supervisor ended:\n${log()}`);
          pid = forked('jobs').find((p) => !killed.has(p)) ?? 0;
          return pid > 0;
        },
        15,
      );
      killed.add(pid);
      process.kill(pid, 'SIGKILL');
    }
    const delays = () =>
      log()
        .split('\n')
        .filter((line) => line.includes('job process ended; starting another'))
        .map((line) => (JSON.parse(line) as { delayMs: number }).delayMs);
    await waitUntil('the seventh end logged', async () => delays().length === 7, 10);
    expect(delays()).toEqual([1000, 2000, 2000, 2000, 2000, 2000, 2000]);
    // The supervisor and its api process (the same one) are still there, serving.
    expect(supervisor.exitCode).toBeNull();
    expect(forked('api')).toEqual([api]);
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
    // Left alone, the next job process starts and works the queues.
    const readyBefore = log().split('job process is working the queues').length;
    await waitUntil('a job process works the queues again', async () => log().split('job process is working the queues').length > readyBefore, 45);

    supervisor.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => supervisor.once('exit', (exit) => resolve(exit)));
    expect(code, log()).toBe(0);
  }, 120_000);
});
