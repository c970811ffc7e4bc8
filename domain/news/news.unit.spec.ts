import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../tests/support/decider-spec.ts';
import { fold } from '../shared/decider.ts';
import { NEWS_LOCATION_TEXT_MAX, newsActionRule, newsRule } from './news.rules.ts';
import { isNewsFor, isNewsOn, type NewsEvent, type NewsReaderEvent, newsDecider, newsReaderDecider } from './news.ts';

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

const input = {
  title: 'Nova smernica za antikoagulante',
  htmlContent: '<p>Preberite novo smernico.</p>',
  image: 'https://cdn.zdravje.si/smernica.png',
  actionUrl: 'https://zdravje.si/smernica',
  actionButtonText: 'Preberi',
  active: true,
  dateFrom: '2026-03-01T08:00:00.000Z',
  dateTo: '2026-03-31T22:00:00.000Z',
  location: 1,
  recipients: { professionIds: [3], unitIds: [], companyIds: [], groupIds: [] },
};
const fields = newsRule.parse(input);
const created: NewsEvent = { type: 'NewsCreated', data: { newsId: 7, fields } };

describe('news rules (spec §5)', () => {
  it('requires title, content, start and end dates, in Slovenian', () => {
    expect(messages(newsRule.safeParse({ title: ' ', htmlContent: '<p><br></p>', dateFrom: '', dateTo: '' }))).toEqual({
      title: 'Vnos je obvezen',
      htmlContent: 'Vnos je obvezen',
      dateFrom: 'Vnos je obvezen',
      dateTo: 'Vnos je obvezen',
    });
    expect(messages(newsRule.safeParse({ title: 'Novica', htmlContent: '<p>Vsebina</p>' }))).toEqual({
      dateFrom: 'Vnos je obvezen',
      dateTo: 'Vnos je obvezen',
    });
    expect(messages(newsRule.safeParse({ ...input, dateFrom: '1. 3. 2026' }))).toEqual({ dateFrom: 'Vnesite veljaven datum' });
  });

  it('wants the start before the end', () => {
    expect(messages(newsRule.safeParse({ ...input, dateTo: input.dateFrom }))).toEqual({ dateTo: 'Konec mora biti po začetku' });
    expect(messages(newsRule.safeParse({ ...input, dateTo: '2026-02-01T00:00:00.000Z' }))).toEqual({ dateTo: 'Konec mora biti po začetku' });
  });

  it('takes only a valid https action URL or a page of the platform, and an image by https or uploaded', () => {
    for (const actionUrl of [
      'http://zdravje.si',
      'javascript:alert(1)',
      'https://',
      'https://localhost/x',
      'zdravje.si',
      'https://a b.si',
      '//evil.si/x',
      '/\\evil.si',
    ]) {
      expect(messages(newsRule.safeParse({ ...input, actionUrl })), actionUrl).toEqual({
        actionUrl: 'Vnesite veljaven naslov (https://…) ali stran platforme (npr. /izobrazevanja)',
      });
    }
    expect(newsRule.parse({ ...input, actionUrl: '/izobrazevanja?filter=new' }).actionUrl).toBe('/izobrazevanja?filter=new');
    expect(newsRule.parse({ ...input, image: '/api/files/12' }).image).toBe('/api/files/12');
    expect(messages(newsRule.safeParse({ ...input, image: '/etc/passwd' }))).toEqual({ image: 'Vnesite veljaven naslov (https://…)' });
    expect(newsRule.parse({ ...input, image: '', actionUrl: '', actionButtonText: '' })).toMatchObject({
      image: null,
      actionUrl: null,
      actionButtonText: null,
    });
  });

  it('keeps the button text short, and a button has both its text and its address', () => {
    expect(newsRule.safeParse({ ...input, actionButtonText: 'x'.repeat(40) }).success).toBe(true);
    expect(messages(newsRule.safeParse({ ...input, actionButtonText: 'x'.repeat(41) }))).toEqual({
      actionButtonText: 'Besedilo gumba je predolgo (največ 40 znakov)',
    });
    expect(messages(newsRule.safeParse({ ...input, actionButtonText: '' }))).toEqual({ actionButtonText: 'Vnesite besedilo gumba' });
    expect(messages(newsRule.safeParse({ ...input, actionUrl: null }))).toEqual({ actionUrl: 'Vnesite naslov, ki ga gumb odpre' });
  });

  it('knows locations 1 and 2 and actions 1 to 4 only, and nothing else', () => {
    expect(newsRule.parse({ ...input, location: undefined }).location).toBe(1);
    expect(messages(newsRule.safeParse({ ...input, location: 3 }))).toEqual({ location: 'Izberite, kje se novica prikaže' });
    expect(newsRule.safeParse({ ...input, extra: 1 }).success).toBe(false);
    expect(newsActionRule.safeParse({ action: 4 }).success).toBe(true);
    expect(newsActionRule.safeParse({ action: 5 }).success).toBe(false);
    expect(newsActionRule.safeParse({ action: '1' }).success).toBe(false);
    expect(NEWS_LOCATION_TEXT_MAX).toBe(32);
  });
});

