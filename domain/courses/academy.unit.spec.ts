import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../tests/support/decider-spec.ts';
import { academyRule } from './academy.rules.ts';
import { type AcademyEvent, academyDecider } from './academy.ts';

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

const fields = academyRule.parse({
  title: 'Akademija farmakoterapije',
  description: 'Serija izobraževanj o farmakoterapiji za farmacevte.',
  cover: '/covers/akademija.svg',
  courseIds: [1, 2],
});
const created: AcademyEvent = { type: 'AcademyCreated', data: { academyId: 5, fields } };
const spec = deciderSpec(academyDecider);

describe('academy rules', () => {
  it('requires a title, cover, a description of at least 20 characters and courses, each once', () => {
    expect(messages(academyRule.safeParse({ title: ' ', description: 'Kratko', cover: '', courseIds: [] }))).toEqual({
      title: 'Vnos je obvezen',
      description: 'Opis mora imeti najmanj 20 znakov',
      cover: 'Vnos je obvezen',
      courseIds: 'Izberite vsaj eno izobraževanje',
    });
    expect(messages(academyRule.safeParse({ ...fields, courseIds: [1, 1] }))).toEqual({ courseIds: 'Izobraževanje je v akademiji le enkrat' });
    expect(academyRule.safeParse({ ...fields, extra: true }).success).toBe(false);
  });
});

describe('academy decider', () => {
  it('creates once, updates only on change, publishes and unpublishes once', () => {
    spec.given([]).when({ type: 'CreateAcademy', academyId: 5, fields }).thenExpect([created]);
    spec.given([created]).when({ type: 'CreateAcademy', academyId: 5, fields }).thenFails('409');
    spec.given([created]).when({ type: 'UpdateAcademy', fields }).thenExpect([]);
    spec
      .given([created])
      .when({ type: 'UpdateAcademy', fields: { ...fields, courseIds: [2, 1] } })
      .thenExpect([{ type: 'AcademyUpdated', data: { fields: { ...fields, courseIds: [2, 1] } } }]);
    spec
      .given([created])
      .when({ type: 'PublishAcademy' })
      .thenExpect([{ type: 'AcademyPublished', data: {} }]);
    spec
      .given([created, { type: 'AcademyPublished', data: {} }])
      .when({ type: 'PublishAcademy' })
      .thenExpect([]);
    spec.given([created]).when({ type: 'UnpublishAcademy' }).thenExpect([]);
  });

  it('refuses every change to a missing or deleted academy', () => {
    spec.given([]).when({ type: 'PublishAcademy' }).thenFails('404', 'Akademija ne obstaja.');
    spec
      .given([created, { type: 'AcademyDeleted', data: {} }])
      .when({ type: 'UpdateAcademy', fields })
      .thenFails('404');
    spec
      .given([created, { type: 'AcademyDeleted', data: {} }])
      .when({ type: 'DeleteAcademy' })
      .thenFails('404');
  });
});
