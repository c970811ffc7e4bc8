import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';

export type CourseReadDb = DatabasePool;

/**
 * The caller's side of "who a course is for", as one row: their units (through any role), the
 * companies of those units, the community groups containing them, and their profession.
 */
const audienceOf = (userId: number) => sql.fragment`(
  select array_agg(r.unit_id) as units, array_agg(coalesce(r.company_id, un.company_id)) as companies,
         (select array_agg(gu.group_id) from rm.community_group_units gu join rm.user_roles g on g.unit_id = gu.unit_id where g.user_id = ${userId}) as groups,
         (select u.profession_id from rm.users u where u.id = ${userId}) as profession
    from rm.user_roles r left join rm.units un on un.id = r.unit_id where r.user_id = ${userId}) me`;

/**
 * Who a course is for (decision 0011): published and not deleted, and public or targeted at the
 * user. Organisation targets (units, companies, community groups of the user's units) and
 * profession targets are each matched when set; a course with both needs both. The course row
 * carries its targets as arrays and flags, so this is a few tests per course against `me`, not
 * subqueries per course (docs/benchmarks.md, courses).
 */
const visible = sql.fragment`
  c.published and c.status <> 'deleted' and (c.public or (
    (c.org_audience or c.profession_audience)
    and (not c.org_audience or c.audience_units && me.units or c.audience_companies && me.companies or c.audience_groups && me.groups)
    and (not c.profession_audience or me.profession = any(c.audience_professions))))`;

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
  postsEnabled: z.boolean(),
  certificateEnabled: z.boolean(),
});

export type UserCourseItem = z.infer<typeof userCourseItem>;

const userCourseSelect = (userId: number) => sql.fragment`
  select c.id, c.type, c.title, c.description, c.cover, c.credit_points as "creditPoints", c.intervals, c.status = 'archived' as archived,
         coalesce(e.status, 'none') as enrollment,
         case when e.user_id is null then 0
              else (select count(*) from rm.course_records r where r.course_id = c.id and r.user_id = ${userId} and r.done)::int end as "blocksDone",
         c.blocks_count as "blocksTotal", e.started_at as "startedAt", e.completed_at as "completedAt", e.certificate_id::text as "certificateId",
         c.posts_enabled as "postsEnabled", c.certificate_enabled as "certificateEnabled"
    from rm.courses c cross join ${audienceOf(userId)} left join rm.enrollments e on e.course_id = c.id and e.user_id = ${userId}`;

/**
 * The participant's courses: visible ones, plus any they started (also when no longer targeted).
 * These reads run on most requests of a participant, so they are named prepared statements (the
 * SQL text never varies; planning it each time cost more than running it).
 */
export const listUserCourses = async (db: CourseReadDb, userId: number, options: { search?: string | undefined }) => {
  const pattern = options.search?.trim() ? `%${options.search.trim().replace(/[\\%_]/g, (x) => `\\${x}`)}%` : null;
  return db.any(sql.prepared('courses_user_list', userCourseItem)`
    ${userCourseSelect(userId)}
     where (${visible} or (e.user_id is not null and c.status <> 'deleted')) and (${pattern}::text is null or c.title ilike ${pattern})
     order by e.completed_at desc nulls first, c.updated_at desc`);
};

export const getUserCourse = async (db: CourseReadDb, userId: number, courseId: number) =>
  db.maybeOne(sql.prepared('courses_user_course', userCourseItem)`
    ${userCourseSelect(userId)}
     where c.id = ${courseId} and (${visible} or (e.user_id is not null and c.status <> 'deleted'))`);

export const isCourseVisible = async (db: CourseReadDb, userId: number, courseId: number) => (await getUserCourse(db, userId, courseId)) !== null;

export const blockItem = z.object({
  id: z.number(),
  course_id: z.number(),
  position: z.number(),
  kind: z.string(),
  name: z.string(),
  fields: z.record(z.string(), z.unknown()),
});

type FollowUp = { professionGroupId: number | null };

/**
 * What a participant sees of a block: not which quiz answer is correct, and of the NPS follow-up
 * questions only those for everyone or for the participant's profession group (spec §3).
 */
const forParticipant = (fields: Record<string, unknown>, professionGroupId: number | null) =>
  fields.kind === 'quiz'
    ? {
        ...fields,
        questions: (fields.questions as { id: string; text: string; answers: { id: string; text: string }[] }[]).map((q) => ({
          id: q.id,
          text: q.text,
          answers: q.answers.map((a) => ({ id: a.id, text: a.text })),
        })),
      }
    : fields.kind === 'nps'
      ? {
          ...fields,
          followUps: ((fields.followUps as FollowUp[] | undefined) ?? []).filter(
            (f) => f.professionGroupId === null || f.professionGroupId === professionGroupId,
          ),
        }
      : fields;

