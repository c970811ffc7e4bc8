import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Removes the data directories of e2e runs whose server has stopped. */
export default async function globalTeardown() {
  const dataRoot = join(import.meta.dirname, '..', '..', '.data');
  for (const name of readdirSync(dataRoot).filter((n) => n.startsWith('e2e-'))) {
    await rm(join(dataRoot, name), { recursive: true, force: true }).catch(() => undefined);
  }
}
