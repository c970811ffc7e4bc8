// @vitest-environment happy-dom
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDay, formatEuroCents, formatNps, formatPeriod, setupI18n } from './i18n.ts';

describe('Slovenian locale', () => {
  let i18n: ReturnType<typeof setupI18n>;
  beforeAll(() => {
    i18n = setupI18n();
  });

  it('uses the four Slovenian plural forms', () => {
    expect([1, 2, 3, 4, 5, 101, 102].map((count) => i18n.t('home.coursesCount', { count }))).toEqual([
      '1 izobraževanje',
      '2 izobraževanji',
      '3 izobraževanja',
      '4 izobraževanja',
      '5 izobraževanj',
      '101 izobraževanje',
      '102 izobraževanji',
    ]);
  });

  it('shows times in Europe/Ljubljana and money in euros', () => {
    // 23:30 UTC on 31 March is 1:30 on 1 April in Ljubljana (summer time).
    expect(formatDate('2026-03-31T23:30:00Z')).toBe('1. apr. 2026');
    expect(formatDateTime('2026-01-15T11:05:00Z')).toContain('12:05');
    // Issue 7: thousands always grouped (1.234,56 €), though sl-SI alone starts at five digits.
    expect(formatEuroCents(123456).replace(/\s/g, ' ')).toBe('1.234,56 €');
    expect(formatEuroCents(1234567).replace(/\s/g, ' ')).toBe('12.345,67 €');
  });

  it('shows a day one way in tables and chart axes alike, never as 2026-11-23 (issue 18 item 4)', () => {
    expect(formatDay('2026-11-23')).toBe('23. nov. 2026');
    expect(formatDay('2026-11-23')).toBe(formatDate('2026-11-23T10:00:00Z'));
    expect(formatPeriod('2026-11-23', 'day')).toBe('23. nov. 2026');
    expect(formatPeriod('2026-11-23', 'week')).toBe('23. nov. 2026');
    expect(formatPeriod('2026-11-01', 'month')).toBe('nov. 2026');
    // 24-hour time in Ljubljana: 13:05 UTC in summer is 15:05, never "3:05 PM".
    expect(formatDateTime('2026-07-01T13:05:00Z')).toBe('1. jul. 2026, 15:05');
  });

  it('shows an NPS score with one decimal and a Slovenian comma wherever it appears (issue 33)', () => {
    expect([33.3, 33, -50, 100, 0, -7.5].map(formatNps)).toEqual(['33,3', '33,0', '−50,0', '100,0', '0,0', '−7,5']);
    expect(formatNps(null)).toBe('–');
  });

  it('sets the si locale cookie for 365 days and sl-SI on the page', () => {
    expect(document.cookie).toContain('i18n_redirected=si');
    expect(document.documentElement.lang).toBe('sl-SI');
  });
});
