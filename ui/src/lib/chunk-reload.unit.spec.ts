// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isChunkLoadError, reloadOnceForChunkError } from './chunk-reload.ts';

describe('reload after a failed chunk load (spec §8)', () => {
  afterEach(() => {
    sessionStorage.clear();
    window.location.hash = '';
    vi.restoreAllMocks();
  });

  it('recognises a failed dynamic import', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of null'))).toBe(false);
  });

  it('reloads once, marked by #retry, and not again within a minute', () => {
    const reload = vi.spyOn(window.location, 'reload').mockImplementation(() => undefined);
    expect(reloadOnceForChunkError(1_000_000)).toBe(true);
    expect(window.location.hash).toBe('#retry');
    expect(reload).toHaveBeenCalledTimes(1);
    expect(reloadOnceForChunkError(1_000_500)).toBe(false);
    window.location.hash = '';
    expect(reloadOnceForChunkError(1_030_000)).toBe(false);
    expect(reloadOnceForChunkError(1_061_000)).toBe(true);
  });
});
