import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../domain/permissions/permissions.ts';
import { handlerUses, recordedUnused, routeUses, type Use } from '../support/permission-usage.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const DECISION = join(ROOT, 'docs', 'decisions', '0016-safety-net-and-permissions.md');

/** Every permission id of spec §6 is checked by some route (or a handler behind one) or recorded as unused with its reason. */
describe('permission accounting (spec §6)', () => {
  let p: TestPlatform;
  let uses: Use[];
  beforeAll(async () => {
    p = await startTestPlatform({ FEATURE_DELETE_ACCOUNT: 'true' });
    uses = [...routeUses(p.app.routeCatalogue()), ...handlerUses(ROOT)];
  });
  afterAll(async () => p.close());

  it('accounts for every permission: used by a route, or recorded as unused with a reason, never both', () => {
    const unused = recordedUnused(readFileSync(DECISION, 'utf8'));
    const key = (x: { scope: string; id: number }) => `${x.scope}:${x.id}`;
    const used = new Set(uses.map(key));
    const recorded = new Set(unused.map(key));
    const missing = PERMISSIONS.filter((perm) => !used.has(key(perm)) && !recorded.has(key(perm))).map(key);
    expect(missing, 'checked by no route and not recorded as unused in decision 0016').toEqual([]);
    expect(unused.filter((u) => used.has(key(u))).map(key), 'recorded as unused but a route checks it: take it off the table').toEqual([]);
    for (const u of unused) expect(u.reason.length, key(u)).toBeGreaterThan(20);
  });

  it('checks only permissions the catalogue knows, in the scope they belong to', () => {
    const known = new Set(PERMISSIONS.map((perm) => `${perm.scope}:${perm.id}`));
    expect(uses.filter((u) => !known.has(`${u.scope}:${u.id}`)).map((u) => `${u.scope}:${u.id} in ${u.where}`)).toEqual([]);
  });
});
