import { sql } from 'slonik';
import { z } from 'zod';
import { type CourseAudience, canReadCourse, type Reader } from '../../domain/courses/course-audience.ts';
import { isPrescriptionOnly } from '../../domain/courses/course-types.rules.ts';
import { type CourseReadDb, recordItem } from './courses.queries.ts';

/**
 * The participant's course reads (list, course page, and the visibility check of blocks, records,
 * posts and every participant command) over an in-memory copy of the courses read model.
 *
 * Why: the list is read on nearly every participant page, and testing a few hundred courses
 * against the reader in SQL and shipping them back per request cost PostgreSQL more than the
 * machine had at 500 requests/s (docs/benchmarks.md, courses). Courses change rarely; what a
 * reader needs per request is small: their audience and their enrollments, one indexed query.
 *
 * Freshness: every change to a course row claims a newer $all position (courses.projection.ts,
 * `claim`), so the newest claimed position plus the active generation is the catalogue's version.
 * Each request reads that version with the reader's row and reloads the copy when it moved, so a
 * read never sees courses older than the read model it asked for (X-Min-Position included).
 */

const catalogueRow = z.object({
  id: z.number(),
  type: z.number(),
  title: z.string(),
  description: z.string(),
  cover: z.string(),
  creditPoints: z.number(),
  intervals: z.array(z.object({ startsAt: z.string(), stopsAt: z.string() })),
  status: z.string(),
  published: z.boolean(),
  public: z.boolean(),
  postsEnabled: z.boolean(),
  certificateEnabled: z.boolean(),
  blocksTotal: z.number(),
  updatedAt: z.string(),
  unitIds: z.array(z.number()),
  companyIds: z.array(z.number()),
  groupIds: z.array(z.number()),
  professionIds: z.array(z.number()),
  ownerCompanyId: z.number().nullable(),
  zoomUrl: z.string().nullable(),
  interactrHtml: z.string().nullable(),
  attachments: z.array(z.object({ fileId: z.number(), name: z.string(), contentType: z.string(), size: z.number() })),
  /** A live webinar's room and times (spec §3 live fields), and its recording (the course's Vimeo id). */
  live: z.object({ roomId: z.string(), startsAt: z.string(), stopsAt: z.string() }).nullable(),
  recordingVimeoId: z.string().nullable(),
  lecturer: z.string().nullable(),
  durationMinutes: z.number().nullable(),
});

type CatalogueCourse = z.infer<typeof catalogueRow> & CourseAudience & { readonly updatedAtMs: number; readonly titleLower: string };

type Catalogue = { readonly version: string; readonly courses: ReadonlyMap<number, CatalogueCourse>; readonly ordered: readonly CatalogueCourse[] };

const enrollmentRow = z.object({
  courseId: z.number(),
  status: z.enum(['started', 'completed']),
  startedAt: z.string(),
  completedAt: z.string().nullable(),
  certificateId: z.string().nullable(),
  certificateNumber: z.string().nullable().default(null),
  blocksDone: z.number(),
  /** The block count of the content version the participant takes (decision 0021); null: the course's own. */
  blocksTotal: z.number().nullable(),
  /** The live webinar checks the participant confirmed (issue 17). */
  presence: z.array(z.number()),
  /** A quiz whose set of attempts ran out (decision 0053): the course ended as not passed, or new attempts wait. */
  quizLock: z
    .object({ next: z.enum(['ended', 'wait']), retryAt: z.string().nullable() })
    .nullable()
    .default(null),
});

const readerRow = z.object({
  version: z.string(),
  units: z.array(z.number().nullable()).nullable(),
  companies: z.array(z.number().nullable()).nullable(),
  groups: z.array(z.number().nullable()).nullable(),
  profession: z.number().nullable(),
  mayPrescribe: z.boolean(),
  enrollments: z.array(enrollmentRow),
});

type Enrollment = z.infer<typeof enrollmentRow>;

