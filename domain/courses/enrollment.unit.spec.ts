import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../tests/support/decider-spec.ts';
import { fold } from '../shared/decider.ts';
import { blockRule, courseRule } from './course.rules.ts';
import type { Course } from './course.ts';
import { type EnrollmentContext, type EnrollmentEvent, enrollmentDecider } from './enrollment.ts';

const spec = deciderSpec(enrollmentDecider);
const NOW = new Date('2026-06-15T10:00:00Z');
const CERT = '8f5c2d9e-1b7a-4c3e-9d2f-6a1b3c4d5e6f';

const blocks = [
  { id: 1, fields: blockRule.parse({ kind: 'video', name: 'Uvod', vimeoId: '1', alternative: { kind: 'article', html: '<p>Prepis</p>' } }) },
  {
    id: 2,
    fields: blockRule.parse({
      kind: 'quiz',
      name: 'Preverjanje',
      batchSize: 1,
      successThreshold: 50,
      retries: 1,
      questions: [
        {
          id: 'q1',
          text: 'Ena',
          answers: [
            { id: 'a', text: 'A', correct: true },
            { id: 'b', text: 'B' },
          ],
        },
        {
          id: 'q2',
          text: 'Dve',
          answers: [
            { id: 'a', text: 'A' },
            { id: 'b', text: 'B', correct: true },
          ],
        },
      ],
    }),
  },
  {
    id: 3,
    fields: blockRule.parse({
      kind: 'nps',
      name: 'Mnenje',
      question: 'Bi priporočili?',
      set: 1,
      reasons: { detractor: ['Predolgo'], neutral: ['V redu'], promoter: ['Uporabno'] },
      commentEnabled: true,
    }),
  },
  { id: 4, fields: blockRule.parse({ kind: 'points', name: 'Točke', points: 1.5 }) },
];

const course = (changes: Partial<Course> = {}, fieldChanges: object = {}): Course => ({
  status: 'published',
  published: true,
  costs: null,
  id: 7,
  fields: courseRule.parse({
    type: 4,
    title: 'Interakcije',
    description: 'Pregled interakcij zdravil v lekarni.',
    cover: '/c.jpg',
    creditPoints: 2,
    ...fieldChanges,
  }),
  blocks,
  contentVersion: 0,
  contents: [blocks],
  attachments: [],
  owner: null,
  notificationIds: [],
  lastManualNotificationAt: null,
  approval: { versions: [], published: null },
  ...changes,
});

const ctx = (changes: Partial<EnrollmentContext> = {}): EnrollmentContext => ({ course: course(), completedCourseIds: [], now: NOW, ...changes });
const started: EnrollmentEvent = { type: 'CourseStarted', data: { courseId: 7, userId: 5, contentVersion: 0 } };
const videoDone: EnrollmentEvent[] = [
  { type: 'VideoProgressed', data: { blockId: 1, seconds: 95, duration: 100 } },
  { type: 'VideoCompleted', data: { blockId: 1 } },
];
const answers = (q1: string, q2: string) => ({ q1, q2 });

