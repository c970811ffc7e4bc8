import { randomUUID } from 'node:crypto';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CERTIFICATE_NUMBER_PATTERN } from '../../domain/courses/certificate.ts';
import { blockRule, courseRule } from '../../domain/courses/course.rules.ts';
import { createEventCodec } from '../../infrastructure/event-store/event-codec.ts';
import { type AllPosition, newEventId, type RecordedEvent, START } from '../../infrastructure/event-store/event-store.port.ts';
import { createPostgresEventStore } from '../../infrastructure/event-store/postgres/postgres-event-store.ts';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { EVENT_DEFINITIONS } from '../../infrastructure/main/event-definitions.ts';
import { PROJECTIONS } from '../../infrastructure/main/platform.ts';
import { schemaOf } from '../../infrastructure/projections/generations.ts';
import { createProjectionRunner } from '../../infrastructure/projections/projection-runner.ts';
import { recorded } from '../../tests/support/projection-spec.ts';
import { createTestDatabase } from '../../tests/support/test-database.ts';
import { coursesProjection } from './courses.projection.ts';
import { listBlocks } from './courses.queries.ts';
import { getUserCourse, getUserCourseDetail, listUserCourses } from './user-courses.queries.ts';

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;
type Fact = { stream: string; type: string; data: unknown };

const codec = createEventCodec(EVENT_DEFINITIONS);
/** Every fact passes its event schema, as an append would check it. */
const fact = (stream: string, type: string, data: unknown): Fact => ({ stream, type, data: codec.encode(type, data).data });

const fields = (title: string, more: object = {}) =>
  courseRule.parse({ type: 4, title, description: 'Pregled najpogostejših interakcij zdravil v lekarni.', cover: '/covers/c.jpg', creditPoints: 2, ...more });
const course = (id: number, type: string, data: object = {}) => fact(`course-${id}`, type, data);
const addBlock = (courseId: number, blockId: number, position: number, block: object) =>
  course(courseId, 'CourseBlockAdded', { blockId, position, block: blockRule.parse(block) });
const step = (courseId: number, userId: number, type: string, data: object = {}) => fact(`enrollment-${courseId}_${userId}`, type, data);

const CERTIFICATE = '7d1c1f4e-8a57-4c1e-9b8e-2f0c7f3a9b10';
const ISSUER = { companyId: 1, companyName: 'Lekarne d.o.o.', unitId: 3, unitName: 'Lekarna Center' };
const quiz = {
  kind: 'quiz',
  name: 'Preverjanje',
  batchSize: 1,
  successThreshold: 100,
  retries: 1,
  questions: [
    {
      id: 'q1',
      text: 'Ali grenivka vpliva na statine?',
      answers: [
        { id: 'a', text: 'Da', correct: true },
        { id: 'b', text: 'Ne' },
      ],
    },
  ],
};
const nps = { kind: 'nps', name: 'Mnenje', question: 'Bi priporočili?', set: 1, reasons: { detractor: [], neutral: [], promoter: ['Uporabno'] } };

/**
 * Course 1 is for unit 3 and profession 7: video, quiz, NPS, credit points. Course 2 is public; its
 * blocks are added, moved and added again in between (22, 23, 21), the order a redelivered
 * "add at position" must not disturb. Course 3 is deleted, course 4 never published; course 5 is
 * for company 1, course 6 for community group 1 (unit 4).
 * Participant 5 completes course 1 (quiz failed once, then passed) and opens a block of course 2;
 * participant 6 watches a third of course 1's video.
 */
