// Reads on a streaming replica (issue 37 item 4): reads/s of one API process and of two on the
// replica, and the replica's lag under a steady write load, each beside a plain baseline in the same
// run. `npm run bench -- replica`. Its parts: the closed-loop client (replica-closed-load.ts), the
// plain baseline's process (replica-plain-process.ts), the lag measure (replica-lag.ts) and its tables (replica-report.ts).

import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createJwtSessionTokens } from '../../infrastructure/auth/jwt-session-tokens.ts';
import { createEventCodec } from '../../infrastructure/event-store/event-codec.ts';
import type { AllPosition } from '../../infrastructure/event-store/event-store.port.ts';
import { createPostgresEventStore } from '../../infrastructure/event-store/postgres/postgres-event-store.ts';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { EVENT_DEFINITIONS } from '../../infrastructure/main/event-definitions.ts';
import { PROJECTIONS } from '../../infrastructure/main/platform.ts';
import { openDatabase } from '../../infrastructure/postgres/database.ts';
import { createProjectionRunner } from '../../infrastructure/projections/projection-runner.ts';
import { type PlatformProcess, startPlatformProcess, stopChild, stopGently, waitReady } from '../scale/deployment-harness.ts';
import { freePort, type ReplicaPair, startReplicaPair } from '../support/replica-pair.ts';
import { seconds } from './bench-support.ts';
import { load, type Request } from './courses-load.ts';
import { type Participant, random, type SeedCourse, type SeedSizes, shuffled } from './courses-seed.ts';
import { ADMIN_ID, seedStore } from './courses-seed-store.ts';
import { checkCourseListsAgree } from './courses-traffic.ts';
import { closedLoad } from './replica-closed-load.ts';
import { measureLag, sampleReplayLag, type Written } from './replica-lag.ts';
import { type Lags, reportReplica } from './replica-report.ts';

const knob = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

/** A plain baseline process (replica-plain-process.ts) on the replica; resolves once it listens. */
const startPlainProcess = async (readUrl: string) => {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', join(import.meta.dirname, 'replica-plain-process.ts')], {
    env: { ...process.env, DATABASE_READ_URL: readUrl, DATABASE_POOL_SIZE: '10' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const line = output.split('\n')[0] as string;
      if (output.includes('\n')) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`plain process exited with ${code}: ${output}`)));
  });
  return { port, pid: child.pid as number, child };
};

/** CPU seconds a process has used so far (/proc/<pid>/stat utime + stime); null once it is gone. */
const cpuSeconds = async (pid: number) => {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat === null) return null;
  const fields = stat.replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

/** Cores the processes `pids` used between two readings (a process gone at either reading is left out). */
const coresBetween = (pids: number[], before: (number | null)[], after: (number | null)[], seconds: number) =>
  pids.reduce((sum, _, i) => sum + (before[i] != null && after[i] != null ? (after[i] as number) - (before[i] as number) : 0), 0) / seconds;

/**
 * Runs `phase` and answers, beside its result, how many cores the servers under test (`pids`) and
 * the replica's PostgreSQL (every process pg_stat_activity lists: backends, WAL receiver, startup
 * process that replays) used during it: where the machine's two cores went.
 */
const withCores = async <T>(pids: number[], replica: pg.Client, phase: () => Promise<T>): Promise<[T, { servers: number; replica: number }]> => {
  const replicaPids = (await replica.query<{ pid: number }>('select pid from pg_stat_activity')).rows.map((r) => r.pid);
  const [before, replicaBefore] = [await Promise.all(pids.map(cpuSeconds)), await Promise.all(replicaPids.map(cpuSeconds))];
  const started = performance.now();
  const result = await phase();
  const [after, replicaAfter] = [await Promise.all(pids.map(cpuSeconds)), await Promise.all(replicaPids.map(cpuSeconds))];
  const elapsed = (performance.now() - started) / 1000;
  return [result, { servers: coresBetween(pids, before, after, elapsed), replica: coresBetween(replicaPids, replicaBefore, replicaAfter, elapsed) }];
};

/** Reads served by each pool and reads moved to the primary, from an API process's /api/metrics. */
const readPools = async (port: number) => {
  const text = await fetch(`http://127.0.0.1:${port}/api/metrics`).then((r) => r.text());
  const sum = (prefix: string) =>
    text
      .split('\n')
      .filter((l) => l.startsWith(prefix))
      .reduce((n, l) => n + Number(l.split(' ').at(-1)), 0);
  return { replica: sum('db_reads_total{pool="replica-'), primary: sum('db_reads_total{pool="primary"}'), fallbacks: sum('db_read_fallbacks_total{') };
};

