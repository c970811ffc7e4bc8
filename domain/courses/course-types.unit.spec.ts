import { describe, expect, it } from 'vitest';
import { type CourseFields, courseRule } from './course.rules.ts';
import { type CourseCommand, type CourseEvent, type CourseState, courseDecider } from './course.ts';
import {
  CERTIFIED_NO_CERTIFICATE,
  CERTIFIED_NO_POINTS,
  COURSE_TYPE_HELP,
  type CourseTypeContext,
  courseTypeProblems,
  INFORMATIVE_CERTIFICATE,
  INFORMATIVE_POINTS,
  INFORMATIVE_POINTS_BLOCK,
  isPrescriptionOnly,
  RX_NO_PROFESSIONS,
  RX_PUBLIC,
  rxProfessionRefused,
} from './course-types.rules.ts';
import { withCourseTypeRules } from './course-types.ts';

/** Professions: 1 doctor and 2 pharmacist may prescribe or supply, 3 nurse may not. */
const context: CourseTypeContext = {
  professions: new Map([
    [1, { name: 'Zdravnik', mayPrescribe: true }],
    [2, { name: 'Magister farmacije', mayPrescribe: true }],
    [3, { name: 'Medicinska sestra', mayPrescribe: false }],
  ]),
};

const fields = (over: Record<string, unknown> = {}): CourseFields =>
  courseRule.parse({ type: 3, title: 'Tečaj', description: 'Opis izobraževanja, dovolj dolg.', cover: '/c.jpg', creditPoints: 1, ...over });
const audience = (professionIds: number[]) => ({ byProfession: true, professionIds, unitIds: [], companyIds: [], groupIds: [] });
const problems = (over: Record<string, unknown>, stage: 'save' | 'publish', blockKinds: string[] = []) =>
  courseTypeProblems({ fields: fields(over), blockKinds }, stage, context);

describe('rules of the course types (decision 0062)', () => {
  describe('1 RX', () => {
    it('is never public, at save and at publish', () => {
      expect(problems({ type: 1, public: true }, 'save')).toContainEqual({ field: 'public', message: RX_PUBLIC });
      expect(problems({ type: 1, public: true }, 'publish')).toContainEqual({ field: 'public', message: RX_PUBLIC });
    });

    it('names only professions that may prescribe or supply medicines, at save', () => {
      expect(problems({ type: 1, audience: audience([1, 2]) }, 'save')).toEqual([]);
      expect(problems({ type: 1, audience: audience([1, 3]) }, 'save')).toEqual([
        { field: 'audience.professionIds', message: rxProfessionRefused('Medicinska sestra') },
      ]);
      expect(rxProfessionRefused('Medicinska sestra')).toBe(
        'Poklic »Medicinska sestra« ne sme predpisovati ali izdajati zdravil, zato izobraževanja o zdravilu na recept (Rx) ne sme prejeti.',
      );
      // A profession that no longer exists is no prescriber either.
      expect(problems({ type: 1, audience: audience([99]) }, 'save')).toEqual([{ field: 'audience.professionIds', message: rxProfessionRefused(null) }]);
    });

    it('may be saved as a draft before its audience is set, but names professions before publishing', () => {
      expect(problems({ type: 1 }, 'save')).toEqual([]);
      expect(problems({ type: 1 }, 'publish')).toEqual([{ field: 'audience.professionIds', message: RX_NO_PROFESSIONS }]);
      expect(problems({ type: 1, audience: { ...audience([]), byProfession: false, unitIds: [5] } }, 'publish')).toEqual([
        { field: 'audience.professionIds', message: RX_NO_PROFESSIONS },
      ]);
      expect(problems({ type: 1, audience: audience([2]) }, 'publish')).toEqual([]);
    });

    it('is the only prescription-only type', () => {
      expect([1, 2, 3, 4, 5, 6, 7, 8, 9].filter(isPrescriptionOnly)).toEqual([1]);
    });
  });

  describe('4 certified education', () => {
    it('needs credit points and a certificate before publishing, not in a draft', () => {
      expect(problems({ type: 4, creditPoints: 0, certificateEnabled: false }, 'save')).toEqual([]);
      expect(problems({ type: 4, creditPoints: 0, certificateEnabled: false }, 'publish')).toEqual([
        { field: 'creditPoints', message: CERTIFIED_NO_POINTS },
        { field: 'certificateEnabled', message: CERTIFIED_NO_CERTIFICATE },
      ]);
      expect(problems({ type: 4, creditPoints: 0.5, certificateEnabled: true }, 'publish')).toEqual([]);
    });
  });

  describe('5 informative content', () => {
    it('gives no credit points and no certificate, and needs no quiz', () => {
      expect(problems({ type: 5, creditPoints: 0, certificateEnabled: false }, 'publish', ['article'])).toEqual([]);
      expect(problems({ type: 5, creditPoints: 0, certificateEnabled: false }, 'publish', ['article', 'quiz'])).toEqual([]);
      expect(problems({ type: 5, creditPoints: 1, certificateEnabled: true }, 'save')).toEqual([
        { field: 'creditPoints', message: INFORMATIVE_POINTS },
        { field: 'certificateEnabled', message: INFORMATIVE_CERTIFICATE },
      ]);
      expect(problems({ type: 5, creditPoints: 0, certificateEnabled: false }, 'save', ['points'])).toEqual([
        { field: 'kind', message: INFORMATIVE_POINTS_BLOCK },
      ]);
    });
  });

  describe('2 OTC, 3 professional education and 6 to 9', () => {
    it('keep the general rules only: public or not, with or without points and certificate', () => {
      for (const type of [2, 3, 6, 7, 8, 9]) {
        expect(problems({ type, public: true, creditPoints: 0, certificateEnabled: false }, 'publish')).toEqual([]);
        expect(problems({ type, creditPoints: 2, audience: audience([3]) }, 'publish')).toEqual([]);
      }
    });
  });

  it('explains every type in the editor', () => {
    for (const type of [1, 2, 3, 4, 5, 6, 7, 8, 9]) expect(COURSE_TYPE_HELP[type]?.length).toBeGreaterThan(3);
  });
});

