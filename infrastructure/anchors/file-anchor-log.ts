import { mkdir, open, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { AnchoredCheckpoint, AnchorLog } from './consent-proof.port.ts';

/**
 * Signed checkpoints appended, one JSON line each, to a file outside the database (decision 0052;
 * default `DATA_DIR/anchors/consent-checkpoints.jsonl`), flushed to disk before the append answers.
 * An operator ships it elsewhere (write-once storage, another machine) to keep it from whoever holds
 * the database; a port for an RFC 3161 timestamp authority or an object store with retention.
 */
export const createFileAnchorLog = (file: string): AnchorLog => ({
  append: async (anchored) => {
    await mkdir(dirname(file), { recursive: true });
    const handle = await open(file, 'a', 0o640);
    try {
      await handle.appendFile(`${JSON.stringify(anchored)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  latest: async () => {
    const text = await readFile(file, 'utf8').catch(() => '');
    const last = text.trimEnd().split('\n').filter(Boolean).at(-1);
    return last ? (JSON.parse(last) as AnchoredCheckpoint) : null;
  },
});
