import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';

export type CourseReportsDb = DatabasePool;

/** A report log entry (spec §3 Report log), with the name of who generated it. */
export const courseReportEntry = z.object({
  id: z.number(),
  courseId: z.number(),
  intervalId: z.number(),
  /** The interval's bounds when the report was made; null: all time. */
  interval: z.object({ startsAt: z.string(), stopsAt: z.string() }).nullable(),
  date: z.string(),
  children: z.boolean(),
  npsDetailed: z.boolean(),
  npsReasons: z.boolean(),
  timeCreated: z.string(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
});
export type CourseReportEntry = z.infer<typeof courseReportEntry>;

const row = z.object({
  id: z.number(),
  courseId: z.number(),
  intervalId: z.number(),
  startsAt: z.string().nullable(),
  stopsAt: z.string().nullable(),
  date: z.string(),
  children: z.boolean(),
  npsDetailed: z.boolean(),
  npsReasons: z.boolean(),
  timeCreated: z.string(),
  userId: z.number().nullable(),
  userName: z.string().nullable(),
});

const select = sql.fragment`
  select r.id, r.course_id as "courseId", r.interval_id as "intervalId",
         to_char(r.interval_starts_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "startsAt",
         to_char(r.interval_stops_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "stopsAt", to_char(r.date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as date, r.children, r.nps_detailed as "npsDetailed",
         r.nps_reasons as "npsReasons", to_char(r.time_created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "timeCreated", r.user_id as "userId",
         nullif(trim(concat_ws(' ', u.first_name, u.last_name)), '') as "userName"
    from rm.course_reports r left join rm.users u on u.id = r.user_id`;

const toEntry = (r: z.infer<typeof row>): CourseReportEntry => ({
  id: r.id,
  courseId: r.courseId,
  intervalId: r.intervalId,
  interval: r.startsAt !== null && r.stopsAt !== null ? { startsAt: r.startsAt, stopsAt: r.stopsAt } : null,
  date: r.date,
  children: r.children,
  npsDetailed: r.npsDetailed,
  npsReasons: r.npsReasons,
  timeCreated: r.timeCreated,
  user: r.userId === null ? null : { id: r.userId, name: r.userName ?? '' },
});

/** The log of a course's reports, newest first. */
export const listCourseReports = async (db: CourseReportsDb, courseId: number, limit = 200) =>
  (await db.any(sql.type(row)`${select} where r.course_id = ${courseId} order by r.time_created desc, r.id desc limit ${limit}`)).map(toEntry);

/** One report of a course; null when there is none by that id on that course. */
export const getCourseReport = async (db: CourseReportsDb, courseId: number, reportId: number) => {
  const found = await db.maybeOne(sql.type(row)`${select} where r.id = ${reportId} and r.course_id = ${courseId}`);
  return found ? toEntry(found) : null;
};
