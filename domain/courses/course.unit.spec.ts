import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../tests/support/decider-spec.ts';
import { fold } from '../shared/decider.ts';
import { blockRule, courseRule, quizBlockRule, videoBlockRule } from './course.rules.ts';
import { blocksAt, type CourseEvent, courseDecider } from './course.ts';
import { costFigures, courseCostsRule } from './course-costs.rules.ts';
import { courseStatus } from './course-status.ts';
import { COVER_ADDRESS_MESSAGE } from './cover.rules.ts';

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

const valid = {
  type: 4,
  title: 'Interakcije zdravil',
  description: 'Pregled najpogostejših interakcij zdravil v lekarni.',
  cover: '/covers/1.jpg',
  creditPoints: 1.5,
};
const fields = courseRule.parse(valid);

describe('course rules (spec §5)', () => {
  it('requires name, cover, description of at least 20 characters and points', () => {
    expect(messages(courseRule.safeParse({ type: 4, title: '', description: 'kratko', cover: '' }))).toEqual({
      title: 'Vnos je obvezen',
      description: 'Opis mora imeti najmanj 20 znakov',
      cover: 'Vnos je obvezen',
      creditPoints: 'Vnos je obvezen',
    });
  });

  it('keeps credit points between 0.0 and 10.0 with one decimal, and discount between 0 and 100', () => {
    expect(messages(courseRule.safeParse({ ...valid, creditPoints: 10.5 }))).toEqual({ creditPoints: 'Kreditne točke morajo biti med 0,0 in 10,0' });
    expect(messages(courseRule.safeParse({ ...valid, creditPoints: 1.25 }))).toEqual({ creditPoints: 'Kreditne točke imajo največ eno decimalno mesto' });
    expect(courseRule.safeParse({ ...valid, creditPoints: 0 }).success).toBe(true);
    expect(courseRule.safeParse({ ...valid, creditPoints: 10 }).success).toBe(true);
    expect(messages(courseRule.safeParse({ ...valid, discount: 101 }))).toEqual({ discount: 'Popust mora biti med 0 in 100 %' });
    expect(messages(courseRule.safeParse({ ...valid, sharedCostCents: 'a' }))).toEqual({ sharedCostCents: 'Vnesite število' });
  });

  it('takes an optional duration in whole minutes from 1 to 6000 (the course card shows it)', () => {
    expect(courseRule.parse(valid).durationMinutes).toBeNull();
    expect(courseRule.parse({ ...valid, durationMinutes: 90 }).durationMinutes).toBe(90);
    for (const durationMinutes of [0, 6001, 1.5, -5, '90'])
      expect(messages(courseRule.safeParse({ ...valid, durationMinutes })), String(durationMinutes)).toEqual({
        durationMinutes: 'Trajanje je celo število minut med 1 in 6000',
      });
  });

  it('refuses a public course with targeted users, targeting by profession without a profession, and duplicate intervals', () => {
    expect(messages(courseRule.safeParse({ ...valid, public: true, audience: { unitIds: [3] } }))).toEqual({
      public: 'Javno izobraževanje ne sme imeti izbranih ciljnih uporabnikov',
    });
    expect(messages(courseRule.safeParse({ ...valid, audience: { byProfession: true } }))).toEqual({ 'audience.professionIds': 'Izberite vsaj en poklic' });
    const interval = { startsAt: '2026-01-01T00:00:00Z', stopsAt: '2026-02-01T00:00:00Z' };
    expect(messages(courseRule.safeParse({ ...valid, intervals: [interval, { ...interval }] }))).toEqual({ 'intervals.1': 'Podvojeni termini niso dovoljeni' });
    expect(messages(courseRule.safeParse({ ...valid, intervals: [{ startsAt: interval.stopsAt, stopsAt: interval.startsAt }] }))).toEqual({
      'intervals.0.stopsAt': 'Konec mora biti po začetku',
    });
  });
});