describe('enrollment: starting', () => {
  it('starts a published course once', () => {
    spec.given([]).when({ type: 'StartCourse', userId: 5, context: ctx() }).thenExpect([started]);
    spec.given([started]).when({ type: 'StartCourse', userId: 5, context: ctx() }).thenExpect([]);
  });

  it('needs the prerequisites completed first', () => {
    const withPrerequisite = ctx({ course: course({}, { prerequisites: [3] }) });
    spec
      .given([])
      .when({ type: 'StartCourse', userId: 5, context: withPrerequisite })
      .thenFails('422', 'Najprej zaključite izobraževanja, ki so pogoj za to izobraževanje.');
    spec
      .given([])
      .when({ type: 'StartCourse', userId: 5, context: { ...withPrerequisite, completedCourseIds: [3] } })
      .thenExpect([started]);
  });

  it('starts only inside an interval', () => {
    const june = { startsAt: '2026-06-01T00:00:00Z', stopsAt: '2026-07-01T00:00:00Z' };
    const later = { startsAt: '2026-09-01T00:00:00Z', stopsAt: '2026-10-01T00:00:00Z' };
    spec
      .given([])
      .when({ type: 'StartCourse', userId: 5, context: ctx({ course: course({}, { intervals: [later] }) }) })
      .thenFails('422', 'Izobraževanje ta čas ni na voljo.');
    spec
      .given([])
      .when({ type: 'StartCourse', userId: 5, context: ctx({ course: course({}, { intervals: [later, june] }) }) })
      .thenExpect([started]);
  });

  it('refuses an unpublished, deleted or (for newcomers) archived course', () => {
    spec
      .given([])
      .when({ type: 'StartCourse', userId: 5, context: ctx({ course: course({ published: false, status: 'draft' }) }) })
      .thenFails('404');
    spec
      .given([])
      .when({ type: 'StartCourse', userId: 5, context: ctx({ course: course({ status: 'deleted' }) }) })
      .thenFails('404');
    spec
      .given([])
      .when({ type: 'StartCourse', userId: 5, context: ctx({ course: course({ status: 'archived' }) }) })
      .thenFails('422');
    spec
      .given([started])
      .when({ type: 'OpenBlock', blockId: 1, context: ctx({ course: course({ status: 'archived' }) }) })
      .thenExpect([{ type: 'BlockOpened', data: { blockId: 1, done: false } }]);
  });
});

describe('enrollment: blocks in order', () => {
  it('opens a block only when every block before it is done', () => {
    spec.given([started]).when({ type: 'OpenBlock', blockId: 2, context: ctx() }).thenFails('422', 'Najprej zaključite prejšnje vsebine.');
    spec
      .given([started, ...videoDone])
      .when({ type: 'OpenBlock', blockId: 2, context: ctx() })
      .thenExpect([{ type: 'BlockOpened', data: { blockId: 2, done: false } }]);
  });

  it('counts watched time no faster than a 2× playback since the last report, and a video as watched at 90 % of it (issue 33 item 8)', () => {
    const at = (s: number) => new Date(NOW.getTime() + s * 1000);
    const report = (seconds: number, s: number) => ({ type: 'ReportVideoProgress' as const, blockId: 1, seconds, duration: 100, context: ctx({ now: at(s) }) });
    const progressed = (seconds: number, s: number): EnrollmentEvent => ({
      type: 'VideoProgressed',
      data: { blockId: 1, seconds, duration: 100, at: at(s).toISOString() },
    });
    // Seeking to the end is not watching: a first report counts up to the slack (10 s), whatever it claims.
    spec
      .given([started])
      .when(report(100, 0))
      .thenExpect([progressed(10, 0)]);
    // 20 s later at most 10 + 2 × 20 + 10 = 60 s; watching on at normal speed counts in full.
    spec
      .given([started, progressed(10, 0)])
      .when(report(100, 20))
      .thenExpect([progressed(60, 20)]);
    spec
      .given([started, progressed(10, 0)])
      .when(report(25, 15))
      .thenExpect([progressed(25, 15)]);
    // Only forward.
    spec
      .given([started, progressed(40, 0)])
      .when(report(30, 30))
      .thenExpect([]);
    // 90 % watched: the video is done.
    spec
      .given([started, progressed(80, 0)])
      .when(report(95, 15))
      .thenExpect([progressed(95, 15), { type: 'VideoCompleted', data: { blockId: 1 } }]);
  });

  it("takes the video's length from its author, else the longest reported: a short claimed length finishes nothing (review of issue 33)", () => {
    const at = (s: number) => new Date(NOW.getTime() + s * 1000);
    const report = (seconds: number, duration: number, s: number, context = ctx({ now: at(s) })) => ({
      type: 'ReportVideoProgress' as const,
      blockId: 1,
      seconds,
      duration,
      context,
    });
    const progressed = (seconds: number, duration: number, s: number): EnrollmentEvent => ({
      type: 'VideoProgressed',
      data: { blockId: 1, seconds, duration, at: at(s).toISOString() },
    });
    // The player said 100 s before; a report now claiming 60 s of 60 is 60 of 100, not done.
    spec
      .given([started, progressed(50, 100, 0)])
      .when(report(60, 60, 10))
      .thenExpect([progressed(60, 100, 10)]);
    // An hour's lecture by its author: a first report of 10 s "of 11" is 10 s of 3600.
    const lecture = [{ ...blocks[0], fields: { ...(blocks[0]?.fields as object), durationSeconds: 3600 } }, ...blocks.slice(1)] as typeof blocks;
    const context = ctx({ now: at(0), course: course({ blocks: lecture, contents: [lecture] }) });
    spec
      .given([started])
      .when(report(10, 11, 0, context))
      .thenExpect([progressed(10, 3600, 0)]);
  });

  it('accepts the article alternative of a video instead of watching it', () => {
    spec
      .given([started])
      .when({ type: 'ReadAlternative', blockId: 1, context: ctx() })
      .thenExpect([{ type: 'AlternativeRead', data: { blockId: 1 } }]);
  });
});