/**
 * The participants' two main reads, the course list and a course page, alternately, for random
 * participants among `users`: the same picks as platform routes and as the plain baseline's.
 */
const courseReads = (seen: Map<number, SeedCourse[]>, users: readonly Participant[], tokens: Map<number, string>, count: number) => {
  const rnd = random(1234);
  const picks = Array.from({ length: count }, (_, i) => {
    const p = users[Math.floor(rnd() * users.length)] as Participant;
    const courses = seen.get(p.id) as SeedCourse[];
    return { p, course: (courses[Math.floor(rnd() * courses.length)] as SeedCourse).id, list: i % 2 === 0 };
  });
  return {
    platform: picks.map(
      ({ p, course, list }): Request => ({
        label: list ? 'list' : 'page',
        path: list ? '/api/user-courses' : `/api/user-courses/${course}`,
        token: tokens.get(p.id) as string,
      }),
    ),
    plain: picks.map(
      ({ p, course, list }): Request => ({
        label: list ? 'list' : 'page',
        path: list ? `/plain/user-courses/${p.id}` : `/plain/user-courses/${p.id}/${course}`,
        token: null,
      }),
    ),
  };
};

/** The course pages agree too: for the first `count` page reads, the same course with the same progress from both servers. */
const checkPagesAgree = async (reads: { platform: Request[]; plain: Request[] }, ports: { platform: number; plain: number }, count: number) => {
  const fields = ['id', 'enrollment', 'blocksDone', 'blocksTotal', 'startedAt', 'completedAt', 'certificateId'] as const;
  const pages = reads.platform.flatMap((r, i) => (r.label === 'page' ? [i] : [])).slice(0, count);
  for (const i of pages) {
    const [platform, plain] = [reads.platform[i] as Request, reads.plain[i] as Request];
    const body = async (port: number, r: Request) => {
      const response = await fetch(`http://127.0.0.1:${port}${r.path}`, { headers: r.token ? { authorization: `JWT ${r.token}` } : {} });
      if (!response.ok) throw new Error(`${r.path}: ${response.status} ${await response.text()}`);
      const page = (await response.json()) as Record<string, unknown>;
      return JSON.stringify(fields.map((f) => page[f]));
    };
    const [a, b] = [await body(ports.platform, platform), await body(ports.plain, plain)];
    if (a !== b) throw new Error(`course pages differ: ${platform.path} ${a}, ${plain.path} ${b}`);
  }
};

/** Seeds the primary through the event store and builds every read model there with the platform's runner. */
const seedPrimary = async (pair: ReplicaPair, events: number, sizes: SeedSizes) => {
  const db = await openDatabase(pair.primaryUrl, { poolSize: 20, applicationName: 'bench' });
  const store = createPostgresEventStore({ pool: db.pg, connect: db.connect, codec: createEventCodec(EVENT_DEFINITIONS), maxInFlight: 2 });
  try {
    const seed = await seedStore(store, events, sizes);
    const runner = createProjectionRunner({ db, store, projections: PROJECTIONS, log: silentLog, lagLogIntervalMs: 0 });
    await runner.start();
    const caughtUp = await runner.waitFor(
      PROJECTIONS.map((p) => p.name),
      (await store.headPosition()) as AllPosition,
      3_600_000,
    );
    // The API processes take the projections' leases over once this runner lets them go.
    await runner.stop();
    if (!caughtUp) throw new Error('catch-up did not finish');
    // Settled before the load, so the figures are of reads, not of the aftermath of the seed.
    await db.pg.query('vacuum analyze');
    await db.pg.query('checkpoint');
    return seed;
  } finally {
    await store.close();
    await db.close();
  }
};

