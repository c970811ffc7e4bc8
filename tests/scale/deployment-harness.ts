import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The pieces of a deployment the scale test (tests/scale/deployment.scale.spec.ts, decision 0068)
 * starts as real processes: platform processes of a role (`node infrastructure/main/main.ts`, as
 * `npm start` runs one) and HAProxy with the repository's deploy/haproxy.cfg, unchanged (its
 * addresses come from the environment).
 */
const ROOT = join(import.meta.dirname, '..', '..');
const MAIN = join(ROOT, 'infrastructure', 'main', 'main.ts');
export const HAPROXY_CONFIG = join(ROOT, 'deploy', 'haproxy.cfg');
/** Debian puts it in /usr/sbin, which a user's PATH may lack; HAPROXY_BIN names another. */
const HAPROXY = process.env.HAPROXY_BIN ?? (existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy');

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type Role = 'api' | 'jobs';

export type PlatformProcess = {
  readonly role: Role;
  readonly port: number;
  readonly pid: number;
  readonly child: ChildProcess;
  readonly output: string[];
  alive: boolean;
};

export const startPlatformProcess = (role: Role, port: number, env: Record<string, string>): PlatformProcess => {
  const full: Record<string, string | undefined> = { ...process.env, ...env, PROCESS_ROLE: role, PORT: String(port) };
  // One process of its role, not a supervisor of several.
  delete full.API_PROCESSES;
  delete full.JOB_PROCESSES;
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', MAIN], { env: full, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 400) output.splice(0, 100);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { role, port, pid: child.pid as number, child, output, alive: true };
};

/** An api process answers its health check; a job process, which listens on nothing, says it works the queues. */
export const waitReady = async (p: PlatformProcess, ms = 60_000) => {
  const deadline = Date.now() + ms;
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

export const killHard = async (p: PlatformProcess) => {
  p.alive = false;
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  const exited = new Promise((resolve) => p.child.once('exit', resolve));
  p.child.kill('SIGKILL');
  await exited;
};

/** SIGTERM (a process that drains, as `npm start` does, ends by itself), SIGKILL after `ms`; nothing when it has ended. */
export const stopChild = async (child: ChildProcess, ms: number) => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  await exited;
  clearTimeout(timer);
};

/** SIGTERM (the process drains as `npm start` does), SIGKILL after `ms`. */
export const stopGently = async (p: PlatformProcess, ms = 10_000) => {
  p.alive = false;
  await stopChild(p.child, ms);
};

/** Resident memory of a process in MB (0 when it is gone). */
export const residentMb = (pid: number) => {
  try {
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
};

/** One value of a Prometheus text line `name{label} value` from a process's /api/metrics (NaN when absent). */
export const metric = async (port: number, name: string, label: string) => {
  const text = await fetch(`http://127.0.0.1:${port}/api/metrics`).then((r) => r.text());
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${label}} `));
  return Number(line?.split(' ')[1] ?? Number.NaN);
};

export type Balancer = {
  readonly url: string;
  /** The content origin (package code). */
  readonly contentUrl: string;
  readonly pid: number;
  readonly log: string[];
  /** Each server's state (UP, DOWN, ...) by `backend/server`, and the api backend's retry and redispatch counts, from the stats CSV. */
  readonly stats: () => Promise<{ servers: Record<string, string>; retries: number; redispatches: number }>;
  readonly stop: () => Promise<void>;
};

/** HAProxy from the system (Debian's package), in the foreground, on deploy/haproxy.cfg with these addresses. */
export const startBalancer = async (ports: {
  bind: number;
  contentBind: number;
  stats: number;
  api: readonly { port: number; contentPort: number }[];
}): Promise<Balancer> => {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    MEDILEARN_BIND: `127.0.0.1:${ports.bind}`,
    MEDILEARN_CONTENT_BIND: `127.0.0.1:${ports.contentBind}`,
    MEDILEARN_STATS: `127.0.0.1:${ports.stats}`,
  };
  ports.api.forEach((api, i) => {
    env[`MEDILEARN_API${i + 1}`] = `127.0.0.1:${api.port}`;
    env[`MEDILEARN_CONTENT${i + 1}`] = `127.0.0.1:${api.contentPort}`;
  });
  const child = spawn(HAPROXY, ['-f', HAPROXY_CONFIG, '-db'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const log: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line.trim()) log.push(line);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const spawned = await new Promise<Error | null>((resolve) => {
    child.once('spawn', () => resolve(null));
    child.once('error', resolve);
  });
  if (spawned) throw new Error(`haproxy could not be started (apt-get install haproxy): ${spawned.message}`);

  const stats = async () => {
    const csv = await fetch(`http://127.0.0.1:${ports.stats}/;csv`).then((r) => r.text());
    const [header, ...rows] = csv.split('\n').filter((l) => l.trim());
    const columns = (header as string).replace(/^# /, '').split(',');
    const at = (name: string) => columns.indexOf(name);
    const servers: Record<string, string> = {};
    let retries = 0;
    let redispatches = 0;
    for (const row of rows) {
      const cells = row.split(',');
      const backend = cells[at('pxname')] as string;
      const server = cells[at('svname')] as string;
      if (backend !== 'api' && backend !== 'content') continue;
      if (server === 'BACKEND') {
        if (backend === 'api') {
          retries = Number(cells[at('wretr')] || 0);
          redispatches = Number(cells[at('wredis')] || 0);
        }
      } else if (server !== 'FRONTEND') servers[`${backend}/${server}`] = cells[at('status')] as string;
    }
    return { servers, retries, redispatches };
  };

  // Ready: it serves its stats and has found every API process healthy, and its content server.
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy ended at start:\n${log.join('\n')}`);
    const state = await stats().catch(() => null);
    if (state && Object.keys(state.servers).length === 2 * ports.api.length && Object.values(state.servers).every((s) => s === 'UP')) break;
    if (Date.now() > deadline) throw new Error(`haproxy did not find every API process up:\n${log.join('\n')}`);
    await sleep(100);
  }

  return {
    url: `http://127.0.0.1:${ports.bind}`,
    contentUrl: `http://127.0.0.1:${ports.contentBind}`,
    pid: child.pid as number,
    log,
    stats,
    stop: () => stopChild(child, 5000),
  };
};
