import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenProjected, recorded } from '../../tests/support/projection-spec.ts';
import { createTestDatabase } from '../../tests/support/test-database.ts';
import { statsProjection } from './stats.projection.ts';

describe('stats projection', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => db.drop());

  it('keeps each answer, outcome, first opening per day, completion and cost change once, however often a batch is applied', async () => {
    const day1 = new Date('2026-03-01T10:00:00Z');
    const day1Later = new Date('2026-03-01T15:00:00Z');
    const day2 = new Date('2026-03-02T09:00:00Z');
    const { rows } = await givenProjected(db, statsProjection, [
      recorded('enrollment-7_5', 'CourseStarted', { courseId: 7, userId: 5 }, day1),
      recorded('enrollment-7_5', 'BlockOpened', { blockId: 1, done: false }, day1Later),
      recorded('enrollment-7_5', 'QuizFailed', { blockId: 2, attempt: 1, score: 50, threshold: 100, retriesLeft: 1 }, day1Later),
      recorded('enrollment-7_5', 'QuizPassed', { blockId: 2, attempt: 2, score: 100, threshold: 100 }, day2),
      recorded('enrollment-7_5', 'NpsAnswered', { blockId: 3, score: 9, reasons: ['Uporabno'], comment: 'Dobro', followUps: [] }, day2),
      recorded('enrollment-7_5', 'CourseCompleted', { creditPoints: 1 }, day2),
      recorded('course-7', 'CourseCostsSet', { costs: { discount: 10 } }, day1),
    ]);
    expect((await rows('stats_course_opens', 'day')).map((r) => [r.course_id, r.user_id, new Date(r.at as string).toISOString()])).toEqual([
      [7, 5, day1.toISOString()],
      [7, 5, day2.toISOString()],
    ]);
    expect((await rows('stats_quiz_outcomes', 'attempt')).map((r) => [r.attempt, r.passed])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect((await rows('stats_nps_answers')).map((r) => [r.score, r.reasons, r.comment])).toEqual([[9, ['Uporabno'], 'Dobro']]);
    expect(await rows('stats_completions')).toHaveLength(1);
    expect((await rows('stats_course_costs')).map((r) => r.costs)).toEqual([{ discount: 10 }]);
  });
});
