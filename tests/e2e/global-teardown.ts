import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Whether the Playwright run that owns a data directory (`e2e-<pid>`) is still running. */
const running = (pid: number) => {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Removes this run's data directory and those of runs that have stopped, never one another run is using. */
export default async function globalTeardown() {
  const dataRoot = join(import.meta.dirname, '..', '..', '.data');
  for (const name of readdirSync(dataRoot).filter((n) => n.startsWith('e2e-'))) {
    const pid = Number(name.slice('e2e-'.length));
    if (Number.isInteger(pid) && running(pid)) continue;
    await rm(join(dataRoot, name), { recursive: true, force: true }).catch(() => undefined);
  }
}
