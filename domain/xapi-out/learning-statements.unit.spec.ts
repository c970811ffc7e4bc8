import { describe, expect, it } from 'vitest';
import { uuidV5, XAPI_NAMESPACE, xapiUuid } from '../../application/xapi-out/statement-id.ts';
import { statementProblems } from '../../application/xapi-out/validate-statement.ts';
import { enrollmentEvents } from '../courses/enrollment.ts';
import { type CourseFacts, type LearningEvent, STATED_EVENT_TYPES, type StatementContext, statementsOf } from './learning-statements.ts';

const course: CourseFacts = {
  id: 7,
  title: 'Zdravljenje bolečine',
  blocks: new Map([
    [11, { id: 11, kind: 'article', name: 'Uvod' }],
    [12, { id: 12, kind: 'video', name: 'Predavanje' }],
    [
      13,
      {
        id: 13,
        kind: 'quiz',
        name: 'Preverjanje znanja',
        questions: [
          {
            id: 'q1',
            text: 'Kateri odmerek je največji?',
            answers: [
              { id: 'a', text: '1 g', correct: false },
              { id: 'b', text: '4 g', correct: true },
            ],
          },
        ],
      },
    ],
    [14, { id: 14, kind: 'nps', name: 'Mnenje', question: 'Kako verjetno bi izobraževanje priporočili?' }],
  ]),
};

const context: StatementContext = { publicUrl: 'https://medilearn.test', actorName: 'c0ffee00-0000-4000-8000-000000000001', course, uuid: xapiUuid };

let counter = 0;
const event = (type: string, data: object, streamName = 'enrollment-7_42'): LearningEvent => ({
  eventId: `0190d6a0-0000-7000-8000-${String(++counter).padStart(12, '0')}`,
  type,
  data,
  streamName,
  createdAt: '2026-03-04T10:11:12.000Z',
});

/** One event of each kind the platform states, with what it must be stated as. */
const CASES: readonly { event: LearningEvent; verbs: readonly string[] }[] = [
  { event: event('CourseStarted', { courseId: 7, userId: 42, contentVersion: 3 }), verbs: ['attempted'] },
  { event: event('BlockOpened', { blockId: 12, done: false }), verbs: ['experienced'] },
  { event: event('BlockOpened', { blockId: 11, done: true }), verbs: ['experienced', 'completed'] },
  { event: event('VideoProgressed', { blockId: 12, seconds: 61.5, duration: 120, at: '2026-03-04T10:11:12.000Z' }), verbs: ['experienced'] },
  { event: event('VideoCompleted', { blockId: 12 }), verbs: ['completed'] },
  { event: event('AlternativeRead', { blockId: 12 }), verbs: ['completed'] },
  { event: event('QuizAnswerSubmitted', { blockId: 13, attempt: 1, questionId: 'q1', answerId: 'b', correct: true }), verbs: ['answered'] },
  { event: event('QuizPassed', { blockId: 13, attempt: 1, score: 83.3, threshold: 80 }), verbs: ['passed'] },
  { event: event('QuizFailed', { blockId: 13, attempt: 2, score: 0, threshold: 80, retriesLeft: 0 }), verbs: ['failed'] },
  { event: event('QuizAttemptsExhausted', { blockId: 13, attempt: 2, next: 'ended' }), verbs: ['failed'] },
  { event: event('NpsAnswered', { blockId: 14, score: 9, reasons: ['Vsebina'], comment: 'Moje osebno mnenje', followUps: [] }), verbs: ['answered'] },
  { event: event('LivePresenceConfirmed', { checkIndex: 2 }), verbs: ['attended'] },
  { event: event('CourseCompleted', { creditPoints: 1.5 }), verbs: ['completed'] },
  { event: event('CertificateIssued', { certificateId: '7b3e3c1c-3a55-4f4e-9d8e-0a1b2c3d4e5f', issuer: null }), verbs: ['earned'] },
  { event: event('PackageScored', { blockId: 15, itemId: 'sco-1', attempt: 1, score: 90, passed: true }), verbs: ['passed'] },
  { event: event('PackageCompleted', { blockId: 15, score: null }), verbs: ['completed'] },
];

/** Enrollment events that state nothing, and why. */
const NOT_STATED: Readonly<Record<string, string>> = {
  QuizAttemptsRenewed: 'a new set of attempts opened: the next answers and the passed or failed say it',
  PackageReported: "the package's own commits (cmi5 statements are in the platform's LRS)",
};

