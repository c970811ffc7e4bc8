import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { type AllPosition, formatPosition, parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { appendSteps, enrollmentStream, type Step } from '../support/enrollment-steps.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

// The success figures of a course with two scored blocks, hand-computed: the success screen asks them
// in one statement (per-block counts, each participant's best score per block, the averages of those),
// and a report asks the same beside its other sections at once. A block's figures must not mix with
// the other's, and the course's average is of every best score, not of the blocks' averages.

type Quiz = {
  blockId: number;
  attempted: number;
  passed: number;
  firstAttemptPassed: number;
  attempts: number;
  successRate: number | null;
  firstAttemptRate: number | null;
  averageScore: number | null;
};
type Success = {
  started: number;
  completed: number;
  completionRate: number | null;
  attempted: number;
  passed: number;
  successRate: number | null;
  firstAttemptRate: number | null;
  averageScore: number | null;
  quizzes: Quiz[];
};
type Report = {
  participation: { participants: number; completions: number; attempted: number; passed: number; successRate: number | null; averageScore: number | null };
  window: { intervalId: number; asOf: string };
  children: { id: number; name: string; participants: number; completions: number; successRate: number | null }[] | null;
  timeline: { bucket: string; periods: { period: string; participants: number; completions: number }[] };
};

describe('success figures of a course with two scored blocks', () => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  let courseId: number;
  let first: number;
  let second: number;
  let last: AllPosition | null = null;

  const call = async (who: string, method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await p.app.inject({
      method,
      url,
      headers: { authorization: `JWT ${tokens[who]}`, ...(last ? { 'x-min-position': formatPosition(last) } : {}) },
      ...(payload ? { payload } : {}),
    });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') last = parsePosition(position);
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response.json();
  };
  /** A participant's steps on their enrollment stream, as the course commands write them. */
  const steps = async (user: number, events: Step[]) => {
    last = await appendSteps(p.store, enrollmentStream(courseId, user), events);
  };
  const started = (user: number) => ({ type: 'CourseStarted', data: { courseId, userId: user } });
  const passed = (blockId: number, attempt: number, score: number) => ({ type: 'QuizPassed', data: { blockId, attempt, score, threshold: 50 } });
  const failed = (blockId: number, attempt: number, score: number) => ({
    type: 'QuizFailed',
    data: { blockId, attempt, score, threshold: 50, retriesLeft: 1 },
  });
  const completed = { type: 'CourseCompleted', data: { creditPoints: 1 } };
  const quizBlock = (name: string) => ({
    block: {
      kind: 'quiz',
      name,
      batchSize: 1,
      successThreshold: 50,
      retries: 1,
      questions: [
        {
          id: 'q',
          text: 'Da?',
          answers: [
            { id: 'a', text: 'Da', correct: true },
            { id: 'b', text: 'Ne' },
          ],
        },
      ],
    },
  });

  beforeAll(async () => {
    p = await startTestPlatform();
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    ids.company = (await call('admin', 'POST', '/api/companies', { name: 'Lekarne Uspeh', address: 'Cesta 1' })).id;
    ids.unitA = (await call('admin', 'POST', '/api/units', { name: 'Enota Ajdovščina', companyId: ids.company })).id;
    ids.unitB = (await call('admin', 'POST', '/api/units', { name: 'Enota Bežigrad', companyId: ids.company })).id;
    for (const [name, unit] of [
      ['a1', ids.unitA],
      ['a2', ids.unitA],
      ['b1', ids.unitB],
      ['b2', ids.unitB],
    ] as const) {
      ids[name] = await p.createUser(name, [{ roleId: ROLE.participant, unitId: unit as number, companyId: ids.company as number }]);
    }
    await p.createUser('vodja', [{ roleId: ROLE.manager, unitId: ids.unitA as number, companyId: ids.company as number }]);
    tokens.vodja = (await p.login('vodja')).token;
    courseId = (
      await call('admin', 'POST', '/api/courses', {
        type: 3,
        title: 'Dva kviza',
        description: 'Izobraževanje z dvema kvizoma za preverjanje uspešnosti.',
        cover: '/c.svg',
        creditPoints: 1,
        audience: { companyIds: [ids.company] },
      })
    ).id;
    first = (await call('admin', 'POST', `/api/courses/${courseId}/blocks`, quizBlock('Prvi kviz'))).id;
    second = (await call('admin', 'POST', `/api/courses/${courseId}/blocks`, quizBlock('Drugi kviz'))).id;

    const [a1, a2, b1, b2] = [ids.a1, ids.a2, ids.b1, ids.b2] as number[];
    await steps(a1 as number, [started(a1 as number), passed(first, 1, 100), failed(second, 1, 40), passed(second, 2, 90), completed]);
    await steps(a2 as number, [started(a2 as number), failed(first, 1, 20), failed(first, 2, 60)]);
    await steps(b1 as number, [started(b1 as number), passed(first, 1, 80), passed(second, 1, 100), completed]);
    await steps(b2 as number, [started(b2 as number)]);
  }, 180_000);

  afterAll(async () => p?.close());

  const success = async (who: string, query = '') => ((await call(who, 'GET', `/api/courses/${courseId}/success${query}`)) as { success: Success }).success;

  it('counts each block on its own and averages every best score for the course', async () => {
    expect(await success('admin')).toEqual({
      started: 4,
      completed: 2,
      completionRate: 50,
      // Per block: 3 + 2 tried, 2 + 2 passed, 2 + 1 at once.
      attempted: 5,
      passed: 4,
      successRate: 80,
      firstAttemptRate: 60,
      // Best scores 100, 60, 80 (first block) and 90, 100 (second): 430 / 5, not the blocks' 80 and 95 averaged.
      averageScore: 86,
      quizzes: [
        { blockId: first, attempted: 3, passed: 2, firstAttemptPassed: 2, attempts: 4, successRate: 66.7, firstAttemptRate: 66.7, averageScore: 80 },
        { blockId: second, attempted: 2, passed: 2, firstAttemptPassed: 1, attempts: 3, successRate: 100, firstAttemptRate: 50, averageScore: 95 },
      ],
    });
  });

  it("counts a unit's participants only, for the unit's page and its manager alike", async () => {
    const unitA = {
      started: 2,
      completed: 1,
      completionRate: 50,
      attempted: 3,
      passed: 2,
      successRate: 66.7,
      firstAttemptRate: 33.3,
      // a1's 100 and 90, a2's 60.
      averageScore: 83.3,
      quizzes: [
        { blockId: first, attempted: 2, passed: 1, firstAttemptPassed: 1, attempts: 3, successRate: 50, firstAttemptRate: 50, averageScore: 80 },
        { blockId: second, attempted: 1, passed: 1, firstAttemptPassed: 0, attempts: 2, successRate: 100, firstAttemptRate: 0, averageScore: 90 },
      ],
    };
    expect(await success('admin', `?communityId=${ids.unitA}`)).toEqual(unitA);
    expect(await success('vodja')).toEqual(unitA);
    expect(await success('admin', `?communityId=${ids.unitB}`)).toMatchObject({ started: 2, completed: 1, attempted: 2, passed: 2, averageScore: 90 });
  });

  it("shows in a report, section by section, what the success pages show, for everyone and for a unit's manager", async () => {
    const reportId = (await call('admin', 'POST', `/api/courses/${courseId}/reports`, { intervalId: 0, children: true })).id;
    for (const who of ['admin', 'vodja']) {
      const report = (await call(who, 'GET', `/api/courses/${courseId}/reports/${reportId}`)) as Report;
      const page = await success(who, `?intervalId=0&asOf=${encodeURIComponent(report.window.asOf)}`);
      expect(report.participation, who).toMatchObject({
        participants: page.started,
        completions: page.completed,
        attempted: page.attempted,
        passed: page.passed,
        successRate: page.successRate,
        averageScore: page.averageScore,
      });
      for (const child of report.children ?? []) {
        const unit = await success('admin', `?intervalId=0&asOf=${encodeURIComponent(report.window.asOf)}&communityId=${child.id}`);
        expect(child, `${who}: ${child.name}`).toMatchObject({ participants: unit.started, completions: unit.completed, successRate: unit.successRate });
      }
      expect(report.children?.map((c) => c.name)).toEqual(who === 'admin' ? ['Enota Ajdovščina', 'Enota Bežigrad'] : ['Enota Ajdovščina']);
      // Everything happened today: one day, its openings and completions those of the reader's people.
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Ljubljana' }).format(new Date(report.window.asOf));
      expect(report.timeline, who).toEqual({ bucket: 'day', periods: [{ period: today, participants: page.started, completions: page.completed }] });
    }
  });
});
