import { describe, expect, it } from 'vitest';
import { attended, livePhase, openCheck, PRESENCE_WINDOW_SECONDS, presenceChecks } from './live-presence.ts';

const hour = { startsAt: '2026-12-01T09:00:00.000Z', stopsAt: '2026-12-01T10:00:00.000Z' };
const at = (iso: string) => new Date(iso);

describe('live webinar presence checks (spec §4 live page)', () => {
  it('asks 5 minutes after the start and every 15 minutes while a whole window fits before the end', () => {
    expect(presenceChecks(hour).map((c) => [c.index, c.opensAt.toISOString().slice(11, 19), c.closesAt.toISOString().slice(11, 19)])).toEqual([
      [0, '09:05:00', '09:06:30'],
      [1, '09:20:00', '09:21:30'],
      [2, '09:35:00', '09:36:30'],
      [3, '09:50:00', '09:51:30'],
    ]);
    expect(PRESENCE_WINDOW_SECONDS).toBe(90);
    // A webinar too short for the first check still has one, at its start.
    expect(presenceChecks({ startsAt: '2026-12-01T09:00:00Z', stopsAt: '2026-12-01T09:03:00Z' }).map((c) => c.opensAt.toISOString())).toEqual([
      '2026-12-01T09:00:00.000Z',
    ]);
  });

  it('knows the phase and the check open at a moment: none before, between or after the checks', () => {
    expect(livePhase(hour, at('2026-12-01T08:59:59Z'))).toBe('upcoming');
    expect(livePhase(hour, at('2026-12-01T09:00:00Z'))).toBe('live');
    expect(livePhase(hour, at('2026-12-01T10:00:00Z'))).toBe('ended');
    expect(openCheck(hour, at('2026-12-01T09:04:59Z'))).toBeNull();
    expect(openCheck(hour, at('2026-12-01T09:06:29Z'))?.index).toBe(0);
    expect(openCheck(hour, at('2026-12-01T09:06:30Z'))).toBeNull();
    expect(openCheck(hour, at('2026-12-01T09:50:10Z'))?.index).toBe(3);
  });

  it('counts an attendee present who confirmed at least half of the checks', () => {
    expect(attended(hour, [0])).toBe(false);
    expect(attended(hour, [0, 0])).toBe(false);
    expect(attended(hour, [0, 3])).toBe(true);
  });
});