describe('cover addresses', () => {
  it('takes an uploaded file, a path here, an https address or an inline image; refuses other schemes', () => {
    for (const cover of [
      '/api/files/12',
      '/covers/a.jpg',
      'https://cdn.example.si/a.png',
      'data:image/png;base64,iVBORw0KGgo=',
      'data:image/svg+xml;utf8,%3Csvg%3E',
    ])
      expect(courseRule.safeParse({ ...valid, cover }).success, cover).toBe(true);
    for (const cover of ['javascript:alert(1)', 'http://example.si/a.jpg', '//evil.example/a.jpg', 'data:text/html,<b>x</b>', 'ftp://x/a.jpg', 'slika.jpg'])
      expect(messages(courseRule.safeParse({ ...valid, cover })), cover).toEqual({ cover: COVER_ADDRESS_MESSAGE });
  });
});

describe('block rules (spec §5)', () => {
  const question = (id: string, correct = 'a') => ({
    id,
    text: `Vprašanje ${id}`,
    answers: [
      { id: 'a', text: 'A', correct: correct === 'a' },
      { id: 'b', text: 'B', correct: correct === 'b' },
    ],
  });

  it('quiz: at least one question, batch size not above the number of questions, texts required, one correct answer', () => {
    expect(messages(quizBlockRule.safeParse({ kind: 'quiz', name: 'Kviz', batchSize: 1, successThreshold: 50, questions: [] }))).toEqual({
      questions: 'Kviz potrebuje vsaj eno vprašanje',
    });
    expect(
      messages(quizBlockRule.safeParse({ kind: 'quiz', name: 'Kviz', batchSize: 3, successThreshold: 50, questions: [question('1'), question('2')] })),
    ).toEqual({
      batchSize: 'Velikost sklopa ne sme presegati števila vprašanj',
    });
    expect(messages(quizBlockRule.safeParse({ kind: 'quiz', name: 'Kviz', batchSize: 1, successThreshold: 50, questions: [question('1', 'none')] }))).toEqual({
      'questions.0.answers': 'Izberite pravilen odgovor',
    });
    const blank = {
      ...question('1'),
      text: ' ',
      answers: [
        { id: 'a', text: '', correct: true },
        { id: 'b', text: 'B', correct: false },
      ],
    };
    expect(messages(quizBlockRule.safeParse({ kind: 'quiz', name: 'Kviz', batchSize: 1, successThreshold: 50, questions: [blank] }))).toEqual({
      'questions.0.text': 'Vnos je obvezen',
      'questions.0.answers.0.text': 'Vnos je obvezen',
    });
    // Answers are given by id: ids repeated within a quiz or a question are refused.
    expect(
      messages(quizBlockRule.safeParse({ kind: 'quiz', name: 'Kviz', batchSize: 1, successThreshold: 50, questions: [question('q1'), question('q1')] })),
    ).toEqual({ questions: 'Vprašanja v kvizu se ponavljajo' });
    const twice = { ...question('1'), answers: [...question('1').answers, { id: 'a', text: 'C', correct: false }] };
    expect(messages(quizBlockRule.safeParse({ kind: 'quiz', name: 'Kviz', batchSize: 1, successThreshold: 50, questions: [twice] }))).toEqual({
      'questions.0.answers': 'Odgovori vprašanja se ponavljajo',
    });
  });

  it('quiz outcome (issue 33): explanations, when answers are shown, and what follows the last failed attempt, with defaults for stored quizzes', () => {
    const base = { kind: 'quiz', name: 'Kviz', batchSize: 1, successThreshold: 50, questions: [question('1')] };
    // A quiz saved before these settings existed reads with the defaults: answers after the last attempt, a new set after 24 hours.
    expect(quizBlockRule.parse(base)).toMatchObject({
      revealAnswers: 'afterLast',
      afterLastFail: { kind: 'wait', hours: 24 },
      questions: [{ explanation: '' }],
    });
    const ending = { kind: 'end', message: 'Žal niste uspeli.', contact: 'izobrazevanje@lekarna.si' };
    expect(quizBlockRule.parse({ ...base, revealAnswers: 'never', afterLastFail: ending })).toMatchObject({ revealAnswers: 'never', afterLastFail: ending });
    expect(messages(quizBlockRule.safeParse({ ...base, revealAnswers: 'sometimes' }))).toEqual({
      revealAnswers: 'Izberite, kdaj udeleženec vidi pravilne odgovore',
    });
    expect(messages(quizBlockRule.safeParse({ ...base, afterLastFail: { kind: 'wait', hours: 0 } }))).toEqual({
      'afterLastFail.hours': 'Čakanje je od 1 do 720 ur',
    });
    expect(messages(quizBlockRule.safeParse({ ...base, afterLastFail: { kind: 'wait', hours: 721 } }))).toEqual({
      'afterLastFail.hours': 'Čakanje je od 1 do 720 ur',
    });
    expect(messages(quizBlockRule.safeParse({ ...base, afterLastFail: { kind: 'wait', hours: 1.5 } }))).toEqual({
      'afterLastFail.hours': 'Vpišite celo število ur',
    });
    expect(messages(quizBlockRule.safeParse({ ...base, afterLastFail: { kind: 'end', message: ' ', contact: '' } }))).toEqual({
      'afterLastFail.message': 'Vpišite sporočilo udeležencu',
      'afterLastFail.contact': 'Vpišite, na koga naj se udeleženec obrne',
    });
    expect(messages(quizBlockRule.safeParse({ ...base, afterLastFail: { ...ending, message: 'x'.repeat(2001), contact: 'y'.repeat(301) } }))).toEqual({
      'afterLastFail.message': 'Vnos je predolg',
      'afterLastFail.contact': 'Vnos je predolg',
    });
    expect(messages(quizBlockRule.safeParse({ ...base, questions: [{ ...question('1'), explanation: 'z'.repeat(5001) }] }))).toEqual({
      'questions.0.explanation': 'Vnos je predolg',
    });
  });

  it('video: a Vimeo id or a file, with an optional article or text-file alternative', () => {
    expect(messages(videoBlockRule.safeParse({ kind: 'video', name: 'Video' }))).toEqual({ vimeoId: 'Vnesite Vimeo ID ali naslov video datoteke' });
    expect(
      videoBlockRule.safeParse({ kind: 'video', name: 'Video', vimeoId: '76979871', alternative: { kind: 'article', html: '<p>Besedilo</p>' } }).success,
    ).toBe(true);
    expect(
      blockRule.safeParse({ kind: 'nps', name: 'NPS', question: 'Bi priporočili?', set: 6, reasons: { detractor: [], neutral: [], promoter: [] } }).success,
    ).toBe(false);
    expect(blockRule.safeParse({ kind: 'typeform', name: 'Anketa', typeformId: 'abc123' }).success).toBe(true);
  });

  it('accepts only https addresses and files under /media/ as sources, never a script or a path out of /media/', () => {
    const video = (fileUrl: string) => videoBlockRule.safeParse({ kind: 'video', name: 'Video', fileUrl }).success;
    expect(video('/media/uvod.webm')).toBe(true);
    expect(video('https://cdn.example.si/uvod.mp4')).toBe(true);
    for (const bad of ['javascript:alert(1)', 'http://cdn.example.si/uvod.mp4', '/media/../etc/passwd', 'data:text/html,<script>'])
      expect(video(bad), bad).toBe(false);
    expect(messages(blockRule.safeParse({ kind: 'textFile', name: 'Datoteka', fileUrl: 'javascript:alert(1)' }))).toEqual({
      fileUrl: 'Vnesite veljaven naslov',
    });
    expect(messages(blockRule.safeParse({ kind: 'textFile', name: 'Datoteka', fileUrl: '' }))).toEqual({ fileUrl: 'Vnos je obvezen' });
  });
});

