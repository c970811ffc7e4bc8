import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChamberCreditRecord, ChamberReceipt, ChamberReporter } from './chamber-reporter.port.ts';

/**
 * The local chamber (decision 0030): each record becomes a JSON file in `<dir>/zbornica-<n>/`,
 * named by its reference, written to a temporary name and renamed, so a reader never sees half a
 * file and a resend overwrites the same file. The chamber's acknowledgment is the file being there.
 * This is what a chamber that collects files (an SFTP drop) gets, and what the demo runs.
 */
export const createFileDropChamberReporter = (dir: string): ChamberReporter => ({
  report: async (record: ChamberCreditRecord): Promise<ChamberReceipt> => {
    const folder = join(dir, `zbornica-${record.chamber}`);
    await mkdir(folder, { recursive: true });
    const name = `${record.reference}.json`;
    const temporary = join(folder, `.${name}.${process.pid}.tmp`);
    await writeFile(temporary, `${JSON.stringify(record, null, 2)}\n`, { flush: true });
    await rename(temporary, join(folder, name));
    return { receipt: `datoteka zbornica-${record.chamber}/${name}` };
  },
});

/**
 * Removes the files the drop folder still holds for a person (issue 32 item 3): an erased person's
 * names and numbers must not stay in a file the platform wrote. What a chamber already collected is
 * the chamber's. Answers how many files went.
 */
export const forgetDroppedCredits = async (dir: string, userId: number) => {
  let removed = 0;
  const name = new RegExp(`^medilearn-\\d+-${userId}\\.json$`);
  for (const chamber of [1, 2, 3]) {
    const folder = join(dir, `zbornica-${chamber}`);
    const files = await readdir(folder).catch(() => [] as string[]);
    for (const file of files.filter((f) => name.test(f))) {
      await rm(join(folder, file), { force: true });
      removed += 1;
    }
  }
  return removed;
};