describe('learning events as xAPI statements (issue 35 item 5)', () => {
  it('decides for every enrollment event whether and how it is stated', () => {
    const undecided = enrollmentEvents.map((d) => d.type as string).filter((type) => !STATED_EVENT_TYPES.includes(type) && !(type in NOT_STATED));
    expect(undecided, 'enrollment events neither stated nor listed in NOT_STATED').toEqual([]);
  });

  it.each(CASES.map((c) => [c.event.type, c] as const))('states %s as valid xAPI 1.0.3', (_type, c) => {
    const mapped = statementsOf(c.event, context);
    expect(mapped.map((m) => m.verb)).toEqual(c.verbs);
    for (const { statement } of mapped) {
      expect(statementProblems(JSON.parse(JSON.stringify(statement))), JSON.stringify(statement, null, 2)).toEqual([]);
      expect(statement.timestamp).toBe(c.event.createdAt);
      expect(statement.actor).toEqual({ objectType: 'Agent', account: { homePage: 'https://medilearn.test', name: context.actorName } });
      expect(statement.context).toMatchObject({ platform: 'Medilearn', language: 'sl-SI', registration: xapiUuid(`registration/${context.actorName}/7`) });
      expect(statement.object.id.startsWith('https://medilearn.test/xapi/activities/course/7')).toBe(true);
    }
  });

  it('derives each statement id from its event id and verb (UUID v5 under the fixed namespace), so a replay states the same', () => {
    // RFC 9562 appendix A.4: "www.example.com" under the DNS namespace.
    expect(uuidV5('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
    const opened = CASES[2]?.event as LearningEvent;
    const [experienced, completed] = statementsOf(opened, context);
    expect(experienced?.statement.id).toBe(uuidV5(XAPI_NAMESPACE, `statement/${opened.eventId}/experienced`));
    expect(completed?.statement.id).toBe(uuidV5(XAPI_NAMESPACE, `statement/${opened.eventId}/completed`));
    expect(statementsOf(opened, context)).toEqual(statementsOf(opened, context));
    const ids = CASES.flatMap((c) => statementsOf(c.event, context).map((m) => m.statement.id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('puts blocks under their course, and a question under its quiz and course', () => {
    const [answered] = statementsOf(CASES[6]?.event as LearningEvent, context);
    expect(answered?.statement.object).toMatchObject({
      id: 'https://medilearn.test/xapi/activities/course/7/block/13/question/q1',
      definition: { interactionType: 'choice', correctResponsesPattern: ['b'], name: { 'sl-SI': 'Kateri odmerek je največji?' } },
    });
    expect(answered?.statement.result).toMatchObject({ success: true, response: 'b' });
    expect(answered?.statement.context?.contextActivities?.parent?.[0]?.id).toBe('https://medilearn.test/xapi/activities/course/7/block/13');
    expect(answered?.statement.context?.contextActivities?.grouping?.[0]?.id).toBe('https://medilearn.test/xapi/activities/course/7');
    const [passed] = statementsOf(CASES[7]?.event as LearningEvent, context);
    expect(passed?.statement.result?.score).toEqual({ scaled: 0.833, raw: 83.3, min: 0, max: 100 });
    expect(passed?.statement.context?.contextActivities?.parent?.[0]).toMatchObject({ definition: { name: { 'sl-SI': 'Zdravljenje bolečine' } } });
    const [started] = statementsOf(CASES[0]?.event as LearningEvent, context);
    expect(started?.statement.context?.contextActivities).toBeUndefined();
  });

  it('keeps personal data out: the NPS comment is not stated, the actor is the opaque name only', () => {
    const text = JSON.stringify(statementsOf(CASES[10]?.event as LearningEvent, context));
    expect(text).not.toContain('Moje osebno mnenje');
    expect(text).not.toContain('enrollment-7_42');
  });

  it('names an unknown course and block by number, and states nothing for other streams or a wait for new attempts', () => {
    const [opened] = statementsOf(event('BlockOpened', { blockId: 99, done: false }), { ...context, course: null });
    expect(statementProblems(JSON.parse(JSON.stringify(opened?.statement)))).toEqual([]);
    expect(opened?.statement.object.definition?.name).toEqual({ 'sl-SI': 'Vsebina 99' });
    expect(statementsOf(event('CourseStarted', { courseId: 7, userId: 42 }, 'course-7'), context)).toEqual([]);
    expect(statementsOf(event('QuizAttemptsExhausted', { blockId: 13, attempt: 2, next: 'wait', retryAt: '2026-03-05T10:00:00.000Z' }), context)).toEqual([]);
    expect(statementsOf(event('QuizAttemptsRenewed', { blockId: 13, afterAttempt: 2 }), context)).toEqual([]);
  });
});
