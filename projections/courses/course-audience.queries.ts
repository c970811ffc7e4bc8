import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { isPrescriptionOnly } from '../../domain/courses/course-types.rules.ts';

export type AudiencePreview = {
  readonly public: boolean;
  readonly unitIds: readonly number[];
  readonly companyIds: readonly number[];
  readonly groupIds: readonly number[];
  readonly professionIds: readonly number[];
  /** An RX course (decision 0062): only people whose profession it names and may prescribe or supply. */
  readonly prescriptionOnly?: boolean;
};

const ids = (values: readonly number[]) => sql.array([...values], 'int4');

/**
 * People with a role in one of these companies (null: anywhere). A community's course reaches only
 * its company (decision 0047), and a community's viewer sees only the people of its companies.
 */
const withinCompanies = (companyIds: readonly number[] | null, userId = sql.fragment`u.id`) =>
  companyIds === null
    ? sql.fragment`true`
    : sql.fragment`exists (select 1 from rm.user_roles wr left join rm.units wu on wu.id = wr.unit_id
                      where wr.user_id = ${userId} and coalesce(wr.company_id, wu.company_id) = any(${ids(companyIds)}))`;

/**
 * How many active users a course with this audience would be for (issue 15, the participants tab's
 * live count), by the rule of domain/courses/course-audience.ts: public is everyone; otherwise the
 * organisation targets (a unit, a company, a group containing a unit, through any of the user's
 * roles) and the profession targets must each be met when set, and a course targeting nobody is for
 * nobody.
 */
export const countAudience = async (db: DatabasePool, audience: AudiencePreview, companies: readonly number[] | null = null) => {
  const byOrganisation = audience.unitIds.length + audience.companyIds.length + audience.groupIds.length > 0;
  const byProfession = audience.professionIds.length > 0;
  const n = sql.type(z.object({ n: z.number() }));
  const prescribers = audience.prescriptionOnly ? prescriberOf(audience.professionIds) : sql.fragment`true`;
  if (audience.public)
    return db.oneFirst(n`select count(*)::int as n from rm.users u where u.status = 'active' and ${prescribers} and ${withinCompanies(companies)}`);
  if (!byOrganisation && !byProfession) return 0;
  const organisation = byOrganisation
    ? sql.fragment`exists (select 1 from rm.user_roles r where r.user_id = u.id and (
        r.unit_id = any(${ids(audience.unitIds)}) or r.company_id = any(${ids(audience.companyIds)})
        or exists (select 1 from rm.community_group_units g where g.unit_id = r.unit_id and g.group_id = any(${ids(audience.groupIds)}))))`
    : sql.fragment`true`;
  const profession = byProfession ? sql.fragment`u.profession_id = any(${ids(audience.professionIds)})` : sql.fragment`true`;
  return db.oneFirst(
    n`select count(*)::int as n from rm.users u where u.status = 'active' and ${organisation} and ${profession} and ${prescribers} and ${withinCompanies(companies)}`,
  );
};

export const courseParticipant = z.object({
  userId: z.number(),
  name: z.string(),
  status: z.string(),
  startedAt: z.string(),
  completedAt: z.string().nullable(),
  blocksDone: z.number(),
  blocksCount: z.number(),
});

/**
 * Who took the course: each participant's status, dates and blocks done, newest start first (at most
 * 500); `companies`: only people of those companies (a community's viewer), null for everyone.
 */
export const listCourseParticipants = async (db: DatabasePool, courseId: number, companies: readonly number[] | null = null) =>
  db.any(sql.type(courseParticipant)`
    select e.user_id as "userId", trim(concat_ws(' ', u.first_name, u.middle_name, u.last_name)) as name, e.status,
           to_char(e.started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "startedAt",
           to_char(e.completed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "completedAt",
           (select count(*) from rm.course_records r where r.course_id = e.course_id and r.user_id = e.user_id and r.done)::int as "blocksDone",
           c.blocks_count as "blocksCount"
      from rm.enrollments e
      join rm.courses c on c.id = e.course_id
      join rm.users u on u.id = e.user_id
     where e.course_id = ${courseId} and ${withinCompanies(companies, sql.fragment`e.user_id`)}
     order by e.started_at desc, e.user_id
     limit 500`);

/**
 * The RX condition of domain/courses/course-audience.ts in SQL (issue 36, decision 0062): the person's
 * profession is among the course's and may prescribe or supply medicines now. The flag is read through
 * to_jsonb so the queries also run while the organisation read model's generation from before the flag
 * still serves (a version change rebuilds it at start): nobody is a prescriber until the new one is in.
 */