describe('enrollment: quiz', () => {
  const submitted = (attempt: number, q1: string, q2: string): EnrollmentEvent[] => [
    { type: 'QuizAnswerSubmitted', data: { blockId: 2, attempt, questionId: 'q1', answerId: q1, correct: q1 === 'a' } },
    { type: 'QuizAnswerSubmitted', data: { blockId: 2, attempt, questionId: 'q2', answerId: q2, correct: q2 === 'b' } },
  ];

  it('passes at the threshold and fails below it, with the retries left', () => {
    spec
      .given([started, ...videoDone])
      .when({ type: 'SubmitQuiz', blockId: 2, answers: answers('a', 'a'), context: ctx() })
      .thenExpect([...submitted(1, 'a', 'a'), { type: 'QuizPassed', data: { blockId: 2, attempt: 1, score: 50, threshold: 50 } }]);
    spec
      .given([started, ...videoDone])
      .when({ type: 'SubmitQuiz', blockId: 2, answers: answers('b', 'a'), context: ctx() })
      .thenExpect([...submitted(1, 'b', 'a'), { type: 'QuizFailed', data: { blockId: 2, attempt: 1, score: 0, threshold: 50, retriesLeft: 1 } }]);
  });

  it('allows the retries and no more, and nothing after a pass', () => {
    const failedOnce = [
      ...submitted(1, 'b', 'a'),
      { type: 'QuizFailed', data: { blockId: 2, attempt: 1, score: 0, threshold: 50, retriesLeft: 1 } } as EnrollmentEvent,
    ];
    const failedTwice = [
      ...submitted(2, 'b', 'a'),
      { type: 'QuizFailed', data: { blockId: 2, attempt: 2, score: 0, threshold: 50, retriesLeft: 0 } } as EnrollmentEvent,
    ];
    spec
      .given([started, ...videoDone, ...failedOnce])
      .when({ type: 'SubmitQuiz', blockId: 2, answers: answers('a', 'b'), context: ctx() })
      .thenExpect([...submitted(2, 'a', 'b'), { type: 'QuizPassed', data: { blockId: 2, attempt: 2, score: 100, threshold: 50 } }]);
    spec
      .given([started, ...videoDone, ...failedOnce, ...failedTwice])
      .when({ type: 'SubmitQuiz', blockId: 2, answers: answers('a', 'b'), context: ctx() })
      .thenFails('422', 'Ni več poskusov za ta kviz.');
    const passed = [...submitted(1, 'a', 'b'), { type: 'QuizPassed', data: { blockId: 2, attempt: 1, score: 100, threshold: 50 } } as EnrollmentEvent];
    spec
      .given([started, ...videoDone, ...passed])
      .when({ type: 'SubmitQuiz', blockId: 2, answers: answers('a', 'b'), context: ctx() })
      .thenFails('422', 'Kviz je že opravljen.');
  });

  it('needs every question answered with an existing answer', () => {
    spec
      .given([started, ...videoDone])
      .when({ type: 'SubmitQuiz', blockId: 2, answers: { q1: 'a' }, context: ctx() })
      .thenFails('400');
    spec
      .given([started, ...videoDone])
      .when({ type: 'SubmitQuiz', blockId: 2, answers: answers('a', 'x'), context: ctx() })
      .thenFails('400');
  });
});