export const userCourseItem = z.object({
  id: z.number(),
  type: z.number(),
  title: z.string(),
  description: z.string(),
  cover: z.string(),
  creditPoints: z.number(),
  intervals: z.array(z.object({ startsAt: z.string(), stopsAt: z.string() })),
  archived: z.boolean(),
  enrollment: z.enum(['none', 'started', 'completed']),
  blocksDone: z.number(),
  blocksTotal: z.number(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  certificateId: z.string().nullable(),
  /** The certificate's short number (issue 18, decision 0032), verified at /certifikat/{number}. */
  certificateNumber: z.string().nullable(),
  postsEnabled: z.boolean(),
  certificateEnabled: z.boolean(),
  /** A quiz's set of attempts ran out (decision 0053): the card says not passed, or when new attempts open, instead of sending the participant back. */
  quizLock: z.object({ next: z.enum(['ended', 'wait']), retryAt: z.string().nullable() }).nullable(),
  /** What the course card shows at a glance (issue 33): the lecturer (spec §3) and the author's duration estimate in minutes. */
  lecturer: z.string().nullable(),
  durationMinutes: z.number().nullable(),
});

export type UserCourseItem = z.infer<typeof userCourseItem>;

/** The columns both reader queries start with: the catalogue version, the reader's audience and the enrollments `which` selects. */
const readerColumns = (userId: number, which: ReturnType<typeof sql.fragment>) => sql.fragment`
    coalesce((select generation::text from projections.generations where name = 'courses' and status = 'active'), '0') || ':' ||
           coalesce((select applied_commit::text || '/' || applied_prepare::text from rm.courses order by applied_commit desc, applied_prepare desc limit 1), '') as version,
           (select array_agg(r.unit_id) from rm.user_roles r where r.user_id = ${userId}) as units,
           (select array_agg(coalesce(r.company_id, un.company_id)) from rm.user_roles r left join rm.units un on un.id = r.unit_id where r.user_id = ${userId}) as companies,
           (select array_agg(gu.group_id) from rm.community_group_units gu join rm.user_roles g on g.unit_id = gu.unit_id where g.user_id = ${userId}) as groups,
           (select u.profession_id from rm.users u where u.id = ${userId}) as profession,
           -- to_jsonb: also read while the generation from before the flag still serves (it rebuilds at start): nobody is a prescriber then.
           coalesce((select (to_jsonb(p) ->> 'may_prescribe')::boolean from rm.users u join rm.professions p on p.id = u.profession_id where u.id = ${userId}), false) as "mayPrescribe",
           coalesce((select json_agg(json_build_object(
              'courseId', e.course_id, 'status', e.status, 'startedAt', e.started_at, 'completedAt', e.completed_at, 'certificateId', e.certificate_id,
              'certificateNumber', e.certificate_number,
              'blocksDone', (select count(*) from rm.course_records r where r.course_id = e.course_id and r.user_id = e.user_id and r.done),
              'blocksTotal', e.blocks_total, 'presence', e.presence,
              'quizLock', (select json_build_object('next', r.quiz_next, 'retryAt', r.quiz_retry_at) from rm.course_records r
                            where r.course_id = e.course_id and r.user_id = e.user_id and r.quiz_next is not null and not r.done
                            order by r.block_id limit 1)))
              from rm.enrollments e where ${which}), '[]'::json) as enrollments`;

/**
 * One round trip per request: the catalogue version, the reader's audience (units through any
 * role, their companies, the groups containing them, the profession) and their enrollments with
 * the blocks done. Timestamps inside json come as PostgreSQL text; they are normalised to ISO below.
 */
const readReader = (db: CourseReadDb, userId: number) =>
  db.one(sql.prepared('courses_reader', readerRow)`select ${readerColumns(userId, sql.fragment`e.user_id = ${userId}`)}`);

/**
 * The reader of one course (course page, records, and every visibility check of one course): as
 * readReader, but only that course's enrollment (the list needs all, one course needs one: a
 * participant of many courses no longer counts blocks done of every one), the code it was published
 * under (issue 36) and, when asked, the caller's records of its blocks, all in the same round trip
 * (docs/benchmarks.md, course reads: each query is a round trip and a `writev` more than the plain
 * baseline's one statement).
 */
const oneCourseRow = readerRow.extend({ approvalCode: z.string().nullable(), records: z.array(recordItem).nullable() });
const readReaderOf = (db: CourseReadDb, userId: number, courseId: number, withRecords: boolean) =>
  db.one(sql.prepared('courses_reader_one', oneCourseRow)`
    select ${readerColumns(userId, sql.fragment`e.user_id = ${userId} and e.course_id = ${courseId}`)},
           (select ca.published_code from rm.course_approvals ca where ca.course_id = ${courseId}) as "approvalCode",
           case when ${withRecords}::boolean then coalesce((select json_agg(json_build_object(
              'block_id', r.block_id, 'course_id', r.course_id, 'opened', r.opened, 'done', r.done, 'videoSeconds', r.video_seconds,
              'quizAttempts', r.quiz_attempts, 'quizScore', r.quiz_score, 'quizPassed', r.quiz_passed, 'quizRoundFrom', r.quiz_round_from,
              'quizNext', r.quiz_next, 'quizRetryAt', to_char(r.quiz_retry_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              'npsScore', r.nps_score) order by r.block_id)
              from rm.course_records r where r.course_id = ${courseId} and r.user_id = ${userId}), '[]'::json) end as records`);

const loadCatalogue = async (db: CourseReadDb, version: string): Promise<Catalogue> => {
  const rows = await db.any(sql.type(catalogueRow)`
    select id, type, title, description, cover, credit_points as "creditPoints", intervals, status, published, public,
           posts_enabled as "postsEnabled", certificate_enabled as "certificateEnabled", blocks_count as "blocksTotal", updated_at as "updatedAt",
           audience_units as "unitIds", audience_companies as "companyIds", audience_groups as "groupIds", audience_professions as "professionIds",
           owner_company_id as "ownerCompanyId", fields->>'zoomUrl' as "zoomUrl", fields->>'interactrHtml' as "interactrHtml", attachments,
           case when jsonb_typeof(fields->'live') = 'object' then jsonb_build_object('roomId', fields->'live'->>'roomId',
             'startsAt', fields->'live'->>'startsAt', 'stopsAt', fields->'live'->>'stopsAt') end as live,
           fields->>'vimeoId' as "recordingVimeoId", nullif(fields->>'lecturer', '') as lecturer,
           (fields->>'durationMinutes')::int as "durationMinutes"
      from rm.courses where status <> 'deleted' and not (type = any(${sql.array([...(hiddenTypes.get(db) ?? [])], 'int4')}))`);
  const courses = rows.map((row) => ({
    ...row,
    deleted: false,
    prescriptionOnly: isPrescriptionOnly(row.type),
    updatedAtMs: Date.parse(row.updatedAt),
    titleLower: row.title.toLocaleLowerCase('sl'),
  }));
  // The list's order before enrollments: newest change first, then id, so equal times do not shuffle.
  const ordered = [...courses].sort((a, b) => b.updatedAtMs - a.updatedAtMs || b.id - a.id);
  return { version, courses: new Map(courses.map((c) => [c.id, c])), ordered };
};

/**
 * Course types participants do not see at all on this platform (live courses, type 8, while that
 * feature of spec §1 is off). Set once by the composition root per pool; every participant read
 * (list, course, blocks, records, posts, steps) goes through the catalogue, so they all obey it.
 */
const hiddenTypes = new WeakMap<CourseReadDb, readonly number[]>();
export const hideCourseTypes = (db: CourseReadDb, types: readonly number[]) => {
  hiddenTypes.set(db, types);
  catalogues.delete(db);
};

/** One copy per pool (tests run several databases in one process); concurrent misses share one load. */
const catalogues = new WeakMap<CourseReadDb, { version: string; catalogue: Promise<Catalogue> }>();

const catalogueAt = (db: CourseReadDb, version: string) => {
  const cached = catalogues.get(db);
  if (cached?.version === version) return cached.catalogue;
  const catalogue = loadCatalogue(db, version);
  catalogues.set(db, { version, catalogue });
  catalogue.catch(() => {
    if (catalogues.get(db)?.catalogue === catalogue) catalogues.delete(db);
  });
  return catalogue;
};

const ids = (values: readonly (number | null)[] | null) => new Set((values ?? []).filter((v): v is number => v !== null));
const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());

