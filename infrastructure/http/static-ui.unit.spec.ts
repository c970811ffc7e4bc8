import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { currentFile } from './static-ui.ts';

describe('the UI page served', () => {
  let dir = '';
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('is read again when the build replaces it, so a rebuilt UI does not leave a page naming a script that is gone', async () => {
    dir = await mkdtemp(join(tmpdir(), 'static-ui-'));
    const file = join(dir, 'index.html');
    await writeFile(file, '<script src="/assets/index-old.js"></script>');
    const page = currentFile(file);
    expect(await page()).toContain('index-old.js');
    expect(await page()).toContain('index-old.js');
    await writeFile(file, '<script src="/assets/index-new.js"></script>');
    // A build within the same clock tick: the size or a later time tells.
    await utimes(file, new Date(), new Date(Date.now() + 1000));
    expect(await page()).toContain('index-new.js');
  });
});