const COURSE_FACTS: Fact[] = [
  course(1, 'CourseCreated', { courseId: 1, fields: fields('Interakcije', { audience: { unitIds: [3] } }) }),
  addBlock(1, 11, 0, { kind: 'video', name: 'Uvod', vimeoId: '76979871' }),
  addBlock(1, 12, 1, quiz),
  addBlock(1, 13, 2, nps),
  addBlock(1, 14, 3, { kind: 'points', name: 'Kreditne točke', points: 2 }),
  course(1, 'CourseUpdated', {
    fields: fields('Interakcije zdravil', {
      audience: { unitIds: [3], byProfession: true, professionIds: [7] },
      lecturer: 'dr. Ana Novak',
      durationMinutes: 90,
    }),
  }),
  course(1, 'CoursePublished'),
  course(2, 'CourseCreated', { courseId: 2, fields: fields('Higiena rok', { public: true, creditPoints: 0.5 }) }),
  addBlock(2, 21, 0, { kind: 'article', name: 'Članek', html: '<p>Umivanje rok</p>' }),
  addBlock(2, 22, 1, { kind: 'textFile', name: 'Navodila', fileUrl: '/media/navodila.pdf' }),
  course(2, 'CourseBlockMoved', { blockId: 21, position: 1 }),
  addBlock(2, 23, 1, { kind: 'typeform', name: 'Anketa', typeformId: 'abcd1234' }),
  course(2, 'CoursePublished'),
  course(3, 'CourseCreated', { courseId: 3, fields: fields('Izbrisano', { public: true }) }),
  addBlock(3, 31, 0, { kind: 'points', name: 'Točke', points: 1 }),
  course(3, 'CoursePublished'),
  course(3, 'CourseDeleted'),
  course(4, 'CourseCreated', { courseId: 4, fields: fields('Osnutek', { audience: { companyIds: [1] } }) }),
  addBlock(4, 41, 0, { kind: 'points', name: 'Točke', points: 1 }),
  course(5, 'CourseCreated', { courseId: 5, fields: fields('Za podjetje', { audience: { companyIds: [1] } }) }),
  addBlock(5, 51, 0, { kind: 'points', name: 'Točke', points: 1 }),
  course(5, 'CoursePublished'),
  course(6, 'CourseCreated', { courseId: 6, fields: fields('Za skupino', { audience: { groupIds: [1] } }) }),
  addBlock(6, 61, 0, { kind: 'points', name: 'Točke', points: 1 }),
  course(6, 'CoursePublished'),
  step(1, 5, 'CourseStarted', { courseId: 1, userId: 5 }),
  step(1, 5, 'BlockOpened', { blockId: 11, done: false }),
  step(1, 5, 'VideoProgressed', { blockId: 11, seconds: 30, duration: 120 }),
  step(1, 6, 'CourseStarted', { courseId: 1, userId: 6 }),
  step(1, 6, 'BlockOpened', { blockId: 11, done: false }),
  step(1, 5, 'VideoProgressed', { blockId: 11, seconds: 110, duration: 120 }),
  step(1, 5, 'VideoCompleted', { blockId: 11 }),
  step(1, 6, 'VideoProgressed', { blockId: 11, seconds: 40, duration: 120 }),
  step(1, 5, 'QuizAnswerSubmitted', { blockId: 12, attempt: 1, questionId: 'q1', answerId: 'b', correct: false }),
  step(1, 5, 'QuizFailed', { blockId: 12, attempt: 1, score: 0, threshold: 100, retriesLeft: 1 }),
  step(1, 5, 'QuizAnswerSubmitted', { blockId: 12, attempt: 2, questionId: 'q1', answerId: 'a', correct: true }),
  step(1, 5, 'QuizPassed', { blockId: 12, attempt: 2, score: 100, threshold: 100 }),
  step(2, 5, 'CourseStarted', { courseId: 2, userId: 5 }),
  step(2, 5, 'BlockOpened', { blockId: 22, done: true }),
  step(1, 5, 'NpsAnswered', { blockId: 13, score: 9, reasons: ['Uporabno'], comment: null, followUps: [] }),
  step(1, 5, 'BlockOpened', { blockId: 14, done: true }),
  step(1, 5, 'CourseCompleted', { creditPoints: 2 }),
  step(1, 5, 'CertificateIssued', { certificateId: CERTIFICATE, issuer: ISSUER }),
];

