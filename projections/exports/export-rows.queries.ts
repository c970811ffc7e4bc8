import { type FragmentSqlToken, sql } from 'slonik';
import { z } from 'zod';
import type { ExportsDb } from './exports.queries.ts';

/**
 * The rows each export kind reads from the read models, a page at a time (the job reports progress
 * between pages). Times come as ISO strings in UTC; the job shows them in Ljubljana time. An erased
 * person (decision 0019) comes with `erased`, their fields already the placeholder.
 */
const iso = (column: FragmentSqlToken) => sql.fragment`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const count = sql.type(z.object({ n: z.number() }));

const person = {
  username: z.string(),
  firstName: z.string(),
  middleName: z.string().nullable(),
  lastName: z.string(),
  email: z.string(),
  erased: z.boolean(),
  profession: z.string().nullable(),
};
const PERSON = sql.fragment`u.username, u.first_name as "firstName", u.middle_name as "middleName", u.last_name as "lastName", u.email, u.erased,
  (select p.name from rm.professions p where p.id = u.profession_id) as profession`;
const places = { units: z.string().nullable(), companies: z.string().nullable() };
/** The units and companies stamped on a statistics fact: where its person stood when it happened (decision 0050). */
const STOOD = (units: ReturnType<typeof sql.fragment>, companies: ReturnType<typeof sql.fragment>) => sql.fragment`
  (select string_agg(un.name, ', ' order by un.name) from rm.units un where un.id = any(coalesce(${units}, '{}'::int[]))) as units,
  (select string_agg(co.name, ', ' order by co.name) from rm.companies co where co.id = any(coalesce(${companies}, '{}'::int[]))) as companies`;

// ---------------------------------------------------------------- users

export type UsersExportFilter = { readonly companyId: number; readonly status: 'active' | 'inactive' | 'deleted' | 'all' };

const usersWhere = (filter: UsersExportFilter) =>
  sql.join(
    [
      filter.companyId === 0 ? sql.fragment`true` : sql.fragment`u.role_keys @> ${sql.array([`c${filter.companyId}`], 'text')}`,
      filter.status === 'all' ? sql.fragment`true` : sql.fragment`u.status = ${filter.status}`,
    ],
    sql.fragment` and `,
  );

export const countUsersForExport = (db: ExportsDb, filter: UsersExportFilter) =>
  db.oneFirst(count`select count(*)::int as n from rm.users u where ${usersWhere(filter)}`);

export const userExportRow = z.object({
  id: z.number(),
  ...person,
  phone: z.string().nullable(),
  otherJob: z.string().nullable(),
  licenceNumber: z.string().nullable(),
  chamberMembershipNumber: z.string().nullable(),
  status: z.string(),
  registeredAt: z.string(),
  lastLoginAt: z.string().nullable(),
  roles: z.array(z.object({ roleId: z.number(), unitName: z.string().nullable(), companyName: z.string().nullable() })),
});

/** Users by id, after `afterId`. */
export const usersForExport = (db: ExportsDb, filter: UsersExportFilter, afterId: number, limit: number) =>
  db.any(sql.type(userExportRow)`
    select u.id, ${PERSON}, u.phone, u.other_job as "otherJob", u.licence_number as "licenceNumber", u.chamber_membership_number as "chamberMembershipNumber",
           u.status, ${iso(sql.fragment`u.registered_at`)} as "registeredAt", ${iso(sql.fragment`u.last_login_at`)} as "lastLoginAt",
           coalesce((select json_agg(json_build_object('roleId', r.role_id, 'unitName', un.name, 'companyName', coalesce(c.name, uc.name))
                                     order by r.role_id, un.name)
                       from rm.user_roles r left join rm.units un on un.id = r.unit_id left join rm.companies c on c.id = r.company_id
                       left join rm.companies uc on uc.id = un.company_id
                      where r.user_id = u.id), '[]'::json) as roles
      from rm.users u
     where ${usersWhere(filter)} and u.id > ${afterId}
     order by u.id limit ${limit}`);

// ---------------------------------------------------------------- courses

export const courseForExport = (db: ExportsDb, courseId: number) =>
  db.maybeOne(
    sql.type(
      z.object({ id: z.number(), title: z.string(), intervals: z.array(z.object({ startsAt: z.string(), stopsAt: z.string() })), deleted: z.boolean() }),
    )`select id, title, intervals, status = 'deleted' as deleted from rm.courses where id = ${courseId}`,
  );

export const companyForExport = (db: ExportsDb, companyId: number) =>
  db.maybeOne(sql.type(z.object({ id: z.number(), name: z.string() }))`select id, name from rm.companies where id = ${companyId}`);

export type Period = { readonly start: Date; readonly end: Date };

const participantsWhere = (courseId: number, period: Period) =>
  sql.fragment`e.course_id = ${courseId} and e.started_at >= ${period.start.toISOString()}::timestamptz and e.started_at < ${period.end.toISOString()}::timestamptz`;

export const countParticipantsForExport = (db: ExportsDb, courseId: number, period: Period) =>
  db.oneFirst(count`select count(*)::int as n from rm.enrollments e where ${participantsWhere(courseId, period)}`);

export const participantExportRow = z.object({
  userId: z.number(),
  ...person,
  ...places,
  status: z.string(),
  startedAt: z.string(),
  lastActivityAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  blocksDone: z.number(),
  blocksTotal: z.number(),
  creditPoints: z.number().nullable(),
  certificateIssuedAt: z.string().nullable(),
});

/** Who started the course in the period, in the order they started, with their progress and where they stood when they started it. */
export const participantsForExport = (db: ExportsDb, courseId: number, period: Period, offset: number, limit: number) =>
  db.any(sql.type(participantExportRow)`
    select e.user_id as "userId", ${PERSON},
           ${STOOD(
             sql.fragment`(select o.unit_ids from rm.stats_course_opens o where o.course_id = e.course_id and o.user_id = e.user_id order by o.at limit 1)`,
             sql.fragment`(select o.company_ids from rm.stats_course_opens o where o.course_id = e.course_id and o.user_id = e.user_id order by o.at limit 1)`,
           )}, e.status, ${iso(sql.fragment`e.started_at`)} as "startedAt",
           ${iso(sql.fragment`(select max(r.updated_at) from rm.course_records r where r.course_id = e.course_id and r.user_id = e.user_id)`)} as "lastActivityAt",
           ${iso(sql.fragment`e.completed_at`)} as "completedAt",
           (select count(*) from rm.course_records r where r.course_id = e.course_id and r.user_id = e.user_id and r.done)::int as "blocksDone",
           coalesce(e.blocks_total, c.blocks_count)::int as "blocksTotal",
           e.credit_points::float8 as "creditPoints", ${iso(sql.fragment`e.certificate_issued_at`)} as "certificateIssuedAt"
      from rm.enrollments e join rm.courses c on c.id = e.course_id join rm.users u on u.id = e.user_id
     where ${participantsWhere(courseId, period)}
     order by e.started_at, e.user_id offset ${offset} limit ${limit}`);

const npsWhere = (courseId: number, period: Period) =>
  sql.fragment`a.course_id = ${courseId} and a.answered_at >= ${period.start.toISOString()}::timestamptz and a.answered_at < ${period.end.toISOString()}::timestamptz`;

export const countNpsAnswersForExport = (db: ExportsDb, courseId: number, period: Period) =>
  db.oneFirst(count`select count(*)::int as n from rm.stats_nps_answers a where ${npsWhere(courseId, period)}`);

export const npsAnswerExportRow = z.object({
  userId: z.number(),
  ...person,
  ...places,
  blockId: z.number(),
  blockName: z.string().nullable(),
  score: z.number(),
  reasons: z.array(z.string()),
  comment: z.string().nullable(),
  answeredAt: z.string(),
});

/** Every NPS answer given in the course in the period (an answer given again is a row of its own), in the order given, where its person stood when giving it. */
export const npsAnswersForExport = (db: ExportsDb, courseId: number, period: Period, offset: number, limit: number) =>
  db.any(sql.type(npsAnswerExportRow)`
    select a.user_id as "userId", ${PERSON}, ${STOOD(sql.fragment`a.unit_ids`, sql.fragment`a.company_ids`)}, a.block_id as "blockId",
           (select b.name from rm.course_blocks b where b.course_id = a.course_id and b.block_id = a.block_id) as "blockName",
           a.score, a.reasons, a.comment, ${iso(sql.fragment`a.answered_at`)} as "answeredAt"
      from rm.stats_nps_answers a join rm.users u on u.id = a.user_id
     where ${npsWhere(courseId, period)}
     order by a.answered_at, a.event_id offset ${offset} limit ${limit}`);

// ---------------------------------------------------------------- consents

const consentUsersWhere = (companyId: number) => (companyId === 0 ? sql.fragment`true` : sql.fragment`u.role_keys @> ${sql.array([`c${companyId}`], 'text')}`);

export const countConsentUsersForExport = (db: ExportsDb, companyId: number) =>
  db.oneFirst(count`select count(*)::int as n from rm.users u where ${consentUsersWhere(companyId)}`);

/** The people whose consent histories a consents export reads (every account of the company, or all). */
export const consentUsersForExport = (db: ExportsDb, companyId: number, afterId: number, limit: number) =>
  db.any(sql.type(z.object({ id: z.number(), ...person }))`
    select u.id, ${PERSON} from rm.users u where ${consentUsersWhere(companyId)} and u.id > ${afterId} order by u.id limit ${limit}`);

/** Full names of users (admins who recorded a consent for someone); an erased one reads as the placeholder. */
export const userNamesForExport = async (db: ExportsDb, ids: readonly number[]) =>
  new Map(
    (
      await db.any(sql.type(z.object({ id: z.number(), name: z.string() }))`
        select id, trim(concat_ws(' ', first_name, middle_name, last_name)) as name from rm.users where id = any(${sql.array([...ids], 'int4')})`)
    ).map((row) => [row.id, row.name]),
  );