/** spec §7 GET /block?course_id=: the course's blocks in order (each with course_id). */
export const listBlocks = async (db: CourseReadDb, courseId: number, options: { participantId: number | null }) => {
  const rows = await db.any(sql.type(blockItem)`
    select block_id as id, course_id, position, kind, name, fields from rm.course_blocks where course_id = ${courseId} order by position`);
  if (options.participantId === null) return [...rows];
  const group = await db.maybeOneFirst(sql.type(z.object({ group_id: z.number().nullable() }))`
    select p.group_id from rm.users u join rm.professions p on p.id = u.profession_id where u.id = ${options.participantId}`);
  return rows.map((row) => ({ ...row, fields: forParticipant(row.fields, group ?? null) }));
};

export const recordItem = z.object({
  block_id: z.number(),
  course_id: z.number(),
  opened: z.boolean(),
  done: z.boolean(),
  videoSeconds: z.number(),
  quizAttempts: z.number(),
  quizScore: z.number().nullable(),
  quizPassed: z.boolean().nullable(),
  npsScore: z.number().nullable(),
});

/** spec §7 GET /record?course_id=: the caller's records of the course's blocks. */
export const listRecords = async (db: CourseReadDb, userId: number, courseId: number) =>
  db.any(sql.prepared('courses_user_records', recordItem)`
    select block_id, course_id, opened, done, video_seconds as "videoSeconds", quiz_attempts as "quizAttempts", quiz_score as "quizScore",
           quiz_passed as "quizPassed", nps_score as "npsScore"
      from rm.course_records where course_id = ${courseId} and user_id = ${userId} order by block_id`);

export const completedCourseIds = async (db: CourseReadDb, userId: number) => [
  ...(await db.anyFirst(
    sql.type(z.object({ course_id: z.number() }))`select course_id from rm.enrollments where user_id = ${userId} and status = 'completed'`,
  )),
];

export const adminCourse = z.object({
  id: z.number(),
  published: z.boolean(),
  status: z.string(),
  fields: z.record(z.string(), z.unknown()),
  blocks: z.array(blockItem),
  enrolled: z.number(),
  completed: z.number(),
});

/** spec §7 GET /courses/{id} (admin or editor): the course with its blocks as authored. */
export const getAdminCourse = async (db: CourseReadDb, courseId: number) => {
  const course = await db.maybeOne(sql.type(
    z.object({
      id: z.number(),
      published: z.boolean(),
      status: z.string(),
      fields: z.record(z.string(), z.unknown()),
      enrolled: z.number(),
      completed: z.number(),
    }),
  )`
    select c.id, c.published, c.status, c.fields,
           (select count(*) from rm.enrollments e where e.course_id = c.id)::int as enrolled,
           (select count(*) from rm.enrollments e where e.course_id = c.id and e.status = 'completed')::int as completed
      from rm.courses c where c.id = ${courseId} and c.status <> 'deleted'`);
  if (!course) return null;
  return { ...course, blocks: await listBlocks(db, courseId, { participantId: null }) };
};

export const adminCourseListItem = z.object({
  id: z.number(),
  title: z.string(),
  type: z.number(),
  published: z.boolean(),
  status: z.string(),
  blocksCount: z.number(),
  enrolled: z.number(),
});

export const listAdminCourses = async (db: CourseReadDb) =>
  db.any(sql.type(adminCourseListItem)`
    select c.id, c.title, c.type, c.published, c.status, c.blocks_count as "blocksCount",
           (select count(*) from rm.enrollments e where e.course_id = c.id)::int as enrolled
      from rm.courses c where c.status <> 'deleted' order by c.updated_at desc`);

/** What the participant's certificate of a course shows; null until it was issued. */
export const certificateData = async (db: CourseReadDb, userId: number, courseId: number) =>
  db.maybeOne(sql.type(
    z.object({
      certificateId: z.string(),
      participantName: z.string(),
      courseTitle: z.string(),
      creditPoints: z.number(),
      completedAt: z.string(),
      companyName: z.string().nullable(),
      signature: z.object({ name: z.string(), role: z.string(), imageFileId: z.number().nullable().default(null) }).nullable(),
    }),
  )`
    select e.certificate_id::text as "certificateId", concat_ws(' ', u.first_name, u.middle_name, u.last_name) as "participantName",
           c.title as "courseTitle", coalesce(e.credit_points, c.credit_points) as "creditPoints", e.completed_at as "completedAt",
           co.name as "companyName", co.signature
      from rm.enrollments e
      join rm.courses c on c.id = e.course_id
      join rm.users u on u.id = e.user_id
      left join lateral (
        select cc.name, cc.signature from rm.user_roles r left join rm.units un on un.id = r.unit_id
          join rm.companies cc on cc.id = coalesce(r.company_id, un.company_id)
         where r.user_id = e.user_id order by (cc.signature is null), r.role_id desc limit 1) co on true
     where e.course_id = ${courseId} and e.user_id = ${userId} and e.certificate_id is not null`);
