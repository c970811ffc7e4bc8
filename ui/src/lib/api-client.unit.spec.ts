// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from './api-client.ts';

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
