import { describe, expect, it } from 'vitest';
import { dueDay, durationParts, progressPercent } from './course-card-facts.ts';

const at = (iso: string) => Date.parse(iso);

describe('course card facts (issue 33)', () => {
  it('gives the last day of the interval open now in Ljubljana time, Slovenian order', () => {
    const year = { startsAt: '2026-01-01T00:00:00Z', stopsAt: '2026-12-31T22:59:00Z' };
    expect(dueDay([year], at('2026-11-27T10:00:00Z'))).toBe('31. 12. 2026');
    // Midnight in Ljubljana (23:00 UTC in winter) ends the day before.
    expect(dueDay([{ startsAt: '2026-01-01T00:00:00Z', stopsAt: '2026-12-31T23:00:00Z' }], at('2026-11-27T10:00:00Z'))).toBe('31. 12. 2026');
    // 23:30 UTC on 30 June is already 1 July in Ljubljana (summer time).
    expect(dueDay([{ startsAt: '2026-01-01T00:00:00Z', stopsAt: '2026-06-30T23:30:00Z' }], at('2026-06-01T00:00:00Z'))).toBe('1. 7. 2026');
  });

  it('has no due date without an open interval', () => {
    expect(dueDay([], at('2026-11-27T10:00:00Z'))).toBeNull();
    const later = { startsAt: '2027-01-01T00:00:00Z', stopsAt: '2027-02-01T00:00:00Z' };
    const past = { startsAt: '2025-01-01T00:00:00Z', stopsAt: '2025-02-01T00:00:00Z' };
    expect(dueDay([past, later], at('2026-11-27T10:00:00Z'))).toBeNull();
    expect(dueDay([past, later], at('2027-01-10T10:00:00Z'))).toBe('1. 2. 2027');
  });

  it('splits minutes into hours and minutes and rounds progress', () => {
    expect(durationParts(90)).toEqual({ hours: 1, minutes: 30 });
    expect(durationParts(45)).toEqual({ hours: 0, minutes: 45 });
    expect(durationParts(120)).toEqual({ hours: 2, minutes: 0 });
    expect(progressPercent(1, 3)).toBe(33);
    expect(progressPercent(0, 0)).toBe(0);
    expect(progressPercent(5, 5)).toBe(100);
  });
});