const prescriberOf = (professionIds: readonly number[], userId = sql.fragment`u.id`) => sql.fragment`exists (
  select 1 from rm.users pu join rm.professions pp on pp.id = pu.profession_id
   where pu.id = ${userId} and coalesce((to_jsonb(pp) ->> 'may_prescribe')::boolean, false) and pp.id = any(${ids(professionIds)}))`;

/**
 * Whether an RX course is kept from this person now: a notification's mail or push, queued while they
 * could receive it, is dropped when their profession lost the flag (or they changed it) before it went.
 */
export const prescriptionWithheld = async (db: DatabasePool, courseId: number, userId: number) => {
  const course = await db.maybeOne(
    sql.type(z.object({ type: z.number(), professionIds: z.array(z.number()) }))`
      select type, audience_professions as "professionIds" from rm.courses where id = ${courseId}`,
  );
  if (!course || !isPrescriptionOnly(course.type)) return false;
  return !(await db.oneFirst(sql.type(z.object({ ok: z.boolean() }))`select ${prescriberOf(course.professionIds, sql.fragment`${userId}::int`)} as ok`));
};

/**
 * Who a course's notification goes to (issue 16): the active users the course is for now (the rule of
 * `countAudience`), and for a reminder only those who have not completed it. Ids in order.
 */
export const notificationRecipients = async (db: DatabasePool, courseId: number, options: { onlyUnfinished: boolean }) => {
  const course = await db.maybeOne(sql.type(
    z.object({
      type: z.number(),
      public: z.boolean(),
      ownerCompanyId: z.number().nullable(),
      unitIds: z.array(z.number()),
      companyIds: z.array(z.number()),
      groupIds: z.array(z.number()),
      professionIds: z.array(z.number()),
    }),
  )`
    select type, public, owner_company_id as "ownerCompanyId", audience_units as "unitIds", audience_companies as "companyIds", audience_groups as "groupIds", audience_professions as "professionIds"
      from rm.courses where id = ${courseId} and status <> 'deleted'`);
  if (!course) return [];
  const byOrganisation = course.unitIds.length + course.companyIds.length + course.groupIds.length > 0;
  const byProfession = course.professionIds.length > 0;
  if (!course.public && !byOrganisation && !byProfession) return [];
  const organisation =
    !course.public && byOrganisation
      ? sql.fragment`exists (select 1 from rm.user_roles r where r.user_id = u.id and (
          r.unit_id = any(${ids(course.unitIds)}) or r.company_id = any(${ids(course.companyIds)})
          or exists (select 1 from rm.community_group_units g where g.unit_id = r.unit_id and g.group_id = any(${ids(course.groupIds)}))))`
      : sql.fragment`true`;
  const profession = !course.public && byProfession ? sql.fragment`u.profession_id = any(${ids(course.professionIds)})` : sql.fragment`true`;
  const unfinished = options.onlyUnfinished
    ? sql.fragment`not exists (select 1 from rm.enrollments e where e.course_id = ${courseId} and e.user_id = u.id and e.status = 'completed')`
    : sql.fragment`true`;
  const prescribers = isPrescriptionOnly(course.type) ? prescriberOf(course.professionIds) : sql.fragment`true`;
  return db.anyFirst(sql.type(z.object({ id: z.number() }))`
    select u.id from rm.users u
     where u.status = 'active' and ${organisation} and ${profession} and ${prescribers} and ${unfinished}
       and ${withinCompanies(course.ownerCompanyId === null ? null : [course.ownerCompanyId])}
     order by u.id`);
};

/**
 * Every profession with its name and whether it may prescribe or supply medicines (issue 36, the
 * admin's flag): what the rules of an RX course check its audience against (decision 0062). A few
 * hundred rows at most, read per save or publish of a course.
 */
export const professionFacts = async (db: DatabasePool): Promise<ReadonlyMap<number, { name: string; mayPrescribe: boolean }>> => {
  const rows = await db.any(
    sql.type(z.object({ id: z.number(), name: z.string(), mayPrescribe: z.boolean() }))`
      select id, name, coalesce((to_jsonb(p) ->> 'may_prescribe')::boolean, false) as "mayPrescribe" from rm.professions p`,
  );
  return new Map(rows.map((r) => [r.id, { name: r.name, mayPrescribe: r.mayPrescribe }]));
};
