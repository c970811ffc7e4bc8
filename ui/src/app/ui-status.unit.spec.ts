import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTES } from './route-paths.ts';

const doc = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'ui-status.md'), 'utf8');
const section = (heading: string) => doc.split(`## ${heading}`)[1]?.split('\n## ')[0] ?? '';
const pathsIn = (text: string) => [...text.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);

describe('docs/ui-status.md', () => {
  it('lists every placeholder route, and only those, as placeholders', () => {
    expect(pathsIn(section('Placeholders')).sort()).toEqual(
      ROUTES.filter((r) => r.status === 'placeholder')
        .map((r) => r.path)
        .sort(),
    );
  });

  it('lists every built route as built', () => {
    expect(pathsIn(section('Built')).sort()).toEqual(
      ROUTES.filter((r) => r.status === 'done')
        .map((r) => r.path)
        .sort(),
    );
  });

  it('says for every built route how a user gets there (issue 18: no built screen without a way in)', () => {
    const rows = section('Built')
      .split('\n')
      .filter((line) => /^\| `[^`]+` \|/.test(line));
    expect(rows.length).toBe(ROUTES.filter((r) => r.status === 'done').length);
    // | `path` | page | way in |: the third cell names the menu, tab, list or link, or says the page is entered from outside.
    const empty = rows.filter((line) => (line.split('|')[3] ?? '').trim() === '').map((line) => line.split('`')[1]);
    expect(empty).toEqual([]);
    expect(section('Built')).toMatch(/^\| path \| page \| way in \|$/m);
  });

  it('has each spec route once', () => {
    const paths = ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    // 31 user and public routes, 58 admin routes, 1 manager route; the routes we added are marked `extra`.
    expect(ROUTES.filter((r) => !r.extra)).toHaveLength(90);
  });
});