describe('course decider', () => {
  const spec = deciderSpec(courseDecider);
  const created: CourseEvent = { type: 'CourseCreated', data: { courseId: 7, fields: fields as never } };
  const video = videoBlockRule.parse({ kind: 'video', name: 'Uvod', vimeoId: '1' });
  const added: CourseEvent = { type: 'CourseBlockAdded', data: { blockId: 1, position: 0, block: video as never } };

  /** Courses whose scope has approval off (issue 36): publishing as before. */
  const NO_APPROVAL = { steps: null, actorId: null, now: new Date(0) };
  it('publishes only a course with content, once; unpublishes once', () => {
    spec.given([created]).when({ type: 'PublishCourse', approval: NO_APPROVAL }).thenFails('422');
    spec
      .given([created, added])
      .when({ type: 'PublishCourse', approval: NO_APPROVAL })
      .thenExpect([{ type: 'CoursePublished', data: {} }]);
    spec
      .given([created, added, { type: 'CoursePublished', data: {} }])
      .when({ type: 'PublishCourse', approval: NO_APPROVAL })
      .thenExpect([]);
    spec.given([created, added]).when({ type: 'UnpublishCourse' }).thenExpect([]);
  });

  it('refuses itself as a prerequisite and changes to a deleted course', () => {
    spec
      .given([])
      .when({ type: 'CreateCourse', courseId: 7, fields: { ...fields, prerequisites: [7] } })
      .thenFails('400');
    spec
      .given([created, { type: 'CourseDeleted', data: {} }])
      .when({ type: 'UpdateCourse', fields })
      .thenFails('404');
  });

  it("adds, moves and removes blocks, and never changes a block's kind", () => {
    spec.given([created]).when({ type: 'AddBlock', blockId: 1, block: video }).thenExpect([added]);
    spec.given([created, added]).when({ type: 'AddBlock', blockId: 1, block: video }).thenFails('409');
    spec
      .given([created, added])
      .when({ type: 'UpdateBlock', blockId: 1, block: { kind: 'article', name: 'x', html: 'y' } })
      .thenFails('400');
    spec.given([created, added]).when({ type: 'MoveBlock', blockId: 1, position: 0 }).thenExpect([]);
    spec.given([created, added]).when({ type: 'RemoveBlock', blockId: 2 }).thenFails('404');
  });

  it('counts every block change as a content version and keeps the blocks of each (decision 0021)', () => {
    const article = blockRule.parse({ kind: 'article', name: 'Povzetek', html: '<p>A</p>' });
    const history: CourseEvent[] = [
      created,
      added,
      { type: 'CourseBlockAdded', data: { blockId: 2, position: 1, block: article as never } },
      { type: 'CoursePublished', data: {} },
      { type: 'CourseBlockMoved', data: { blockId: 2, position: 0 } },
      { type: 'CourseBlockRemoved', data: { blockId: 1 } },
    ];
    const course = fold(courseDecider, history);
    if (course.status === 'none') throw new Error('no course');
    expect(course.contentVersion).toBe(4);
    const ids = (version: number | null) => blocksAt(course, version).map((b) => b.id);
    expect([0, 1, 2, 3, 4].map(ids)).toEqual([[], [1], [1, 2], [2, 1], [2]]);
    expect(ids(null)).toEqual([2]);
    // Publishing or editing the course's fields is no content change.
    expect(fold(courseDecider, [...history, { type: 'CourseUpdated', data: { fields: fields as never } }])).toMatchObject({ contentVersion: 4 });
  });
});

