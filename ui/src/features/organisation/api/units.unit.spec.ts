// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lookupCommunity } from './units.ts';

const answer = (data: object[]) =>
  vi.fn(async (_url: string) => new Response(JSON.stringify({ data }), { status: 200, headers: { 'Content-Type': 'application/json' } }));

describe('community lookup (spec §5: accepted only when exactly one result is returned)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks GET /api/communities with filterIds in array style and accepts a single match', async () => {
    const fetch = answer([{ id: 4, name: 'Lekarna', company_id: 1, company_name: 'Podjetje' }]);
    vi.stubGlobal('fetch', fetch);
    expect(await lookupCommunity(4)).toMatchObject({ id: 4, name: 'Lekarna' });
    expect(String(fetch.mock.calls[0]?.[0])).toBe('/api/communities?filterIds%5B%5D=4');
  });

  it('refuses no match and more than one', async () => {
    vi.stubGlobal('fetch', answer([]));
    expect(await lookupCommunity(4)).toBeNull();
    vi.stubGlobal('fetch', answer([{ id: 4 }, { id: 5 }]));
    expect(await lookupCommunity(4)).toBeNull();
  });
});
