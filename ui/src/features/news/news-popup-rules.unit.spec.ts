import { describe, expect, it } from 'vitest';
import { cutLocationText, newsLocationsFor, shownRecently } from './news-popup-rules.ts';

describe('the news pop-up (spec §3, §4, §9)', () => {
  it('asks for location 1 on home, courses and academies, and 1 and 2 on the course-completed pages only', () => {
    expect(['/', '/izobrazevanja', '/powerclass', '/izobrazevanja/'].map(newsLocationsFor)).toEqual([[1], [1], [1], [1]]);
    expect(newsLocationsFor('/izobrazevanja/12/konec')).toEqual([1, 2]);
    expect(newsLocationsFor('/courses/12/end')).toEqual([1, 2]);
    for (const path of ['/profil', '/izobrazevanja/12', '/powerclass/3', '/admin/news', '/izobrazevanja/12/bloki/1', '/novicnik']) {
      expect(newsLocationsFor(path), path).toBeNull();
    }
  });

  it('comes at most once in 24 hours', () => {
    const now = Date.parse('2026-03-02T10:00:00Z');
    expect(shownRecently(null, now)).toBe(false);
    expect(shownRecently('ni datum', now)).toBe(false);
    expect(shownRecently('2026-03-01T10:00:01Z', now)).toBe(true);
    expect(shownRecently('2026-03-01T10:00:00Z', now)).toBe(false);
  });

  it('cuts the location text at 32 characters plus an ellipsis', () => {
    expect(cutLocationText('Kratka novica')).toBe('Kratka novica');
    expect(cutLocationText('x'.repeat(32))).toBe('x'.repeat(32));
    expect(cutLocationText('Nova smernica za zdravljenje z antikoagulanti')).toBe('Nova smernica za zdravljenje z a…');
    expect(cutLocationText(`${'č'.repeat(31)}😀😀`)).toBe(`${'č'.repeat(31)}😀…`);
  });
});
