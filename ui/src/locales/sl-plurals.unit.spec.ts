// @vitest-environment happy-dom
import { beforeAll, describe, expect, it } from 'vitest';
import { pointsCount } from '../features/courses/components/course-badges.tsx';
import { setupI18n } from '../lib/i18n.ts';
import sl from './sl.json';

/**
 * Slovenian plural forms (issue 18 item 4): every counted noun goes through i18next plurals with the
 * four forms Slovenian has (Intl.PluralRules 'sl': 1, 101 one; 2, 102 two; 3, 4, 103, 104 few; a
 * decimal few; else other).
 */
const FORMS = ['one', 'two', 'few', 'other'] as const;
type Form = (typeof FORMS)[number];

/** Slovenian grammar written out, not read from Intl: what the number n (a whole one) asks for. */
const formOf = (n: number): Form => {
  const last = n % 100;
  return last === 1 ? 'one' : last === 2 ? 'two' : last === 3 || last === 4 ? 'few' : 'other';
};

const flatten = (node: unknown, prefix = ''): [string, string][] =>
  typeof node === 'string'
    ? [[prefix, node]]
    : Object.entries(node as Record<string, unknown>).flatMap(([key, value]) => flatten(value, prefix ? `${prefix}.${key}` : key));

const entries = new Map(flatten(sl));
const families = new Map<string, Map<string, string>>();
for (const [key, text] of entries) {
  const match = /^(.+)_(zero|one|two|few|many|other)$/.exec(key);
  if (!match) continue;
  const [, base = '', form = ''] = match;
  families.set(base, (families.get(base) ?? new Map()).set(form, text));
}
const variables = (text: string) => [...text.matchAll(/{{(\w+)}}/g)].map((m) => m[1]).sort();

