import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import sl from './sl.json' with { type: 'json' };

const SRC = join(import.meta.dirname, '..');

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.spec\.tsx?$/.test(entry.name) ? [path] : [];
  });

const lookup = (key: string): unknown =>
  key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), sl);

/** A key exists as a text, or as plural forms (i18next adds _one, _two, _few, _other). */
const exists = (key: string) => typeof lookup(key) === 'string' || ['_one', '_two', '_few', '_other'].some((s) => typeof lookup(`${key}${s}`) === 'string');

describe('Slovenian texts', () => {
  // A text committed under another section shows the user its raw key ("academies.listLoadFailed"):
  // every key the code names literally must be where the code looks for it.
  it('has every key the code asks for by name', () => {
    const missing: string[] = [];
    for (const file of sources(SRC)) {
      const code = readFileSync(file, 'utf8');
      for (const match of code.matchAll(/\bt\(\s*'([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)+)'/g)) {
        const key = match[1] as string;
        if (!exists(key)) missing.push(`${file.slice(SRC.length + 1)}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