describe('course costs (spec §3, §4, §9)', () => {
  const spec = deciderSpec(courseDecider);
  const video = videoBlockRule.parse({ kind: 'video', name: 'Uvod', vimeoId: '1' });
  const created = (intervals: { startsAt: string; stopsAt: string }[]): CourseEvent => ({
    type: 'CourseCreated',
    data: { courseId: 7, fields: courseRule.parse({ ...valid, intervals }) as never },
  });
  const added: CourseEvent = { type: 'CourseBlockAdded', data: { blockId: 1, position: 0, block: video as never } };
  const published: CourseEvent = { type: 'CoursePublished', data: {} };
  const now = new Date('2026-06-15T12:00:00Z');
  const costs = courseCostsRule.parse({ discount: 10, companyId: 3 });
  const june = [{ startsAt: '2026-06-01T00:00:00Z', stopsAt: '2026-07-01T00:00:00Z' }];
  const autumn = [{ startsAt: '2026-09-01T00:00:00Z', stopsAt: '2026-10-01T00:00:00Z' }];

  it('defaults to the spec §9 amounts, in cents', () => {
    expect(courseCostsRule.parse({})).toMatchObject({
      archiveAmount: 30_000,
      productionAmount: 45_000,
      viewAmount: 785,
      detailedNpsAmount: 78_000,
      insidePoolAmount: 78_000,
      discount: 0,
    });
  });

  it('adds up views and amounts, less the discount (hand-computed)', () => {
    // 300 + 450 + 100 x 7.85 + 780 + 780 + 10 = 3,105.00 EUR; less 10 % = 2,794.50 EUR.
    expect(costFigures(courseCostsRule.parse({ otherAmount: 1_000, discount: 10, sharedCost: 50 }), 100)).toEqual({
      views: 100,
      viewsAmount: 78_500,
      totalAmount: 310_500,
      finalAmount: 279_450,
      shareEarnings: 5_000,
    });
  });

  it('refuses a discount above 100 % and amounts that are not whole cents', () => {
    expect(courseCostsRule.safeParse({ discount: 101 }).success).toBe(false);
    expect(courseCostsRule.safeParse({ viewAmount: 7.85 }).success).toBe(false);
  });

  it('sets costs on a draft, and on a published course outside its intervals', () => {
    const set = [{ type: 'CourseCostsSet', data: { costs } }];
    spec
      .given([created(june), added])
      .when({ type: 'SetCosts', costs, now })
      .thenExpect(set as CourseEvent[]);
    spec
      .given([created(autumn), added, published])
      .when({ type: 'SetCosts', costs, now })
      .thenExpect(set as CourseEvent[]);
  });

  it('keeps one deal: a new one only where none is, a change only of an existing one, a withdrawal back to the defaults', () => {
    const set = { type: 'CourseCostsSet', data: { costs } } as CourseEvent;
    const withdrawn = { type: 'CourseCostsWithdrawn', data: {} } as CourseEvent;
    spec
      .given([created(june), added])
      .when({ type: 'SetCosts', costs, now, deal: 'new' })
      .thenExpect([set]);
    spec
      .given([created(june), added, set])
      .when({ type: 'SetCosts', costs, now, deal: 'new' })
      .thenFails('409');
    spec
      .given([created(june), added])
      .when({ type: 'SetCosts', costs, now, deal: 'existing' })
      .thenFails('404');
    spec
      .given([created(june), added, set])
      .when({ type: 'SetCosts', costs, now, deal: 'existing' })
      .thenExpect([set]);
    spec
      .given([created(june), added, set])
      .when({ type: 'WithdrawCosts', now })
      .thenExpect([withdrawn]);
    spec
      .given([created(june), added, set, withdrawn])
      .when({ type: 'WithdrawCosts', now })
      .thenFails('404');
    spec
      .given([created(june), added, set, withdrawn])
      .when({ type: 'SetCosts', costs, now, deal: 'new' })
      .thenExpect([set]);
    spec
      .given([created(june), added, set, published])
      .when({ type: 'WithdrawCosts', now })
      .thenFails('422');
  });

  it('refuses while the course is active: published and open now (spec §4)', () => {
    spec
      .given([created(june), added, published])
      .when({ type: 'SetCosts', costs, now })
      .thenFails('422', 'Stroškov ni mogoče urejati, ko je izobraževanje aktivno.');
    spec
      .given([created([]), added, published])
      .when({ type: 'SetCosts', costs, now })
      .thenFails('422');
  });
});