/** Every row of every table of the projection in a schema, in a stable order. */
const snapshot = async (db: TestDb, schema: string) => {
  const tables: Record<string, string[]> = {};
  for (const name of coursesProjection.tables) {
    const { rows } = await db.pg.query(`select * from "${schema}"."${name}"`);
    tables[name] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return tables;
};

/** The projection's tables in a schema of their own, each batch applied in a transaction of its own. */
const project = async (db: TestDb, batches: readonly (readonly RecordedEvent[])[]) => {
  const schema = `spec_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const table = (name: string) => sql.identifier([schema, name]);
  await db.slonik.query(sql.unsafe`create schema ${sql.identifier([schema])}`);
  for (const statement of coursesProjection.setup(table)) await db.slonik.query(statement);
  for (const batch of batches) {
    await db.slonik.transaction(async (tx) =>
      coursesProjection.apply(
        { tx, table },
        batch.filter((e) => coursesProjection.handles.includes(e.type)),
      ),
    );
  }
  return schema;
};

const rowsOf = async (db: TestDb, schema: string, name: string, orderBy: string) =>
  (await db.pg.query(`select * from "${schema}"."${name}" order by ${orderBy}`)).rows;

describe('courses projection', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 10 });
  });
  afterAll(async () => db.drop());

  const minute = (n: number) => new Date(Date.UTC(2026, 2, 1, 8, n));
  const events = COURSE_FACTS.map((f, i) => recorded(f.stream, f.type, f.data, minute(i)));

  it('builds courses, blocks in order, audience, enrollments and per-block records', async () => {
    const schema = await project(db, [events]);
    expect((await rowsOf(db, schema, 'courses', 'id')).map((c) => [c.id, c.title, c.public, c.published, c.status, c.blocks_count, c.credit_points])).toEqual([
      [1, 'Interakcije zdravil', false, true, 'published', 4, '2.0'],
      [2, 'Higiena rok', true, true, 'published', 3, '0.5'],
      [3, 'Izbrisano', true, true, 'deleted', 1, '2.0'],
      [4, 'Osnutek', false, false, 'draft', 1, '2.0'],
      [5, 'Za podjetje', false, true, 'published', 1, '2.0'],
      [6, 'Za skupino', false, true, 'published', 1, '2.0'],
    ]);
    expect(await rowsOf(db, schema, 'course_audience', 'course_id, kind, target_id')).toEqual([
      { course_id: 1, kind: 'profession', target_id: 7 },
      { course_id: 1, kind: 'unit', target_id: 3 },
      { course_id: 4, kind: 'company', target_id: 1 },
      { course_id: 5, kind: 'company', target_id: 1 },
      { course_id: 6, kind: 'group', target_id: 1 },
    ]);
    expect((await rowsOf(db, schema, 'course_blocks', 'course_id, position')).map((b) => [b.course_id, b.position, b.block_id, b.kind])).toEqual([
      [1, 0, 11, 'video'],
      [1, 1, 12, 'quiz'],
      [1, 2, 13, 'nps'],
      [1, 3, 14, 'points'],
      [2, 0, 22, 'textFile'],
      [2, 1, 23, 'typeform'],
      [2, 2, 21, 'article'],
      [3, 0, 31, 'points'],
      [4, 0, 41, 'points'],
      [5, 0, 51, 'points'],
      [6, 0, 61, 'points'],
    ]);
    expect(
      (await rowsOf(db, schema, 'enrollments', 'course_id, user_id')).map((e) => [
        e.course_id,
        e.user_id,
        e.status,
        e.credit_points,
        e.certificate_id,
        e.certificate_number,
        e.certificate_issuer,
      ]),
    ).toEqual([
      // The certificate's short number (decision 0032), computed from its UUID and the time it was issued.
      [1, 5, 'completed', '2.0', CERTIFICATE, expect.stringMatching(CERTIFICATE_NUMBER_PATTERN), ISSUER],
      [1, 6, 'started', null, null, null, null],
      [2, 5, 'started', null, null, null, null],
    ]);
    const records = (await rowsOf(db, schema, 'course_records', 'course_id, user_id, block_id')).map((r) => [
      r.course_id,
      r.user_id,
      r.block_id,
      r.opened,
      r.done,
      Number(r.video_seconds),
      r.quiz_attempts,
      r.quiz_score === null ? null : Number(r.quiz_score),
      r.quiz_passed,
      r.nps_score,
    ]);
    // course, user, block, opened, done, video seconds, quiz attempts, quiz score, quiz passed, NPS
    expect(records).toEqual([
      [1, 5, 11, true, true, 110, 0, null, null, null],
      [1, 5, 12, true, true, 0, 2, 100, true, null],
      [1, 5, 13, true, true, 0, 0, null, null, 9],
      [1, 5, 14, true, true, 0, 0, null, null, null],
      [1, 6, 11, true, false, 40, 0, null, null, null],
      [2, 5, 22, true, true, 0, 0, null, null, null],
    ]);
  });

  it('leaves exactly the same rows when any suffix of the events is delivered again (a crash before the checkpoint)', async () => {
    const once = await snapshot(db, await project(db, [events]));
    // Redelivery from every possible checkpoint, of everything after it, in one batch.
    for (let from = 0; from < events.length; from++) {
      const again = await snapshot(db, await project(db, [events, events.slice(from)]));
      expect(again, `redelivered from event ${from} (${events[from]?.type})`).toEqual(once);
    }
    // Applied in small batches, each one twice in a row.
    const batches = [0, 5, 10, 17, 22, 30, 36].map((start, i, all) => events.slice(start, all[i + 1] ?? events.length));
    expect(
      await snapshot(
        db,
        await project(
          db,
          batches.flatMap((b) => [b, b]),
        ),
      ),
    ).toEqual(once);
  });

  it('answers the course list, course page, blocks and records from events appended to the store, and again after a redelivery', async () => {
    const store = createPostgresEventStore({ pool: db.pg, connect: db.connect, codec });
    const runner = createProjectionRunner({ db, store, projections: PROJECTIONS, log: silentLog, batchSize: 7, idlePollMs: 50, lagLogIntervalMs: 0 });
    const append = async (f: Fact) =>
      store.append(f.stream, [{ eventId: newEventId(), type: f.type, data: f.data, metadata: {} }], { expectedRevision: 'any' });
    const registered = (userId: number, professionId: number, unitId: number) => [
      fact(`user-${userId}`, 'UserRegistered', {
        userId,
        username: `u${userId}`,
        email: `u${userId}@test.si`,
        firstName: 'Ana',
        middleName: null,
        lastName: `Novak ${userId}`,
        phone: null,
        professionId,
        passwordHash: null,
      }),
      fact(`user-${userId}`, 'UserRoleGranted', { roleId: 10, unitId, companyId: 1 }),
    ];
    const organisation = [
      fact('company-1', 'CompanyCreated', {
        companyId: 1,
        name: 'Lekarne',
        address: 'Cesta 1',
        city: null,
        zip: null,
        region: null,
        tagId: null,
        vat: null,
        parentCompanyId: null,
        externalId: null,
        syncDestination: null,
        financial: { iban: null, swift: null, billingEmail: null },
      }),
      fact('unit-3', 'UnitCreated', { unitId: 3, companyId: 1, name: 'Center', tagId: null }),
      fact('unit-4', 'UnitCreated', { unitId: 4, companyId: 1, name: 'Bežigrad', tagId: null }),
      fact('communitygroup-1', 'CommunityGroupCreated', { groupId: 1, name: 'Ljubljana', unitIds: [4] }),
      ...registered(5, 7, 3),
      ...registered(6, 7, 3),
      ...registered(8, 7, 4),
    ];
    let last: AllPosition = START;
    for (const f of [...organisation, ...COURSE_FACTS]) last = (await append(f)).position;
    await runner.start();
    try {
      expect(await runner.waitFor(['users', 'organisation', 'courses'], last, 20_000)).toBe(true);
      const answers = async () => ({
        lists: await Promise.all([5, 6, 8].map(async (user) => [...(await listUserCourses(db.slonik, user, {}))].sort((a, b) => a.id - b.id))),
        page: await getUserCourse(db.slonik, 5, 1),
        blocks: await listBlocks(db.slonik, 2, { participantId: 5 }),
        // As GET /api/record reads them: with the course, in one round trip.
        records: (await getUserCourseDetail(db.slonik, 5, 1, { records: true }))?.records ?? [],
      });
      const before = await answers();
      const [ana, bojan, cene] = before.lists;
      expect(ana?.map((c) => [c.id, c.enrollment, c.blocksDone, c.blocksTotal, c.certificateId])).toEqual([
        [1, 'completed', 4, 4, CERTIFICATE],
        [2, 'started', 1, 3, null],
        [5, 'none', 0, 1, null],
      ]);
      expect(bojan?.map((c) => [c.id, c.enrollment, c.blocksDone, c.blocksTotal])).toEqual([
        [1, 'started', 0, 4],
        [2, 'none', 0, 3],
        [5, 'none', 0, 1],
      ]);
      // Unit 4 is not course 1's audience but is in group 1; course 3 is deleted and course 4 unpublished.
      expect(cene?.map((c) => c.id)).toEqual([2, 5, 6]);
      expect(before.page).toMatchObject({ id: 1, title: 'Interakcije zdravil', creditPoints: 2, enrollment: 'completed', blocksDone: 4, blocksTotal: 4 });
      // The course card's lecturer and duration (issue 33); a course without them answers null.
      expect(ana?.map((c) => [c.id, c.lecturer, c.durationMinutes])).toEqual([
        [1, 'dr. Ana Novak', 90],
        [2, null, null],
        [5, null, null],
      ]);
      expect(before.page?.completedAt).not.toBeNull();
      expect(before.blocks.map((b) => [b.id, b.position, b.course_id])).toEqual([
        [22, 0, 2],
        [23, 1, 2],
        [21, 2, 2],
      ]);
      expect(before.records.map((r) => [r.block_id, r.opened, r.done, r.videoSeconds, r.quizAttempts, r.quizScore, r.quizPassed, r.npsScore])).toEqual([
        [11, true, true, 110, 0, null, null, null],
        [12, true, true, 0, 2, 100, true, null],
        [13, true, true, 0, 0, null, null, 9],
        [14, true, true, 0, 0, null, null, null],
      ]);

      // The runner stops; then everything it applied is applied to the live tables once more.
      await runner.stop();
      const generation = (runner.status().find((s) => s.name === 'courses') as { generation: number }).generation;
      const schema = schemaOf('courses', generation);
      const rows = await snapshot(db, schema);
      const stored = (await store.readAll(START, 10_000)).events;
      await db.slonik.transaction(async (tx) =>
        coursesProjection.apply(
          { tx, table: (name) => sql.identifier([schema, name]) },
          stored.filter((e) => coursesProjection.handles.includes(e.type)),
        ),
      );
      expect(await snapshot(db, schema)).toEqual(rows);
      expect(await answers()).toEqual(before);
    } finally {
      await runner.stop();
      await store.close();
    }
  });
});