describe('Slovenian plural forms', () => {
  let i18n: ReturnType<typeof setupI18n>;
  beforeAll(() => {
    i18n = setupI18n();
  });

  it('are the four forms Intl.PluralRules knows for sl, a decimal taking few', () => {
    const rules = new Intl.PluralRules('sl');
    expect([...rules.resolvedOptions().pluralCategories].sort()).toEqual([...FORMS].sort());
    expect([1, 101, 2, 102, 3, 4, 103, 104, 0, 5, 11, 12, 13, 14, 100, 1.5, 2.5, 0.5].map((n) => rules.select(n))).toEqual([
      'one',
      'one',
      'two',
      'two',
      'few',
      'few',
      'few',
      'few',
      'other',
      'other',
      'other',
      'other',
      'other',
      'other',
      'other',
      'few',
      'few',
      'few',
    ]);
    for (let n = 0; n <= 105; n++) expect(rules.select(n), String(n)).toBe(formOf(n));
  });

  it('every plural family in sl.json has exactly one, two, few and other, with the same placeholders and no bare key', () => {
    expect(families.size).toBeGreaterThan(20);
    for (const [base, forms] of families) {
      expect([...forms.keys()].sort(), base).toEqual([...FORMS].sort());
      const other = variables(forms.get('other') ?? '');
      for (const form of FORMS) {
        // "one" may leave the number out ("vsak teden", "Prikazana je prva.").
        if (form !== 'one') expect(variables(forms.get(form) ?? ''), `${base}_${form}`).toEqual(other);
      }
      expect(entries.has(base), `${base} has a bare key besides its plural forms`).toBe(false);
    }
  });

  const CASES: { key: string; forms: Record<Form, string>; options?: (n: number) => Record<string, unknown> }[] = [
    {
      key: 'courses.creditPoints',
      forms: { one: 'kreditna točka', two: 'kreditni točki', few: 'kreditne točke', other: 'kreditnih točk' },
      options: (n) => pointsCount(n),
    },
    {
      key: 'courses.creditPointsEarned',
      forms: { one: 'kreditno točko.', two: 'kreditni točki.', few: 'kreditne točke.', other: 'kreditnih točk.' },
      options: (n) => pointsCount(n),
    },
    { key: 'home.coursesCount', forms: { one: 'izobraževanje', two: 'izobraževanji', few: 'izobraževanja', other: 'izobraževanj' } },
    { key: 'table.total', forms: { one: 'zapis', two: 'zapisa', few: 'zapisi', other: 'zapisov' } },
    { key: 'adminCourses.participants.count', forms: { one: 'uporabnik.', two: 'uporabnika.', few: 'uporabniki.', other: 'uporabnikov.' } },
    { key: 'exports.rows', forms: { one: 'vrstica', two: 'vrstici', few: 'vrstice', other: 'vrstic' } },
    { key: 'chambers.attempts', forms: { one: 'neuspešen poskus', two: 'neuspešna poskusa', few: 'neuspešni poskusi', other: 'neuspešnih poskusov' } },
    { key: 'live.secondsLeft', forms: { one: 'sekunda', two: 'sekundi', few: 'sekunde', other: 'sekund' } },
    { key: 'news.admin.actionButtonHint', forms: { one: 'znak.', two: 'znaka.', few: 'znaki.', other: 'znakov.' } },
    { key: 'news.admin.people', forms: { one: 'oseba', two: 'osebi', few: 'osebe', other: 'oseb' } },
    { key: 'adminCourses.posts.count', forms: { one: 'komentar', two: 'komentarja', few: 'komentarji', other: 'komentarjev' } },
    { key: 'people.openRequests', forms: { one: 'odprta zahteva', two: 'odprti zahtevi', few: 'odprte zahteve', other: 'odprtih zahtev' } },
    {
      key: 'home.completedThisYear',
      forms: { one: 'zaključeno izobraževanje', two: 'zaključeni izobraževanji', few: 'zaključena izobraževanja', other: 'zaključenih izobraževanj' },
    },
    { key: 'imports.rows', forms: { one: 'vrstica', two: 'vrstici', few: 'vrstice', other: 'vrstic' }, options: (n) => ({ count: n, n }) },
    {
      key: 'stats.profit.explain',
      forms: { one: 'ogled po 1 €.', two: 'ogleda po 1 €.', few: 'ogledi po 1 €.', other: 'ogledov po 1 €.' },
      options: (n) => ({ count: n, views: n, perView: '1 €' }),
    },
  ];

  // Every plural key, whatever its noun: for each count from 0 to 105 i18next picks the form Slovenian
  // grammar asks for (one: 1, 101; two: 2, 102; few: 3, 4, 103, 104; other: the rest), and a key
  // that lacks a form fails here rather than falling back to another form on the page.
  it.each([...families.keys()].sort())('%s: the form Slovenian asks for, for every count from 0 to 105', (base) => {
    const forms = families.get(base) ?? new Map<string, string>();
    const names = new Set(FORMS.flatMap((form) => variables(forms.get(form) ?? '')));
    for (let n = 0; n <= 105; n++) {
      const form = formOf(n);
      const template = forms.get(form);
      expect(template, `${base}_${form} is missing (needed for ${n})`).toBeDefined();
      // Every placeholder gets the count (shown as i18next shows it); the text is exactly that form's.
      const values = Object.fromEntries([...names].map((name) => [name, `${n}`]));
      const expected = (template ?? '').replace(/{{(\w+)}}/g, (_, name: string) => String(values[name]));
      expect(i18n.t(base, { ...values, count: n }), `${base} ${n}`).toBe(expected);
    }
  });

  // A number next to a noun outside a plural family shows the wrong form for most numbers
  // ("1 kreditnih točk"): every counted noun is a family above. What may follow a placeholder
  // outside one: names, dates and words that do not change with the number.
  it('no text outside a plural family puts a counted noun after a number', () => {
    const NOT_COUNTS = new Set(['email', 'platform', 'admin', 'when', 'answer', 'question', 'id', 'number', 'index', 'name', 'title', 'what']);
    // Unit abbreviations (1 h, 5 min) do not change with the number either.
    const INVARIABLE = new Set(['od', 'je', 'in', 'za', 'ni', 'nam', 'deluje', 'smo', 'zahteval', 'vprašanja', 'h', 'min']);
    const counted = [...entries]
      .filter(([key]) => !/_(one|two|few|other)$/.test(key))
      .flatMap(([key, text]) =>
        [...text.matchAll(/\{\{(\w+)\}\}\s+(\p{L}+)/gu)]
          .filter((m) => !NOT_COUNTS.has(m[1] ?? '') && !INVARIABLE.has(m[2] ?? ''))
          .map((m) => `${key}: ${m[0]}`),
      );
    expect(counted).toEqual([]);
    expect([...entries].filter(([key, text]) => !/_(one|two|few|other)$/.test(key) && text.includes('{{count}}')).map(([key]) => key)).toEqual([
      'courses.quiz.retriesLeft',
    ]);
  });

  it.each(CASES)('$key: the right form for every count from 0 to 105', ({ key, forms, options }) => {
    for (let n = 0; n <= 105; n++) {
      const text = i18n.t(key, options ? options(n) : { count: n });
      expect(text, `${key} ${n}`).toMatch(new RegExp(`\\b${n} (\\S+ )*${forms[formOf(n)].replace('.', '\\.')}$`));
    }
  });

  it('shows credit points without a needless ",0" and a decimal in the few form', () => {
    const credit = (n: number) => i18n.t('courses.creditPoints', pointsCount(n));
    expect([1, 2, 3, 5, 1.5, 2.5, 10].map(credit)).toEqual([
      '1 kreditna točka',
      '2 kreditni točki',
      '3 kreditne točke',
      '5 kreditnih točk',
      '1,5 kreditne točke',
      '2,5 kreditne točke',
      '10 kreditnih točk',
    ]);
    // Rounded as shown: 1,04 shows as 1 and reads as one point.
    expect(credit(1.04)).toBe('1 kreditna točka');
    expect(i18n.t('academies.points', { earned: '0', total: '1', count: 1 })).toBe('0 od 1 kreditne točke');
    expect(i18n.t('academies.progress', { done: 1, total: 2, count: 2 })).toBe('Zaključeno 1 od 2 izobraževanj');
  });
});