describe('enrollment: NPS and completion', () => {
  const passedQuiz: EnrollmentEvent[] = [
    { type: 'QuizAnswerSubmitted', data: { blockId: 2, attempt: 1, questionId: 'q1', answerId: 'a', correct: true } },
    { type: 'QuizAnswerSubmitted', data: { blockId: 2, attempt: 1, questionId: 'q2', answerId: 'b', correct: true } },
    { type: 'QuizPassed', data: { blockId: 2, attempt: 1, score: 100, threshold: 50 } },
  ];
  const nps: EnrollmentEvent = { type: 'NpsAnswered', data: { blockId: 3, score: 9, reasons: ['Uporabno'], comment: 'Odlično', followUps: [] } };

  it('takes a score 0 to 10 with the reasons of its category and the comment', () => {
    spec
      .given([started, ...videoDone, ...passedQuiz])
      .when({ type: 'AnswerNps', blockId: 3, score: 9, reasons: ['Uporabno'], comment: ' Odlično ', followUps: [], context: ctx() })
      .thenExpect([nps]);
    spec
      .given([started, ...videoDone, ...passedQuiz])
      .when({ type: 'AnswerNps', blockId: 3, score: 9, reasons: ['Predolgo'], comment: null, followUps: [], context: ctx() })
      .thenFails('400');
    spec
      .given([started, ...videoDone, ...passedQuiz])
      .when({ type: 'AnswerNps', blockId: 3, score: 11, reasons: [], comment: null, followUps: [], context: ctx() })
      .thenFails('400');
  });

  it('completes the course with its credit points when the last block is done, then issues the certificate once', () => {
    const all = [started, ...videoDone, ...passedQuiz, nps];
    spec
      .given(all)
      .when({ type: 'OpenBlock', blockId: 4, context: ctx() })
      .thenExpect([
        { type: 'BlockOpened', data: { blockId: 4, done: true } },
        { type: 'CourseCompleted', data: { creditPoints: 2 } },
      ]);
    const completed = [
      ...all,
      { type: 'BlockOpened', data: { blockId: 4, done: true } } as EnrollmentEvent,
      { type: 'CourseCompleted', data: { creditPoints: 2 } } as EnrollmentEvent,
    ];
    spec.given(all).when({ type: 'IssueCertificate', certificateId: CERT, context: ctx() }).thenFails('422');
    spec
      .given(completed)
      .when({ type: 'IssueCertificate', certificateId: CERT, context: ctx() })
      .thenExpect([{ type: 'CertificateIssued', data: { certificateId: CERT } }]);
    spec
      .given([...completed, { type: 'CertificateIssued', data: { certificateId: CERT } }])
      .when({ type: 'IssueCertificate', certificateId: CERT, context: ctx() })
      .thenExpect([]);
    // The issuer (issue 18, decision 0032): where the participant belongs at completion, recorded with the certificate.
    const issuer = { companyId: 3, companyName: 'Lekarne d.o.o.', unitId: 9, unitName: 'Lekarna Center' };
    spec
      .given(completed)
      .when({ type: 'IssueCertificate', certificateId: CERT, issuer, context: ctx() })
      .thenExpect([{ type: 'CertificateIssued', data: { certificateId: CERT, issuer } }]);
    spec
      .given(completed)
      .when({ type: 'IssueCertificate', certificateId: CERT, context: ctx({ course: course({}, { certificateEnabled: false }) }) })
      .thenFails('422');
  });
});

