import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenProjected, recorded } from '../../tests/support/projection-spec.ts';
import { createTestDatabase } from '../../tests/support/test-database.ts';
import { statsProjection } from './stats.projection.ts';
import { platformTrends } from './stats.queries.ts';

/** Issue 17 item 7: the platform's trends per month, counted once however often a batch is applied. */
describe('platform trends per month', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => db.drop());

  it('counts new users, enrollments, completions, certificates, credit points and NPS in their Ljubljana month, once each', async () => {
    // 31 Oct 23:30 UTC is already November in Ljubljana (UTC+1).
    const lateOctoberUtc = new Date('2026-10-31T23:30:00Z');
    const october = new Date('2026-10-10T10:00:00Z');
    const november = new Date('2026-11-05T10:00:00Z');
    const { schema } = await givenProjected(db, statsProjection, [
      recorded('user-5', 'UserRegistered', { userId: 5, origin: 'self' }, october),
      recorded('user-6', 'UserRegistered', { userId: 6, origin: 'admin' }, lateOctoberUtc),
      recorded('enrollment-7_5', 'CourseStarted', { courseId: 7, userId: 5 }, october),
      recorded('enrollment-7_5', 'NpsAnswered', { blockId: 3, score: 10, reasons: [], comment: null, followUps: [] }, october),
      recorded('enrollment-7_5', 'CourseCompleted', { creditPoints: 1.5 }, lateOctoberUtc),
      recorded('enrollment-7_5', 'CertificateIssued', { certificateId: '8f5c2d9e-1b7a-4c3e-9d2f-6a1b3c4d5e6f' }, lateOctoberUtc),
      recorded('enrollment-7_6', 'CourseStarted', { courseId: 7, userId: 6 }, november),
      recorded('enrollment-7_6', 'NpsAnswered', { blockId: 3, score: 3, reasons: [], comment: null, followUps: [] }, november),
      recorded('enrollment-7_6', 'CourseCompleted', { creditPoints: 2 }, november),
      // A survey answered at /anketa counts in the NPS of its month too.
      recorded('course-9', 'SurveyNpsAnswered', { courseId: 9, blockId: 4, respondent: -1, score: 9, reasons: [], comment: null }, november),
    ]);
    // The query reads the active generation's view; here, this spec's tables.
    await db.slonik.query(sql.unsafe`create schema if not exists rm`);
    await db.slonik.query(sql.unsafe`create or replace view rm.stats_months as select * from ${sql.identifier([schema, 'stats_months'])}`);

    const months = await platformTrends(db.slonik, new Date('2026-11-20T12:00:00Z'));
    expect(months).toHaveLength(12);
    expect(months[0]?.month).toBe('2025-12');
    const [oct, nov] = months.slice(-2);
    expect(oct).toMatchObject({ month: '2026-10', users: 1, enrollments: 1, completions: 0, certificates: 0, creditPoints: 0 });
    expect(oct?.nps).toMatchObject({ promoters: 1, detractors: 0, answers: 1, score: 100 });
    // Applied twice by givenProjected, still one of each.
    expect(nov).toMatchObject({ month: '2026-11', users: 1, enrollments: 1, completions: 2, certificates: 1, creditPoints: 3.5 });
    expect(nov?.nps).toMatchObject({ promoters: 1, neutrals: 0, detractors: 1, answers: 2, score: 0 });
    expect(months.slice(0, 10).every((m) => m.users === 0 && m.enrollments === 0 && m.nps.answers === 0)).toBe(true);

    // As of an earlier month: the 12 months up to it.
    const earlier = await platformTrends(db.slonik, new Date('2026-10-15T00:00:00Z'));
    expect(earlier.at(-1)).toMatchObject({ month: '2026-10', users: 1 });
  });
});
