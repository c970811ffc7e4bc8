import { afterEach, describe, expect, it, vi } from 'vitest';
import { newEventId } from './event-store.port.ts';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const millisOf = (id: string) => Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);

describe('newEventId', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is a version 7 UUID whose first 48 bits are the time in milliseconds', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(0x0123_4567_89ab);
    const id = newEventId();
    expect(id).toMatch(V7);
    expect(id.slice(0, 13)).toBe('01234567-89ab');
    vi.setSystemTime(0xfedc_ba98_7654);
    expect(newEventId().slice(0, 13)).toBe('fedcba98-7654');
  });

  it('never repeats, across many refills of its random bytes, and follows the clock', () => {
    const before = Date.now();
    const ids = Array.from({ length: 20_000 }, () => newEventId());
    const after = Date.now();
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(V7);
    const millis = ids.map(millisOf);
    expect(millis[0]).toBeGreaterThanOrEqual(before);
    expect(millis.at(-1)).toBeLessThanOrEqual(after);
    expect(millis.every((m, i) => i === 0 || m >= (millis[i - 1] as number))).toBe(true);
  });
});