const item = (course: CatalogueCourse, enrollment: Enrollment | undefined): UserCourseItem => ({
  id: course.id,
  type: course.type,
  title: course.title,
  description: course.description,
  cover: course.cover,
  creditPoints: course.creditPoints,
  intervals: course.intervals,
  archived: course.status === 'archived',
  enrollment: enrollment?.status ?? 'none',
  blocksDone: enrollment?.blocksDone ?? 0,
  blocksTotal: enrollment?.blocksTotal ?? course.blocksTotal,
  startedAt: iso(enrollment?.startedAt ?? null),
  completedAt: iso(enrollment?.completedAt ?? null),
  certificateId: enrollment?.certificateId ?? null,
  certificateNumber: enrollment?.certificateNumber ?? null,
  quizLock: enrollment?.quizLock ? { next: enrollment.quizLock.next, retryAt: iso(enrollment.quizLock.retryAt) } : null,
  postsEnabled: course.postsEnabled,
  certificateEnabled: course.certificateEnabled,
  lecturer: course.lecturer,
  durationMinutes: course.durationMinutes,
});

const readerOf = (row: z.infer<typeof readerRow>): Reader => ({
  unitIds: ids(row.units),
  companyIds: ids(row.companies),
  groupIds: ids(row.groups),
  professionId: row.profession,
  mayPrescribe: row.mayPrescribe,
});

