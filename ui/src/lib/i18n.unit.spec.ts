// @vitest-environment happy-dom
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatEuroCents, setupI18n } from './i18n.ts';

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

  it('sets the si locale cookie for 365 days and sl-SI on the page', () => {
    expect(document.cookie).toContain('i18n_redirected=si');
    expect(document.documentElement.lang).toBe('sl-SI');
  });
});
