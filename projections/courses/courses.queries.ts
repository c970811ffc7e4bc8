import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { quizOutcomeOf } from '../../domain/courses/course.rules.ts';

export type CourseReadDb = DatabasePool;

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
 * What a participant sees of a block: not which quiz answer is correct nor the explanations (the
 * attempts review shows them as the author allows, decision 0053), with the quiz's outcome settings
 * (defaults for quizzes stored before them); of the NPS follow-up questions only those for everyone
 * or for the participant's profession group (spec §3).
 */
const forParticipant = (fields: Record<string, unknown>, professionGroupId: number | null) =>
  fields.kind === 'quiz'
    ? {
        ...fields,
        ...quizOutcomeOf(fields),
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

/**
 * spec §7 GET /block?course_id=: a course's blocks in order (each with course_id): as authored now, or, for a participant who started on an earlier
 * content version, the blocks of that version (decision 0021).
 */
export const listBlocks = async (db: CourseReadDb, courseId: number, options: { participantId: number | null }) => {
  const pinned =
    options.participantId === null
      ? null
      : await db.maybeOneFirst(sql.type(z.object({ blocks: z.array(blockItem.omit({ course_id: true })) }))`
          select v.blocks from rm.enrollments e
            join rm.courses c on c.id = e.course_id
            join rm.course_block_versions v on v.course_id = e.course_id and v.version = e.content_version
           where e.course_id = ${courseId} and e.user_id = ${options.participantId} and e.content_version <> c.content_version`);
  const rows = pinned
    ? pinned.map((b) => ({ ...b, course_id: courseId }))
    : await db.any(sql.type(blockItem)`
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
  /** Attempts of earlier sets (decision 0053): the current set's attempts are quizAttempts - quizRoundFrom. */
  quizRoundFrom: z.number(),
  /** After a set's last failed attempt: the course ended as not passed, or new attempts open at quizRetryAt. */
  quizNext: z.enum(['ended', 'wait']).nullable(),
  quizRetryAt: z.string().nullable(),
  npsScore: z.number().nullable(),
});

export const completedCourseIds = async (db: CourseReadDb, userId: number) => [
  ...(await db.anyFirst(
    sql.type(z.object({ course_id: z.number() }))`select course_id from rm.enrollments where user_id = ${userId} and status = 'completed'`,
  )),
];

/** A file offered with a course (spec §3 attachments). */
export const courseAttachment = z.object({ fileId: z.number(), name: z.string(), contentType: z.string(), size: z.number() });

export const adminCourse = z.object({
  id: z.number(),
  published: z.boolean(),
  status: z.string(),
  fields: z.record(z.string(), z.unknown()),
  blocks: z.array(blockItem),
  attachments: z.array(courseAttachment),
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
      attachments: z.array(courseAttachment),
      enrolled: z.number(),
      completed: z.number(),
    }),
  )`
    select c.id, c.published, c.status, c.fields, c.attachments,
           (select count(*) from rm.enrollments e where e.course_id = c.id)::int as enrolled,
           (select count(*) from rm.enrollments e where e.course_id = c.id and e.status = 'completed')::int as completed
      from rm.courses c where c.id = ${courseId} and c.status <> 'deleted'`);
  if (!course) return null;
  return { ...course, blocks: await listBlocks(db, courseId, { participantId: null }) };
};

/**
 * Courses that show the uploaded file `/api/files/{fileId}`: as a block's video, text file or its
 * alternative, or as the cover; and the courses of a published academy whose cover it is (a
 * participant sees the academy, with its cover, when they may see one of its courses).
 */
export const coursesUsingFile = async (db: CourseReadDb, fileId: number) => {
  const url = `/api/files/${fileId}`;
  return db.anyFirst(sql.type(z.object({ course_id: z.number() }))`
    select course_id from rm.course_blocks where fields->>'fileUrl' = ${url} or fields->'alternative'->>'fileUrl' = ${url}
    union
    select id from rm.courses where fields->>'cover' = ${url} or attachments @> ${sql.jsonb([{ fileId }])}
    union
    select unnest(course_ids) from rm.academies where cover = ${url} and published and not deleted
    order by course_id`);
};

/**
 * The community a client's course belongs to (spec §6 course 2004-2007, block 1027-1030): its
 * author's unit and company; null for a course the platform's admins authored, or none at all (a
 * community role then learns nothing of it: 404).
 */
/** Whether the read model knows the course yet (deleted ones included): a course created a moment ago may not be there. */
export const courseKnown = async (db: CourseReadDb, courseId: number) =>
  (await db.maybeOneFirst(sql.type(z.object({ known: z.boolean() }))`select true as known from rm.courses where id = ${courseId}`)) === true;

export const courseOwner = async (db: CourseReadDb, courseId: number) => {
  const row = await db.maybeOne(sql.type(z.object({ companyId: z.number().nullable(), unitId: z.number().nullable() }))`
    select owner_company_id as "companyId", owner_unit_id as "unitId" from rm.courses where id = ${courseId} and status <> 'deleted'`);
  return row && row.companyId !== null && row.unitId !== null ? { companyId: row.companyId, unitId: row.unitId } : null;
};

/** The companies of units and of community groups' units: where an audience reaches. */
export const audienceCompanies = async (db: CourseReadDb, unitIds: readonly number[], groupIds: readonly number[]) =>
  db.anyFirst(sql.type(z.object({ company_id: z.number() }))`
    select u.company_id from rm.units u where u.id = any(${sql.array([...unitIds], 'int4')})
    union select u.company_id from rm.community_group_units gu join rm.units u on u.id = gu.unit_id where gu.group_id = any(${sql.array([...groupIds], 'int4')})`);

/**
 * What a course names now, by reference kind (prerequisites and audience): saving it again keeps
 * them though one was deleted since (decision 0047). Nothing for a course that does not exist.
 */
export const courseNamedBefore = async (db: CourseReadDb, courseId: number) => {
  const row = await db.maybeOne(
    sql.type(
      z.object({
        course: z.array(z.number()),
        profession: z.array(z.number()),
        unit: z.array(z.number()),
        company: z.array(z.number()),
        communityGroup: z.array(z.number()),
      }),
    )`select prerequisites as course, audience_professions as profession, audience_units as unit, audience_companies as company,
             audience_groups as "communityGroup"
        from rm.courses where id = ${courseId}`,
  );
  return row ?? {};
};

/** Whether following the prerequisites of these prerequisites leads back to `courseId`: a cycle would leave courses nobody can start. */
export const prerequisiteCycle = async (db: CourseReadDb, courseId: number, prerequisites: readonly number[]) =>
  prerequisites.length > 0 &&
  db.exists(sql.unsafe`
    with recursive reached(id) as (
      select unnest(${sql.array([...prerequisites], 'int4')}::int4[])
      union
      select unnest(c.prerequisites) from rm.courses c join reached r on c.id = r.id
    )
    select 1 from reached where id = ${courseId}`);

/** Named courses that exist (not deleted), with the company that owns a community's course (decision 0047). */
export const courseReferences = async (db: CourseReadDb, ids: readonly number[]) =>
  db.any(sql.type(z.object({ id: z.number(), ownerCompanyId: z.number().nullable() }))`
    select id, owner_company_id as "ownerCompanyId" from rm.courses where id = any(${sql.array([...ids], 'int4')}) and status <> 'deleted'`);

/** The course each named post (comment) is on. */
export const postReferences = async (db: CourseReadDb, ids: readonly number[]) =>
  db.any(sql.type(z.object({ id: z.number(), courseId: z.number() }))`
    select id, course_id as "courseId" from rm.posts where id = any(${sql.array([...ids], 'int4')}) and not deleted`);

/** Which of the named blocks are NPS questions of this course (a survey's questions). */
export const npsBlocksOf = async (db: CourseReadDb, courseId: number, ids: readonly number[]) =>
  db.anyFirst(sql.type(z.object({ block_id: z.number() }))`
    select block_id from rm.course_blocks where course_id = ${courseId} and kind = 'nps' and block_id = any(${sql.array([...ids], 'int4')})`);