describe('enrollment: after the last failed attempt (issue 33, decision 0053)', () => {
  const quizWith = (afterLastFail: object) => {
    const quiz = { id: 2, fields: blockRule.parse({ ...(blocks[1]?.fields as object), afterLastFail }) };
    const changed = [blocks[0], quiz, blocks[2], blocks[3]] as typeof blocks;
    return (now = NOW) => ctx({ course: course({ blocks: changed, contents: [changed] }), now });
  };
  const ending = quizWith({ kind: 'end', message: 'Izobraževanje ni opravljeno.', contact: 'izobrazevanje@lekarna.si' });
  const waiting = quizWith({ kind: 'wait', hours: 48 });
  const attempt = (n: number, retriesLeft: number): EnrollmentEvent[] => [
    { type: 'QuizAnswerSubmitted', data: { blockId: 2, attempt: n, questionId: 'q1', answerId: 'b', correct: false } },
    { type: 'QuizAnswerSubmitted', data: { blockId: 2, attempt: n, questionId: 'q2', answerId: 'a', correct: false } },
    { type: 'QuizFailed', data: { blockId: 2, attempt: n, score: 0, threshold: 50, retriesLeft } },
  ];
  const RETRY_AT = '2026-06-17T10:00:00.000Z';

  it('records that the course ends as not passed, then refuses every further attempt', () => {
    spec
      .given([started, ...videoDone, ...attempt(1, 1)])
      .when({ type: 'SubmitQuiz', blockId: 2, answers: answers('b', 'a'), context: ending() })
      .thenExpect([...attempt(2, 0), { type: 'QuizAttemptsExhausted', data: { blockId: 2, attempt: 2, next: 'ended' } }]);
    const ended = [
      started,
      ...videoDone,
      ...attempt(1, 1),
      ...attempt(2, 0),
      { type: 'QuizAttemptsExhausted', data: { blockId: 2, attempt: 2, next: 'ended' } } as const,
    ];
    spec
      .given(ended)
      .when({ type: 'SubmitQuiz', blockId: 2, answers: answers('a', 'b'), context: ending(new Date('2027-01-01T00:00:00Z')) })
      .thenFails('422', 'Poskusov za ta kviz ni več: izobraževanje ni opravljeno.');
    spec.given(ended).when({ type: 'OpenBlock', blockId: 2, context: ending() }).thenExpect([]);
  });

  it('opens a new set of attempts after the waiting time, from the clock of the decision, and says when before it', () => {
    spec
      .given([started, ...videoDone, ...attempt(1, 1)])
      .when({ type: 'SubmitQuiz', blockId: 2, answers: answers('b', 'a'), context: waiting() })
      .thenExpect([...attempt(2, 0), { type: 'QuizAttemptsExhausted', data: { blockId: 2, attempt: 2, next: 'wait', retryAt: RETRY_AT } }]);
    const waited = [
      started,
      ...videoDone,
      ...attempt(1, 1),
      ...attempt(2, 0),
      { type: 'QuizAttemptsExhausted', data: { blockId: 2, attempt: 2, next: 'wait', retryAt: RETRY_AT } } as const,
    ];
    spec
      .given(waited)
      .when({ type: 'SubmitQuiz', blockId: 2, answers: answers('a', 'b'), context: waiting(new Date('2026-06-17T09:59:59Z')) })
      .thenFails('422', 'Nove poskuse za ta kviz boste lahko začeli 17. 6. 2026 ob 12:00.');
    // At the time: a new set, its first attempt numbered on from the earlier ones.
    spec
      .given(waited)
      .when({ type: 'SubmitQuiz', blockId: 2, answers: answers('b', 'a'), context: waiting(new Date(RETRY_AT)) })
      .thenExpect([{ type: 'QuizAttemptsRenewed', data: { blockId: 2, afterAttempt: 2 } }, ...attempt(3, 1)]);
    // The new set ends like the first, with a new waiting time: never a loop back into the same lock.
    const renewed = [...waited, { type: 'QuizAttemptsRenewed', data: { blockId: 2, afterAttempt: 2 } } as const, ...attempt(3, 1)];
    spec
      .given(renewed)
      .when({ type: 'SubmitQuiz', blockId: 2, answers: answers('b', 'a'), context: waiting(new Date('2026-06-18T00:00:00Z')) })
      .thenExpect([...attempt(4, 0), { type: 'QuizAttemptsExhausted', data: { blockId: 2, attempt: 4, next: 'wait', retryAt: '2026-06-20T00:00:00.000Z' } }]);
    spec
      .given(renewed)
      .when({ type: 'SubmitQuiz', blockId: 2, answers: answers('a', 'b'), context: waiting(new Date('2026-06-18T00:00:00Z')) })
      .thenExpect([
        { type: 'QuizAnswerSubmitted', data: { blockId: 2, attempt: 4, questionId: 'q1', answerId: 'a', correct: true } },
        { type: 'QuizAnswerSubmitted', data: { blockId: 2, attempt: 4, questionId: 'q2', answerId: 'b', correct: true } },
        { type: 'QuizPassed', data: { blockId: 2, attempt: 4, score: 100, threshold: 50 } },
      ]);
  });

  it('evolves a stream from before as it did, and records its missing outcome when the quiz is opened', () => {
    const old = [started, ...videoDone, ...attempt(1, 1), ...attempt(2, 0)];
    const state = fold(enrollmentDecider, old);
    expect(state).toMatchObject({
      status: 'started',
      blocks: { 2: { opened: true, done: false, quizAttempts: 2, quizScore: 0, quizRoundFrom: 0, quizLock: null } },
    });
    // Its quiz block (stored before these settings existed) takes the defaults: a new set after 24 hours.
    spec
      .given(old)
      .when({ type: 'OpenBlock', blockId: 2, context: ctx() })
      .thenExpect([{ type: 'QuizAttemptsExhausted', data: { blockId: 2, attempt: 2, next: 'wait', retryAt: '2026-06-16T10:00:00.000Z' } }]);
    spec
      .given([started, ...videoDone, ...attempt(1, 1)])
      .when({ type: 'OpenBlock', blockId: 2, context: ctx() })
      .thenExpect([]);
  });
});

