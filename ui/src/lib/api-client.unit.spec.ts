// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, readAtLeast } from './api-client.ts';

const answer = (body: unknown, stale: boolean) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json', ...(stale ? { 'X-Read-Stale': 'true' } : {}) } });

/** The server's side of this is infrastructure/http/app.ts (X-Min-Position, X-Read-Stale). */
describe('reads after a write', () => {
  afterEach(() => vi.restoreAllMocks());

  it('asks again while the server says its read models had not reached the last write, and shows the fresh answer', async () => {
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(answer({ published: false }, true))
      .mockResolvedValueOnce(answer({ published: false }, true))
      .mockResolvedValueOnce(answer({ published: true }, false));
    expect(await api<{ published: boolean }>('GET', '/courses/1')).toEqual({ published: true });
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('gives up after a few tries with what it has, and never sends a write twice', async () => {
    const reads = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => answer({ published: false }, true));
    expect(await api<{ published: boolean }>('GET', '/courses/1')).toEqual({ published: false });
    expect(reads).toHaveBeenCalledTimes(6);
    reads.mockClear();
    await api('POST', '/courses/1/publish');
    expect(reads).toHaveBeenCalledTimes(1);
  });
});

describe('reads after a live change (decision 0067)', () => {
  afterEach(() => vi.restoreAllMocks());
  const sent = (fetch: { mock: { calls: unknown[][] } }) =>
    fetch.mock.calls.map((call) => (call[1] as { headers: Record<string, string> }).headers['X-Min-Position'] ?? null);

  it('waits for the live stream’s position, and never for an older one than it already waits for', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => answer({}, false));
    readAtLeast('7-120');
    await api('GET', '/stats');
    // Ordered by commit first: 7-99 is behind 7-120, 6-500 is behind both.
    readAtLeast('7-99');
    readAtLeast('6-500');
    readAtLeast('not a position');
    await api('GET', '/stats');
    readAtLeast('8-1');
    await api('GET', '/stats');
    expect(sent(fetch)).toEqual(['7-120', '7-120', '8-1']);
  });
});
