// The platform for the soak (soak.bench.ts), as `npm start` runs it, in its own process, with a memory probe.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const ROOT = join(import.meta.dirname, '..', '..');

// ------------------------------------------------------------------ the platform, as `npm start` runs it

/**
 * Loaded before main.ts into the server process: answers the bench's IPC question with
 * process.memoryUsage(), after a full garbage collection when asked (`--expose-gc`; only outside the load).
 */
const MEMORY_PROBE = `data:text/javascript,${encodeURIComponent(
  "if (process.send) process.on('message', (m) => { if (m === 'memory-after-gc') globalThis.gc?.(); process.send({ memory: process.memoryUsage() }); });",
)}`;

/**
 * `node infrastructure/main/main.ts` (what `npm start` runs after building the UI) in its own
 * process on the bench database: pg-boss jobs, reactors, the projection runner, pino at warn. Its
 * log lines go to stderr and are counted by level.
 */
export const startPlatformProcess = async (env: Record<string, string>) => {
  const child = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', '--expose-gc', '--import', MEMORY_PROBE, join(ROOT, 'infrastructure', 'main', 'main.ts')],
    {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  if (!child.stdout || !child.stderr) throw new Error('the platform process has no output pipes');
  const log = { warnings: 0, errors: 0 };
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const listening = Promise.withResolvers<number>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const banner = /running at http:\/\/localhost:(\d+)/.exec(line);
    if (banner) return listening.resolve(Number(banner[1]));
    if (line.trim() === '') return;
    const level = /"level":(\d+)/.exec(line);
    if (level && Number(level[1]) >= 50) log.errors++;
    else if (level && Number(level[1]) >= 40) log.warnings++;
    process.stderr.write(`[platform] ${line}\n`);
  });
  createInterface({ input: child.stderr }).on('line', (line) => process.stderr.write(`[platform] ${line}\n`));
  void exited.then((code) => listening.reject(new Error(`the platform exited with ${code} before listening`)));
  const port = await listening.promise;
  let asking = Promise.resolve() as Promise<unknown>;
  const memory = (afterGc = false) => {
    const answer = asking.then(
      () =>
        new Promise<NodeJS.MemoryUsage>((resolve, reject) => {
          // A server that died or hangs answers nothing: the sample fails instead of the bench waiting for ever.
          const timer = setTimeout(() => reject(new Error('the platform did not report its memory within 10 s')), 10_000);
          child.once('message', (m: { memory: NodeJS.MemoryUsage }) => {
            clearTimeout(timer);
            resolve(m.memory);
          });
          child.send(afterGc ? 'memory-after-gc' : 'memory', (error) => {
            if (error) {
              clearTimeout(timer);
              reject(error);
            }
          });
        }),
    );
    asking = answer.catch(() => undefined);
    return answer;
  };
  return {
    port,
    pid: child.pid as number,
    log,
    memory,
    stop: async () => {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 35_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
};