describe('news decider', () => {
  const spec = deciderSpec(newsDecider);
  it('creates once, changes only on a difference, deletes once', () => {
    spec.given([]).when({ type: 'CreateNews', newsId: 7, fields }).thenExpect([created]);
    spec.given([created]).when({ type: 'CreateNews', newsId: 7, fields }).thenFails('409');
    spec.given([created]).when({ type: 'UpdateNews', fields }).thenExpect([]);
    spec
      .given([created])
      .when({ type: 'UpdateNews', fields: { ...fields, active: false } })
      .thenExpect([{ type: 'NewsUpdated', data: { fields: { ...fields, active: false } } }]);
    spec
      .given([created])
      .when({ type: 'DeleteNews' })
      .thenExpect([{ type: 'NewsDeleted', data: {} }]);
  });

  it('refuses every change to a missing or deleted news item', () => {
    spec.given([]).when({ type: 'UpdateNews', fields }).thenFails('404', 'Novica ne obstaja.');
    spec
      .given([created, { type: 'NewsDeleted', data: {} }])
      .when({ type: 'DeleteNews' })
      .thenFails('404');
    spec
      .given([created, { type: 'NewsDeleted', data: {} }])
      .when({ type: 'UpdateNews', fields })
      .thenFails('404');
  });
});

describe("a reader's actions (spec §4: 1 shown, 2 declined, 3 engaged, 4 deferred)", () => {
  const spec = deciderSpec(newsReaderDecider);
  const recorded = (action: 1 | 2 | 3 | 4): NewsReaderEvent => ({ type: 'NewsActionRecorded', data: { newsId: 7, userId: 5, action } });

  it('records every action once per call, also one that repeats', () => {
    spec
      .given([])
      .when({ type: 'RecordNewsAction', newsId: 7, userId: 5, action: 1 })
      .thenExpect([recorded(1)]);
    spec
      .given([recorded(1), recorded(4)])
      .when({ type: 'RecordNewsAction', newsId: 7, userId: 5, action: 4 })
      .thenExpect([recorded(4)]);
    spec
      .given([recorded(1)])
      .when({ type: 'RecordNewsAction', newsId: 8, userId: 5, action: 1 })
      .thenFails('409');
  });

  it('counts the actions and keeps the latest answer (declined or engaged)', () => {
    const state = fold(newsReaderDecider, [recorded(1), recorded(4), recorded(1), recorded(2), recorded(3), recorded(4)]);
    expect(state).toEqual({ status: 'seen', newsId: 7, userId: 5, counts: { 1: 2, 2: 1, 3: 1, 4: 2 }, answer: 3 });
    expect(fold(newsReaderDecider, [recorded(1), recorded(4)])).toMatchObject({ answer: null });
  });
});

describe('who a news item is for, and when', () => {
  const none = { professionIds: [], companyIds: [], unitIds: [], groupIds: [] };
  const reader = { unitIds: new Set([11]), companyIds: new Set([1]), groupIds: new Set([5]), professionId: 3 };

  it('is for everyone without recipients, also a reader without unit or profession', () => {
    expect(isNewsFor(none, { unitIds: new Set(), companyIds: new Set(), groupIds: new Set(), professionId: null })).toBe(true);
  });

  it('matches any one of unit, company or group, and the profession when named', () => {
    expect(isNewsFor({ ...none, unitIds: [11] }, reader)).toBe(true);
    expect(isNewsFor({ ...none, companyIds: [1] }, reader)).toBe(true);
    expect(isNewsFor({ ...none, groupIds: [5] }, reader)).toBe(true);
    expect(isNewsFor({ ...none, unitIds: [12], companyIds: [2], groupIds: [6] }, reader)).toBe(false);
    expect(isNewsFor({ ...none, professionIds: [3, 4] }, reader)).toBe(true);
    expect(isNewsFor({ ...none, professionIds: [4] }, reader)).toBe(false);
    expect(isNewsFor({ ...none, professionIds: [3] }, { ...reader, professionId: null })).toBe(false);
    expect(isNewsFor({ ...none, unitIds: [11], professionIds: [4] }, reader)).toBe(false);
    expect(isNewsFor({ ...none, unitIds: [11], professionIds: [3] }, reader)).toBe(true);
  });

  it('is on while active, from its start until (not at) its end', () => {
    const on = { active: true, dateFrom: '2026-03-01T08:00:00.000Z', dateTo: '2026-03-02T08:00:00.000Z' };
    expect(isNewsOn(on, new Date('2026-03-01T07:59:59Z'))).toBe(false);
    expect(isNewsOn(on, new Date('2026-03-01T08:00:00Z'))).toBe(true);
    expect(isNewsOn(on, new Date('2026-03-02T08:00:00Z'))).toBe(false);
    expect(isNewsOn({ ...on, active: false }, new Date('2026-03-01T12:00:00Z'))).toBe(false);
  });
});