const readerView = async (db: CourseReadDb, userId: number) => {
  const row = await readReader(db, userId);
  const reader = readerOf(row);
  const enrollments = new Map(row.enrollments.map((e) => [e.courseId, e]));
  return { reader, enrollments, catalogue: await catalogueAt(db, row.version) };
};

/**
 * The participant's courses: those for them, plus any they started (also when no longer targeted);
 * completed ones last, newest completion first (the order the course list shows).
 */
export const listUserCourses = async (db: CourseReadDb, userId: number, options: { search?: string | undefined }) => {
  const { reader, enrollments, catalogue } = await readerView(db, userId);
  const search = options.search?.trim().toLocaleLowerCase('sl') ?? '';
  const items: UserCourseItem[] = [];
  for (const course of catalogue.ordered) {
    const enrollment = enrollments.get(course.id);
    if (search !== '' && !course.titleLower.includes(search)) continue;
    if (canReadCourse(course, reader, enrollment !== undefined)) items.push(item(course, enrollment));
  }
  const completedAt = (c: UserCourseItem) => (c.completedAt === null ? Number.POSITIVE_INFINITY : Date.parse(c.completedAt));
  // Stable sort: courses not completed keep the catalogue order ahead of completed ones.
  return items.sort((a, b) => completedAt(b) - completedAt(a) || 0);
};

/** One course with the participant's progress, or null when it is not theirs to see (404). */
export const getUserCourse = async (db: CourseReadDb, userId: number, courseId: number) => (await getUserCourseDetail(db, userId, courseId))?.item ?? null;

/**
 * The course page's course: the list item and what only the page shows (the Zoom link, the
 * Interactr embed, the attachments, the approval code it was published under); with `records`, also
 * the caller's records of its blocks (GET /api/record), from the same round trip.
 */
export const getUserCourseDetail = async (db: CourseReadDb, userId: number, courseId: number, options: { records?: boolean } = {}) => {
  const row = await readReaderOf(db, userId, courseId, options.records === true);
  const catalogue = await catalogueAt(db, row.version);
  const course = catalogue.courses.get(courseId);
  if (!course) return null;
  const enrollment = row.enrollments[0];
  if (!canReadCourse(course, readerOf(row), enrollment !== undefined)) return null;
  return {
    item: item(course, enrollment),
    zoomUrl: course.zoomUrl,
    interactrHtml: course.interactrHtml,
    attachments: course.attachments,
    live: course.live,
    recordingVimeoId: course.recordingVimeoId,
    presence: enrollment?.presence ?? [],
    // The code the course was published under (decision 0063), while it is published; none otherwise.
    approvalCode: course.published ? row.approvalCode : null,
    records: row.records ?? [],
  };
};

export const isCourseVisible = async (db: CourseReadDb, userId: number, courseId: number) => (await getUserCourse(db, userId, courseId)) !== null;
