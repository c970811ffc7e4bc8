import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tagStream } from '../../domain/organisation/tag.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { PROJECTIONS } from '../../infrastructure/main/platform.ts';
import { projectionLockKey } from '../../infrastructure/projections/projection-lease.ts';
import { createProjectionRunner } from '../../infrastructure/projections/projection-runner.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

/**
 * Issue 19 item 5 (decision 0035): three real API processes (`node infrastructure/main/main.ts`, as
 * `npm start` runs each) on one PostgreSQL, under write load through HTTP. The process holding the
 * organisation projection's lock is SIGKILLed while one of its batches is open; writing goes on
 * through the survivors. Then: every command answered 2xx is in the event store and in the read
 * model, every read through another process saw its write (X-Min-Position), the locks moved to
 * survivors, and every read model equals a full rebuild from the log.
 */
const MAIN = join(import.meta.dirname, '..', '..', 'infrastructure', 'main', 'main.ts');
const WRITERS = 4;

type ApiProcess = { child: ChildProcess; port: number; pid: number; alive: boolean; output: string[] };
type Written = { id: number; name: string; position: string; via: number };

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

describe('three API processes on one PostgreSQL', () => {
  let seed: TestPlatform;
  let dataDir: string;
  let token: string;
  const processes: ApiProcess[] = [];

  const startProcess = async (): Promise<ApiProcess> => {
    const port = await freePort();
    const env: Record<string, string | undefined> = {
      ...process.env,
      DATABASE_URL: seed.db.connectionString,
      PORT: String(port),
      // The content origin (issue 35) on a port of the system's choosing: PORT + 1 may be another process's PORT.
      CONTENT_PORT: '0',
      HOST: '127.0.0.1',
      DEMO_DATA: 'false',
      DATA_DIR: dataDir,
      UI_DIST_DIR: '/nonexistent',
      LOG_LEVEL: 'warn',
      DATABASE_POOL_SIZE: '6',
      // A read may have to wait for a projection's lock to move (standby poll) and the catch-up after it.
      READ_WAIT_MS: '8000',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      AUTH_ADDRESS_RATE_LIMIT_PER_MINUTE: '100000',
    };
    delete env.API_PROCESSES;
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: string[] = [];
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    return { child, port, pid: child.pid as number, alive: true, output };
  };

  const waitHealthy = async (p: ApiProcess) => {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (p.child.exitCode !== null) throw new Error(`API process ${p.pid} ended at start:\n${p.output.join('')}`);
      const ok = await fetch(`http://127.0.0.1:${p.port}/api/health`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) return;
      await sleep(100);
    }
    throw new Error(`API process ${p.pid} did not answer:\n${p.output.join('')}`);
  };

  /** The node pid of the process whose lock connection holds each projection's active generation. */
  const lockHolders = async (): Promise<Map<string, number | null>> => {
    const names = PROJECTIONS.map((p) => p.name);
    const result = await seed.db.pg.query<{ name: string; application_name: string | null }>(
      `select r.name, a.application_name
         from unnest($1::text[], $2::bigint[]) as k(name, key)
         join projections.registry r on r.name = k.name
         left join pg_locks l on l.locktype = 'advisory' and l.granted and l.objsubid = 2
                              and l.classid::bigint = k.key and l.objid::bigint = r.active_generation
                              and l.database = (select oid from pg_database where datname = current_database())
         left join pg_stat_activity a on a.pid = l.pid`,
      [names, names.map((name) => projectionLockKey(name) >>> 0)],
    );
    return new Map(result.rows.map((row) => [row.name, row.application_name ? Number(row.application_name.split(':')[1]) : null]));
  };

  /** Every row of every read model, each table's rows in a fixed order. */
  const snapshot = async () => {
    const tables: Record<string, unknown> = {};
    for (const projection of PROJECTIONS) {
      for (const table of projection.tables) {
        const rows = await seed.db.pg.query<{ rows: unknown }>(
          `select coalesce(jsonb_agg(to_jsonb(x) order by to_jsonb(x)::text), '[]'::jsonb) as rows from rm."${table}" x`,
        );
        tables[`${projection.name}.${table}`] = rows.rows[0]?.rows;
      }
    }
    return tables;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'medilearn-multi-'));
    seed = await startTestPlatform();
    await seed.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    token = (await seed.login('skrbnik')).token;
    // The seeding runner leaves: from here on only the three API processes apply projections.
    await seed.runner.stop();
    for (let i = 0; i < 3; i++) processes.push(await startProcess());
    await Promise.all(processes.map(waitHealthy));
  }, 120_000);

  afterAll(async () => {
    for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await seed?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('loses no acknowledged command and ends equal to a full rebuild when the projection holder is SIGKILLed mid-batch', async () => {
    const headers = { authorization: `JWT ${token}`, 'content-type': 'application/json' };
    const written: Written[] = [];
    const staleReads: string[] = [];
    const refused: string[] = [];
    let writing = true;
    let sequence = 0;

    const writer = async () => {
      while (writing) {
        const alive = processes.filter((p) => p.alive);
        const n = sequence++;
        const via = alive[n % alive.length] as ApiProcess;
        const name = `Oznaka ${n}`;
        try {
          const response = await fetch(`http://127.0.0.1:${via.port}/api/tags`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ kind: ['unit', 'company', 'course'][n % 3], name }),
          });
          if (response.status !== 201) {
            refused.push(`${response.status} ${await response.text()}`);
            continue;
          }
          const id = ((await response.json()) as { id: number }).id;
          const position = response.headers.get('x-event-position') as string;
          written.push({ id, name, position, via: via.pid });
          // Read-your-writes through another process, which may well run no projection at all.
          const reader = alive[(n + 1) % alive.length] as ApiProcess;
          const read = await fetch(`http://127.0.0.1:${reader.port}/api/tags/${id}`, { headers: { ...headers, 'x-min-position': position } }).catch(() => null);
          if (read && (read.status !== 200 || read.headers.get('x-read-stale'))) staleReads.push(`tag ${id} via ${reader.pid}: ${read.status}`);
          else if (!read && reader.alive) staleReads.push(`tag ${id} via ${reader.pid}: no answer`);
        } catch (error) {
          // The process was killed under this request: no 2xx, so nothing is owed.
          if (via.alive) refused.push(`${via.pid}: ${(error as Error).message}`);
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, writer);

    while (written.length < 40) await sleep(50);
    const before = await lockHolders();
    const holderPid = before.get('organisation');
    const victim = processes.find((p) => p.pid === holderPid);
    expect(victim, `organisation lock holder ${holderPid} is one of the API processes`).toBeDefined();
    if (!victim) return;

    // Wait for one of its projection batches to be open (a transaction on the registry, a read model or a checkpoint), then kill.
    const watcher = await seed.db.pg.connect();
    let midBatch = false;
    try {
      const deadline = Date.now() + 20_000;
      while (!midBatch && Date.now() < deadline) {
        const open = await watcher.query(
          `select 1 from pg_stat_activity
            where application_name = $1 and xact_start is not null and state in ('active', 'idle in transaction')
              and (query like '%projections.registry%for share%' or query like '%"rm\\_%' or query like '%update projections.generations%')`,
          [`medilearn:${victim.pid}`],
        );
        if (open.rowCount && open.rowCount > 0) midBatch = true;
      }
      victim.alive = false;
      victim.child.kill('SIGKILL');
    } finally {
      watcher.release();
    }
    expect(midBatch, 'caught the holder with a projection batch open').toBe(true);
    const writtenAtKill = written.length;

    // Writing goes on through the survivors.
    const until = Date.now() + 15_000;
    while (written.length < writtenAtKill + 40 && Date.now() < until) await sleep(50);
    writing = false;
    await Promise.all(writers);
    expect(written.length).toBeGreaterThanOrEqual(writtenAtKill + 40);
    expect(written.filter((w) => w.via !== victim.pid).length).toBeGreaterThan(0);

    // Catch-up: every read model's checkpoint reaches the head of the log.
    const names = PROJECTIONS.map((p) => p.name);
    const caughtUp = async () => {
      const result = await seed.db.pg.query<{ behind: number }>(
        `with head as (select transaction_id::text::bigint as c, global_position as p from es.events order by transaction_id desc, global_position desc limit 1)
         select count(*)::int as behind from projections.generations g, head
          where g.status = 'active' and g.name = any($1::text[]) and (g.checkpoint_commit, g.checkpoint_prepare) < (head.c, head.p)`,
        [names],
      );
      return result.rows[0]?.behind === 0;
    };
    const deadline = Date.now() + 30_000;
    while (!(await caughtUp()) && Date.now() < deadline) await sleep(100);
    expect(await caughtUp()).toBe(true);

    // The locks moved: every projection is held, and by a survivor.
    const survivors = new Set(processes.filter((p) => p.alive).map((p) => p.pid));
    let after = await lockHolders();
    for (let i = 0; i < 100 && ![...after.values()].every((pid) => pid !== null && survivors.has(pid)); i++) {
      await sleep(100);
      after = await lockHolders();
    }
    expect(Object.fromEntries([...after].filter(([, pid]) => pid === null || !survivors.has(pid)))).toEqual({});

    // No acknowledged command is lost: each is in the log and in the read model; every read saw its write.
    expect(staleReads).toEqual([]);
    expect(refused.filter((r) => !r.startsWith(`${victim.pid}:`))).toEqual([]);
    for (const w of written) {
      const stream = await seed.store.readStream(tagStream(w.id));
      expect(
        stream.events.map((e) => e.type),
        `tag ${w.id}`,
      ).toEqual(['TagCreated']);
    }
    const rows = await seed.db.pg.query<{ id: number; name: string }>('select id, name from rm.tags where id = any($1::int[])', [written.map((w) => w.id)]);
    expect(new Map(rows.rows.map((r) => [r.id, r.name]))).toEqual(new Map(written.map((w) => [w.id, w.name])));

    const moved = [...before].filter(([name, pid]) => pid === victim.pid && after.get(name) !== victim.pid).map(([name]) => name);
    process.stdout.write(
      `multi-process: ${written.length} tags acknowledged (${writtenAtKill} before the kill), killed ${victim.pid} mid-batch holding ${moved.length} projections (${moved.join(', ')}), now held by ${[...new Set(moved.map((name) => after.get(name)))].join(', ')}\n`,
    );

    // The read models equal a full rebuild from position zero (blue/green, while the survivors run).
    const live = await snapshot();
    const rebuilder = createProjectionRunner({ db: seed.db, store: seed.store, projections: PROJECTIONS, log: silentLog, lagLogIntervalMs: 0 });
    try {
      for (const projection of PROJECTIONS) await rebuilder.rebuild(projection.name);
    } finally {
      await rebuilder.stop();
    }
    const rebuilt = await snapshot();
    for (const key of Object.keys(live)) expect(rebuilt[key], key).toEqual(live[key]);
  }, 150_000);
});
