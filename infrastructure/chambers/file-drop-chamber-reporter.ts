import { mkdir, rename, writeFile } from 'node:fs/promises';
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