describe('enrollment: the content version it started with (decision 0021)', () => {
  // Version 0: the four blocks. Version 1: the points block removed, an extra article added after the NPS.
  const article = { id: 9, fields: blockRule.parse({ kind: 'article', name: 'Dodatek', html: '<p>Novo</p>' }) };
  const changed = [...blocks.slice(0, 3), article];
  const edited = ctx({ course: course({ blocks: changed, contentVersion: 1, contents: [blocks, changed] }) });
  const throughNps: EnrollmentEvent[] = [
    started,
    ...videoDone,
    { type: 'QuizAnswerSubmitted', data: { blockId: 2, attempt: 1, questionId: 'q1', answerId: 'a1', correct: true } },
    { type: 'QuizAnswerSubmitted', data: { blockId: 2, attempt: 1, questionId: 'q2', answerId: 'b2', correct: true } },
    { type: 'QuizPassed', data: { blockId: 2, attempt: 1, score: 100, threshold: 50 } },
    { type: 'NpsAnswered', data: { blockId: 3, score: 9, reasons: [], comment: null, followUps: [] } },
  ];

  it('records the version a participant starts on', () => {
    spec
      .given([])
      .when({ type: 'StartCourse', userId: 5, context: edited })
      .thenExpect([{ type: 'CourseStarted', data: { courseId: 7, userId: 5, contentVersion: 1 } }]);
  });

  it('keeps a participant who started before an edit on the blocks they started with: the removed block completes the course, the new one is not theirs', () => {
    spec
      .given(throughNps)
      .when({ type: 'OpenBlock', blockId: 4, context: edited })
      .thenExpect([
        { type: 'BlockOpened', data: { blockId: 4, done: true } },
        { type: 'CourseCompleted', data: { creditPoints: 2 } },
      ]);
    spec.given(throughNps).when({ type: 'OpenBlock', blockId: 9, context: edited }).thenFails('404', 'Vsebinski blok ne obstaja.');
  });

  it('has a participant who starts after the edit take the new content', () => {
    const afterEdit: EnrollmentEvent[] = [{ type: 'CourseStarted', data: { courseId: 7, userId: 5, contentVersion: 1 } }, ...throughNps.slice(1)];
    spec.given(afterEdit).when({ type: 'OpenBlock', blockId: 4, context: edited }).thenFails('404', 'Vsebinski blok ne obstaja.');
    spec
      .given(afterEdit)
      .when({ type: 'OpenBlock', blockId: 9, context: edited })
      .thenExpect([
        { type: 'BlockOpened', data: { blockId: 9, done: true } },
        { type: 'CourseCompleted', data: { creditPoints: 2 } },
      ]);
  });

  it('has an enrollment from before versions were kept follow the current content', () => {
    const legacy: EnrollmentEvent[] = [{ type: 'CourseStarted', data: { courseId: 7, userId: 5 } }, ...throughNps.slice(1)];
    spec.given(legacy).when({ type: 'OpenBlock', blockId: 4, context: edited }).thenFails('404', 'Vsebinski blok ne obstaja.');
  });
});