export const benchReplica = async (_adminUrl: string, out: (line: string) => void) => {
  const sizes: SeedSizes = {
    participants: knob('BENCH_REPLICA_PARTICIPANTS', 5000),
    companies: 20,
    unitsPerCompany: 10,
    professions: 10,
    courses: knob('BENCH_REPLICA_COURSES', 300),
  };
  const events = knob('BENCH_REPLICA_EVENTS', 200_000);
  const duration = seconds();
  const connections = knob('BENCH_REPLICA_CONNECTIONS', 16);
  const writeRates = (process.env.BENCH_REPLICA_WRITE_RATES ?? '100,200').split(',').map(Number);
  const readRate = knob('BENCH_REPLICA_READ_RATE', 200);
  const pollMs = knob('BENCH_REPLICA_POLL_MS', 2);

  // Its own primary and streaming replica (decision 0067): the bench server of run-all.ts has none.
  const pair = await startReplicaPair({ name: 'bench-replica' });
  const dataDir = await mkdtemp(join(tmpdir(), 'medilearn-bench-replica-'));
  const apis: PlatformProcess[] = [];
  const plains: Awaited<ReturnType<typeof startPlainProcess>>[] = [];
  const writer = new pg.Pool({ connectionString: pair.primaryUrl, max: 10 });
  const watcher = new pg.Client({ connectionString: pair.replicaUrl, application_name: 'bench-replica-watcher' });
  try {
    const seedStarted = performance.now();
    const seed = await seedPrimary(pair, events, sizes);
    await pair.replica.caughtUp(600_000);
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    // The replica holds every journey once, as the seed says.
    await watcher.connect();
    const actual = (
      await watcher.query(`
        select (select count(*) from rm.enrollments)::int as enrollments,
               (select count(*) from rm.enrollments where status = 'completed')::int as completed,
               (select count(certificate_id) from rm.enrollments)::int as certificates,
               (select sum(quiz_attempts) from rm.course_records)::int as attempts`)
    ).rows[0];
    if (JSON.stringify(actual) !== JSON.stringify(seed.expected))
      throw new Error(`replica's read model differs: ${JSON.stringify({ actual, expected: seed.expected })}`);

    const secret = randomBytes(48).toString('base64url');
    const tokens = createJwtSessionTokens({ secret, ttlSeconds: 6 * 3600 });
    const users = shuffled(seed.participants, random(99)).slice(0, 2000);
    const userTokens = new Map<number, string>();
    for (const p of users) userTokens.set(p.id, await tokens.sign({ userId: p.id, sessionId: randomUUID(), realUserId: null, position: null }));
    const adminToken = await tokens.sign({ userId: ADMIN_ID, sessionId: randomUUID(), realUserId: null, position: null });
    const reads = courseReads(seed.seen, users, userTokens, 8000);

    // API processes as `PROCESS_ROLE=api npm start` runs them (decision 0066): writes, projections and jobs' queue on the primary, GETs on the replica.
    const startApi = async () => {
      const port = await freePort();
      const api = startPlatformProcess('api', port, {
        DATABASE_URL: pair.primaryUrl,
        DATABASE_READ_URL: pair.replicaUrl,
        DATABASE_POOL_SIZE: '10',
        JWT_SECRET: secret,
        HOST: '127.0.0.1',
        CONTENT_PORT: String(await freePort()),
        DEMO_DATA: 'false',
        DATA_DIR: dataDir,
        UI_DIST_DIR: '/nonexistent',
        LOG_LEVEL: 'warn',
      });
      apis.push(api);
      await waitReady(api);
      return api;
    };
    const startPlain = async () => {
      const plain = await startPlainProcess(pair.replicaUrl);
      plains.push(plain);
      return plain;
    };
    const warm = async (ports: number[], requests: Request[]) => {
      await closedLoad({ ports, connections, seconds: 2, requests });
    };

    // One process of each.
    const [apiA, plainA] = [await startApi(), await startPlain()];
    await checkCourseListsAgree(seed, users.slice(0, 50), userTokens, { platform: apiA.port, plain: plainA.port });
    await checkPagesAgree(reads, { platform: apiA.port, plain: plainA.port }, 50);
    await warm([apiA.port], reads.platform);
    await warm([plainA.port], reads.plain);
    const phase = (ports: number[], pids: number[], requests: Request[]) =>
      withCores(pids, watcher, () => closedLoad({ ports, connections, seconds: duration, requests }));
    const platformOne = await phase([apiA.port], [apiA.pid], reads.platform);
    const plainOne = await phase([plainA.port], [plainA.pid], reads.plain);

    // Two of each.
    const [apiB, plainB] = [await startApi(), await startPlain()];
    await checkCourseListsAgree(seed, users.slice(50, 100), userTokens, { platform: apiB.port, plain: plainB.port });
    await warm([apiB.port], reads.platform);
    await warm([plainB.port], reads.plain);
    const platformTwo = await phase([apiA.port, apiB.port], [apiA.pid, apiB.pid], reads.platform);
    const plainTwo = await phase([plainA.port, plainB.port], [plainA.pid, plainB.pid], reads.plain);

    // Lag: writes at a steady rate to the primary while participants read from the replica at their own steady rate.
    const openReads = (ports: number[], requests: Request[]) =>
      Promise.all(ports.map((port) => load({ port, rate: readRate / ports.length, seconds: duration, requests }))).then((f) => f.flat());
    const lagOf = async (
      writeRate: number,
      write: (i: number) => Promise<Written | null>,
      watch: Parameters<typeof measureLag>[0]['watch'],
      readPorts: number[],
      requests: Request[],
    ) => {
      // Each phase starts with the replica caught up, so one phase's backlog is not the next one's lag.
      await pair.replica.caughtUp(120_000);
      const replayLag = sampleReplayLag(writer, 50);
      const [lag, readFigures] = await Promise.all([
        measureLag({ rate: writeRate, seconds: duration, pollMs, write, replica: watcher, watch }),
        openReads(readPorts, requests),
      ]);
      return { lag, reads: readFigures, replayLag: await replayLag() };
    };
    const run = randomBytes(3).toString('hex');
    await writer.query(
      'create table if not exists bench_replica_writes (id bigserial primary key, kind text not null, name text not null, internal_use boolean not null)',
    );
    // Warm-up, not reported: the write paths' first calls (JIT, prepared statements) would otherwise be the first phase's lag.
    for (let i = 0; i < 40; i++) {
      const response = await fetch(`http://127.0.0.1:${[apiA.port, apiB.port][i % 2]}/api/tags`, {
        method: 'POST',
        headers: { authorization: `JWT ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'course', name: `Značka ${run}-warm-${i}`, internalUse: false }),
      });
      if (response.status !== 201) throw new Error(`POST /api/tags: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
      await writer.query('insert into bench_replica_writes (kind, name, internal_use) values ($1, $2, false)', ['course', `Značka ${run}-warm-${i}`]);
    }
    const lags: Lags[] = [];
    for (const writeRate of writeRates) {
      const platform = await lagOf(
        writeRate,
        async (i) => {
          const port = [apiA.port, apiB.port][i % 2] as number;
          const response = await fetch(`http://127.0.0.1:${port}/api/tags`, {
            method: 'POST',
            headers: { authorization: `JWT ${adminToken}`, 'content-type': 'application/json' },
            body: JSON.stringify({ kind: 'course', name: `Značka ${run}-${writeRate}-${i}`, internalUse: false }),
          });
          if (response.status !== 201) return null;
          const { id } = (await response.json()) as { id: number };
          const position = /^\d+-(\d+)$/.exec(response.headers.get('x-event-position') ?? '')?.[1];
          return { row: id, event: position === undefined ? undefined : Number(position) };
        },
        async (replica, pending) => {
          const found = await replica.query<{ rows: number[]; events: string[] }>(
            `select coalesce((select array_agg(id) from rm.tags where id = any($1::int[])), '{}') as rows,
                  coalesce((select array_agg(global_position) from es.appends where global_position = any($2::bigint[])), '{}') as events`,
            [pending.row ?? [], pending.event ?? []],
          );
          const row = found.rows[0] as { rows: number[]; events: string[] };
          return { row: row.rows, event: row.events.map(Number) };
        },
        [apiA.port, apiB.port],
        reads.platform,
      );
      const plain = await lagOf(
        writeRate,
        async (i) => {
          const inserted = await writer.query<{ id: string }>(
            'insert into bench_replica_writes (kind, name, internal_use) values ($1, $2, false) returning id',
            ['course', `Značka ${run}-${writeRate}-${i}`],
          );
          return { row: Number(inserted.rows[0]?.id) };
        },
        async (replica, pending) => {
          const found = await replica.query<{ rows: string[] }>(
            `select coalesce(array_agg(id), '{}') as rows from bench_replica_writes where id = any($1::bigint[])`,
            [pending.row ?? []],
          );
          return { row: (found.rows[0]?.rows ?? []).map(Number) };
        },
        [plainA.port, plainB.port],
        reads.plain,
      );
      lags.push({ rate: writeRate, platform, plain });
    }
    // Over the whole run: every read the API processes served, by pool, and those moved to the primary (also for lag).
    const pools = await Promise.all([apiA.port, apiB.port].map(readPools));

    reportReplica(out, {
      sizes,
      events,
      seedSeconds,
      duration,
      connections,
      throughput: { platformOne, platformTwo, plainOne, plainTwo },
      pools,
      readRate,
      pollMs,
      lags,
    });
    return { platformOne, platformTwo, plainOne, plainTwo, lags };
  } finally {
    await watcher.end().catch(() => undefined);
    await writer.end().catch(() => undefined);
    await Promise.all(apis.map((api) => stopGently(api, 5000)));
    await Promise.all(plains.map((plain) => stopChild(plain.child, 5000)));
    await pair.close();
    await rm(dataDir, { recursive: true, force: true });
  }
};