describe('course status for a participant (spec §4)', () => {
  const course = (status: 'published' | 'archived' | 'deleted', intervals: { startsAt: string; stopsAt: string }[] = []) => ({
    status,
    fields: { ...fields, intervals },
  });
  const now = new Date('2026-06-15T10:00:00Z');
  const none = { status: 'none' } as const;
  const completed = { status: 'completed', courseId: 7, userId: 1, blocks: {}, certificateId: null, contentVersion: null, presence: [] } as const;
  it('derives active, archived, completed, deleted, expired and reserved', () => {
    expect(courseStatus(course('published'), none, now)).toBe('active');
    expect(courseStatus(course('published', [{ startsAt: '2026-06-01T00:00:00Z', stopsAt: '2026-07-01T00:00:00Z' }]), none, now)).toBe('active');
    expect(courseStatus(course('published', [{ startsAt: '2026-01-01T00:00:00Z', stopsAt: '2026-02-01T00:00:00Z' }]), none, now)).toBe('expired');
    expect(courseStatus(course('published', [{ startsAt: '2026-09-01T00:00:00Z', stopsAt: '2026-10-01T00:00:00Z' }]), none, now)).toBe('reserved');
    expect(courseStatus(course('archived'), none, now)).toBe('archived');
    expect(courseStatus(course('archived'), completed, now)).toBe('completed');
    expect(courseStatus(course('deleted'), completed, now)).toBe('deleted');
  });
});
