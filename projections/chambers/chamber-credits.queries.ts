import { type DatabasePool, type FragmentSqlToken, sql } from 'slonik';
import { z } from 'zod';

export type ChamberCreditsDb = DatabasePool;

const iso = (column: FragmentSqlToken) => sql.fragment`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const FULL_NAME = sql.fragment`coalesce(trim(u.first_name || coalesce(' ' || u.middle_name, '') || ' ' || u.last_name), '#' || c.user_id)`;

export const CHAMBER_CREDIT_STATUSES = ['pending', 'held', 'reported'] as const;

export const chamberCreditItem = z.object({
  courseId: z.number(),
  courseTitle: z.string(),
  userId: z.number(),
  fullName: z.string(),
  chamberMembershipNumber: z.string().nullable(),
  licenceNumber: z.string().nullable(),
  chamber: z.number().nullable(),
  points: z.number(),
  courseExternalId: z.string().nullable(),
  status: z.enum(CHAMBER_CREDIT_STATUSES),
  heldReason: z.string().nullable(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  earnedAt: z.string(),
  reportedAt: z.string().nullable(),
  receipt: z.string().nullable(),
});
export type ChamberCreditItem = z.infer<typeof chamberCreditItem>;

const SELECT = sql.fragment`
  select c.course_id as "courseId", coalesce(co.title, '#' || c.course_id) as "courseTitle", c.user_id as "userId", ${FULL_NAME} as "fullName",
         u.chamber_membership_number as "chamberMembershipNumber", u.licence_number as "licenceNumber",
         c.chamber, c.points::float8 as points, c.course_external_id as "courseExternalId", c.status, c.held_reason as "heldReason",
         c.attempts, c.last_error as "lastError", ${iso(sql.fragment`c.last_attempt_at`)} as "lastAttemptAt",
         ${iso(sql.fragment`c.earned_at`)} as "earnedAt", ${iso(sql.fragment`c.reported_at`)} as "reportedAt", c.receipt
    from rm.chamber_credits c
    left join rm.users u on u.id = c.user_id
    left join rm.courses co on co.id = c.course_id`;

/** A course's credits, newest first (the course's report tab). */
export const chamberCreditsOfCourse = (db: ChamberCreditsDb, courseId: number) =>
  db.any(sql.type(chamberCreditItem)`${SELECT} where c.course_id = ${courseId} order by c.earned_at desc, c.user_id limit 1000`);

/** A person's credits, newest first (the person's page, their own profile). */
export const chamberCreditsOfUser = (db: ChamberCreditsDb, userId: number) =>
  db.any(sql.type(chamberCreditItem)`${SELECT} where c.user_id = ${userId} order by c.earned_at desc, c.course_id limit 1000`);

/** A chamber's credits earned on the days from..to (Ljubljana), oldest first, a page at a time (the chamber export). */
export const chamberCreditsOfChamber = (
  db: ChamberCreditsDb,
  chamber: number,
  from: string,
  to: string,
  after: { earnedAt: string; courseId: number; userId: number } | null,
  limit: number,
) =>
  db.any(sql.type(chamberCreditItem)`${SELECT}
    where c.chamber = ${chamber}
      and c.earned_at >= (${from}::date)::timestamp at time zone 'Europe/Ljubljana'
      and c.earned_at < (${to}::date + 1)::timestamp at time zone 'Europe/Ljubljana'
      ${after ? sql.fragment`and (c.earned_at, c.course_id, c.user_id) > (${after.earnedAt}::timestamptz, ${after.courseId}, ${after.userId})` : sql.fragment``}
    order by c.earned_at, c.course_id, c.user_id limit ${limit}`);

/** How many credits a chamber export of these days holds. */
export const countChamberCredits = (db: ChamberCreditsDb, chamber: number, from: string, to: string) =>
  db.oneFirst(sql.type(z.object({ n: z.number() }))`
    select count(*)::int as n from rm.chamber_credits c
     where c.chamber = ${chamber}
       and c.earned_at >= (${from}::date)::timestamp at time zone 'Europe/Ljubljana'
       and c.earned_at < (${to}::date + 1)::timestamp at time zone 'Europe/Ljubljana'`);

/** Credits not acknowledged whose last change is older than `quietSeconds`: the sweep sends them again. */
export const unreportedChamberCredits = (db: ChamberCreditsDb, quietSeconds: number, limit: number) =>
  db.any(sql.type(z.object({ courseId: z.number(), userId: z.number() }))`
    select course_id as "courseId", user_id as "userId" from rm.chamber_credits
     where status <> 'reported' and updated_at < now() - make_interval(secs => ${quietSeconds})
     order by updated_at limit ${limit}`);

/** Who a credit is reported for, as the chamber matches them: names and numbers as they are now. */
export const chamberPerson = (db: ChamberCreditsDb, userId: number) =>
  db.maybeOne(sql.type(
    z.object({
      firstName: z.string(),
      lastName: z.string(),
      chamberMembershipNumber: z.string().nullable(),
      licenceNumber: z.string().nullable(),
      erased: z.boolean(),
      /** The chamber of the person's profession (issue 32 item 4), null: none. */
      professionChamber: z.union([z.literal(1), z.literal(2), z.literal(3)]).nullable(),
    }),
  )`
    select u.first_name as "firstName", u.last_name as "lastName", u.chamber_membership_number as "chamberMembershipNumber",
           u.licence_number as "licenceNumber", u.erased, p.chamber as "professionChamber"
      from rm.users u left join rm.professions p on p.id = u.profession_id where u.id = ${userId}`);