describe('enrollment: a live webinar (issue 17 item 5)', () => {
  const live = {
    roomId: 'soba-1',
    startsAt: '2026-06-15T09:00:00.000Z',
    stopsAt: '2026-06-15T09:30:00.000Z',
    roles: { host: [], interpreter: [], moderator: [], presenter: [] },
  };
  const points = [{ id: 4, fields: blockRule.parse({ kind: 'points', name: 'Točke', points: 1 }) }];
  const webinar = (now: string) => ctx({ now: new Date(now), course: course({ blocks: points, contents: [points] }, { type: 8, live }) });
  const opened: EnrollmentEvent = { type: 'BlockOpened', data: { blockId: 4, done: true } };

  it('confirms presence only while a check is open, once; the late one is missed', () => {
    spec
      .given([started])
      .when({ type: 'ConfirmPresence', checkIndex: 0, context: webinar('2026-06-15T09:05:30Z') })
      .thenExpect([{ type: 'LivePresenceConfirmed', data: { checkIndex: 0 } }]);
    spec
      .given([started, { type: 'LivePresenceConfirmed', data: { checkIndex: 0 } }])
      .when({ type: 'ConfirmPresence', checkIndex: 0, context: webinar('2026-06-15T09:05:40Z') })
      .thenExpect([]);
    spec
      .given([started])
      .when({ type: 'ConfirmPresence', checkIndex: 0, context: webinar('2026-06-15T09:07:00Z') })
      .thenFails('422', 'Potrditev prisotnosti ni več mogoča: čas za potrditev je potekel.');
  });

  it('completes a live course only for an attendee who confirmed enough checks, whichever comes last', () => {
    // 30 minutes: checks at 9:05 and 9:20; one of two is half.
    spec
      .given([started])
      .when({ type: 'OpenBlock', blockId: 4, context: webinar('2026-06-15T08:00:00Z') })
      .thenExpect([opened]);
    spec
      .given([started, opened])
      .when({ type: 'ConfirmPresence', checkIndex: 1, context: webinar('2026-06-15T09:20:10Z') })
      .thenExpect([
        { type: 'LivePresenceConfirmed', data: { checkIndex: 1 } },
        { type: 'CourseCompleted', data: { creditPoints: 2 } },
      ]);
  });
});
