import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

/**
 * A participant double-clicks, or two tabs submit at once: the enrollment stream's expected
 * revision makes each command decide on the latest state, so limits hold and nothing is lost.
 */
describe('enrollment under concurrent commands', () => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  let courseId: number;
  let quizId: number;
  let anaId: number;

  const call = async (who: string, method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await p.app.inject({ method, url, headers: { authorization: `JWT ${tokens[who]}` }, ...(payload ? { payload } : {}) });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.platform.runner.waitFor(['courses', 'users', 'organisation'], parsePosition(position) as never, 10_000);
    return response;
  };
  const events = async () => (await p.store.readStream(`enrollment-${courseId}_${anaId}`)).events;

  beforeAll(async () => {
    p = await startTestPlatform();
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    anaId = await p.createUser('ana', [{ roleId: ROLE.participant, unitId: 1, companyId: null }]);
    tokens.ana = (await p.login('ana')).token;
    const created = await call('admin', 'POST', '/api/courses', {
      type: 3,
      title: 'Kviz',
      description: 'Izobraževanje s kvizom in enim ponovnim poskusom.',
      cover: '/c.svg',
      creditPoints: 1,
      public: true,
    });
    courseId = (created.json() as { id: number }).id;
    const quiz = await call('admin', 'POST', `/api/courses/${courseId}/blocks`, {
      block: {
        kind: 'quiz',
        name: 'Kviz',
        batchSize: 1,
        successThreshold: 100,
        retries: 1,
        questions: [
          {
            id: 'q1',
            text: 'Da ali ne?',
            answers: [
              { id: 'a', text: 'Da', correct: true },
              { id: 'b', text: 'Ne' },
            ],
          },
        ],
      },
    });
    quizId = (quiz.json() as { id: number }).id;
    await call('admin', 'POST', `/api/courses/${courseId}/publish`);
  });

  afterAll(async () => p.close());

  it('starts a course once when started eight times at once', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => call('ana', 'POST', `/api/user-courses/${courseId}/start`)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
    expect((await events()).filter((e) => e.type === 'CourseStarted')).toHaveLength(1);
  });

  it('records exactly the allowed attempts when wrong answers are submitted ten times at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => call('ana', 'POST', `/api/user-courses/${courseId}/blocks/${quizId}/quiz`, { answers: { q1: 'b' } })),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(2);
    expect(answers.filter((a) => a.statusCode === 422)).toHaveLength(8);
    const failed = (await events()).filter((e) => e.type === 'QuizFailed').map((e) => e.data as { attempt: number; retriesLeft: number });
    expect(failed).toEqual([expect.objectContaining({ attempt: 1, retriesLeft: 1 }), expect.objectContaining({ attempt: 2, retriesLeft: 0 })]);
    const records = (await call('ana', 'GET', `/api/record?course_id=${courseId}`)).json() as { items: { quizAttempts: number }[] };
    expect(records.items[0]?.quizAttempts).toBe(2);
  });
});