describe('the course decider with the type rules (decision 0062)', () => {
  const created = (over: Record<string, unknown>): CourseEvent => ({
    type: 'CourseCreated',
    data: { courseId: 7, fields: fields(over) as unknown as Record<string, unknown> },
  });
  const article: CourseEvent = { type: 'CourseBlockAdded', data: { blockId: 1, position: 0, block: { kind: 'article', name: 'A', html: '<p>x</p>' } } };
  const given = (...events: CourseEvent[]): CourseState => events.reduce(courseDecider.evolve, courseDecider.initialState);
  /** A decider that decides what it is told: the wrapper is tested apart from the course's own decisions. */
  const deciding = (events: CourseEvent[]) => withCourseTypeRules({ ...courseDecider, decide: () => events }, context);
  const refusal = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      const e = error as { status: number; field: string; message: string };
      return { status: e.status, field: e.field, message: e.message };
    }
    return null;
  };

  it('refuses to create or update a public RX course, with the field and the Slovenian message', () => {
    const rules = withCourseTypeRules(courseDecider, context);
    expect(refusal(() => rules.decide({ type: 'CreateCourse', courseId: 7, fields: fields({ type: 1, public: true }) }, given()))).toEqual({
      status: 422,
      field: 'public',
      message: RX_PUBLIC,
    });
    const draft = given(created({ type: 3, public: true }));
    expect(refusal(() => rules.decide({ type: 'UpdateCourse', fields: fields({ type: 1, public: true }) }, draft))).toMatchObject({ field: 'public' });
    expect(rules.decide({ type: 'UpdateCourse', fields: fields({ type: 1, audience: audience([1]) }) }, draft)).toHaveLength(1);
  });

  it('re-runs the publish rules when a published course changes type', () => {
    const published = given(created({ type: 3, creditPoints: 0 }), article, { type: 'CoursePublished', data: {} });
    const rules = withCourseTypeRules(courseDecider, context);
    expect(refusal(() => rules.decide({ type: 'UpdateCourse', fields: fields({ type: 4, creditPoints: 0 }) }, published))).toEqual({
      status: 422,
      field: 'creditPoints',
      message: CERTIFIED_NO_POINTS,
    });
    expect(refusal(() => rules.decide({ type: 'UpdateCourse', fields: fields({ type: 1 }) }, published))).toMatchObject({ message: RX_NO_PROFESSIONS });
    expect(rules.decide({ type: 'UpdateCourse', fields: fields({ type: 4, creditPoints: 1 }) }, published)).toHaveLength(1);
  });

  it('checks the publish rules at publishing and restoring', () => {
    const draft = given(created({ type: 4, creditPoints: 0 }), article);
    const publish = { type: 'PublishCourse' } as CourseCommand;
    expect(refusal(() => deciding([{ type: 'CoursePublished', data: {} }]).decide(publish, draft))).toMatchObject({ field: 'creditPoints' });
    const archived = given(created({ type: 1 }), article, { type: 'CoursePublished', data: {} }, { type: 'CourseArchived', data: {} });
    const restore = { type: 'RestoreCourse' } as CourseCommand;
    expect(refusal(() => deciding([{ type: 'CourseRestored', data: {} }]).decide(restore, archived))).toMatchObject({ message: RX_NO_PROFESSIONS });
  });

  it('tells what the type requires before anything else refuses a publish or a submission for approval', () => {
    const draft = given(created({ type: 4, creditPoints: 0 }), article);
    const approvalMissing = withCourseTypeRules(
      {
        ...courseDecider,
        decide: () => {
          throw new Error('Izobraževanje mora biti pred objavo odobreno.');
        },
      },
      context,
    );
    for (const type of ['PublishCourse', 'SubmitCourseApproval']) {
      expect(refusal(() => approvalMissing.decide({ type } as CourseCommand, draft))).toMatchObject({ status: 422, field: 'creditPoints' });
    }
  });

  it('refuses to publish an RX course whose profession lost the flag', () => {
    const draft = given(created({ type: 1, audience: audience([1]) }), article);
    const lost: CourseTypeContext = { professions: new Map([[1, { name: 'Zdravnik', mayPrescribe: false }]]) };
    const rules = withCourseTypeRules({ ...courseDecider, decide: () => [{ type: 'CoursePublished', data: {} }] }, lost);
    expect(refusal(() => rules.decide({ type: 'PublishCourse' } as CourseCommand, draft))).toMatchObject({ message: rxProfessionRefused('Zdravnik') });
  });

  it('lets a course that breaks a rule be taken down, and its blocks be edited, but no block bring in a new problem', () => {
    const legacy = given(created({ type: 1, public: true }), article, { type: 'CoursePublished', data: {} });
    expect(deciding([{ type: 'CourseUnpublished', data: {} }]).decide({ type: 'UnpublishCourse' }, legacy)).toHaveLength(1);
    expect(deciding([{ type: 'CourseDeleted', data: {} }]).decide({ type: 'DeleteCourse' }, legacy)).toHaveLength(1);
    const more: CourseEvent = { type: 'CourseBlockAdded', data: { blockId: 2, position: 1, block: { kind: 'article', name: 'B', html: '<p>y</p>' } } };
    expect(deciding([more]).decide({ type: 'AddBlock', blockId: 2, block: more.data.block } as CourseCommand, legacy)).toHaveLength(1);
    const informative = given(created({ type: 5, creditPoints: 0, certificateEnabled: false }));
    const points: CourseEvent = { type: 'CourseBlockAdded', data: { blockId: 3, position: 0, block: { kind: 'points', name: 'Točke', points: 1 } } };
    expect(refusal(() => deciding([points]).decide({ type: 'AddBlock', blockId: 3, block: points.data.block } as CourseCommand, informative))).toEqual({
      status: 422,
      field: 'kind',
      message: INFORMATIVE_POINTS_BLOCK,
    });
  });
});
