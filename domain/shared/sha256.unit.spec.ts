import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from './sha256.ts';

describe('sha256Hex', () => {
  it('equals node:crypto on the standard vectors, on every length round the block boundaries, and on non-ASCII text', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const node = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
    for (let n = 0; n < 200; n++) expect(sha256Hex('x'.repeat(n)), String(n)).toBe(node('x'.repeat(n)));
    const slovenian = 'Čebelji vosek, šipek in žajbelj: zdravila 💊 v lekarni.'.repeat(500);
    expect(sha256Hex(slovenian)).toBe(node(slovenian));
  });
});
