import { sql } from 'slonik';
import { z } from 'zod';
import { inScope, inWindow, npsAnswerRow, type StatsDb, type StatsScope, type Window } from './stats.queries.ts';

/**
 * The figures a course report (issue 17 item 3) needs beyond those of the statistics pages, read
 * from the same facts, in the same window and scope (decision 0027): the course's report settings,
 * its NPS blocks, participants and completions per period, credit points issued, and the units of
 * the participants.
 */

const courseRow = z.object({
  id: z.number(),
  title: z.string(),
  creditPoints: z.number(),
  detailNps: z.boolean(),
  intervals: z.array(z.object({ startsAt: z.string(), stopsAt: z.string() })),
});
export type ReportCourse = z.infer<typeof courseRow>;

/** What a report shows of the course: title, credit points, whether it has the detailed NPS, its intervals. Null when it does not exist. */
export const reportCourse = (db: StatsDb, courseId: number) =>
  db.maybeOne(sql.type(courseRow)`
    select id, title, credit_points::float8 as "creditPoints", coalesce((fields->>'detailNps')::boolean, false) as "detailNps", intervals
      from rm.courses where id = ${courseId} and status <> 'deleted'`);

const npsBlockRow = z.object({ blockId: z.number(), name: z.string(), answers: z.array(npsAnswerRow) });

/**
 * The course's NPS surveys: its NPS blocks now, and any block that has answers (a survey removed
 * since still counts for its time), each with its participants' latest answers in the window and
 * scope (what `npsOverview` counts), in one statement.
 */
export const reportNpsBlocks = (db: StatsDb, courseId: number, w: Window, scope: StatsScope) =>
  db.any(sql.type(npsBlockRow)`
    with blocks as (
      select b.block_id, b.name from rm.course_blocks b where b.course_id = ${courseId} and b.kind = 'nps'
      union
      select distinct a.block_id, coalesce((select b.name from rm.course_blocks b where b.course_id = a.course_id and b.block_id = a.block_id), '')
        from rm.stats_nps_answers a
       where a.course_id = ${courseId} and not exists (select 1 from rm.course_blocks b where b.course_id = a.course_id and b.block_id = a.block_id and b.kind = 'nps')),
    latest as (
      select distinct on (a.block_id, a.user_id) a.block_id, a.user_id, a.score, a.reasons, a.comment, a.answered_at, a.unit_ids, a.company_ids, a.group_ids, a.profession_id
        from rm.stats_nps_answers a
       where a.course_id = ${courseId} and ${inWindow(sql.identifier(['a', 'answered_at']), w)} and ${inScope(scope, 'a')}
       order by a.block_id, a.user_id, a.answered_at desc)
    select b.block_id as "blockId", b.name,
           coalesce((select json_agg(json_build_object('user_id', l.user_id, 'score', l.score, 'reasons', l.reasons, 'comment', l.comment,
                                                       'answered_at', to_char(l.answered_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                                                       'unit_ids', l.unit_ids, 'company_ids', l.company_ids, 'group_ids', l.group_ids, 'profession_id', l.profession_id)
                                     order by l.user_id)
                       from latest l where l.block_id = b.block_id), '[]'::json) as answers
      from blocks b
     order by b.block_id`);

export const REPORT_BUCKETS = ['day', 'week', 'month'] as const;
export type ReportBucket = (typeof REPORT_BUCKETS)[number];

const nextPeriod = (period: string, bucket: ReportBucket) => {
  const [y, m, d] = period.split('-').map(Number) as [number, number, number];
  const next = bucket === 'month' ? new Date(Date.UTC(y, m, 1)) : new Date(Date.UTC(y, m - 1, d + (bucket === 'week' ? 7 : 1)));
  return next.toISOString().slice(0, 10);
};

const periodRow = z.object({ period: z.string(), participants: z.number(), completions: z.number() });

/**
 * Participants (a participant's first opening of the course in the window, as the statistics count
 * a view, decision 0015) and completions per day, week or month in Ljubljana time, every period
 * from the first to the last shown (empty ones as zero). The bucket follows the span of the data:
 * days up to about six weeks from the first opening to the window's end, weeks up to a year, months
 * beyond; none without an opening. With them, in the same statement, the credit points issued in
 * the window: what each completion in it earned (the points the course had when it was completed),
 * counted where each participant stood when completing (decision 0050).
 */
export const reportTimeline = async (db: StatsDb, courseId: number, w: Window, scope: StatsScope) => {
  const to = sql.fragment`${w.to.toISOString()}::timestamptz`;
  const found = await db.one(sql.type(z.object({ bucket: z.enum(REPORT_BUCKETS).nullable(), periods: z.array(periodRow), points: z.number() }))`
    with firsts as (
      select min(o.at) as at from rm.stats_course_opens o
       where o.course_id = ${courseId} and ${inWindow(sql.identifier(['o', 'at']), w)} and ${inScope(scope, 'o')}
       group by o.user_id),
    span as (select extract(epoch from ${to}) - extract(epoch from date_trunc('milliseconds', min(at))) as seconds from firsts),
    bucket as (select case when seconds <= 45 * 86400 then 'day' when seconds <= 366 * 86400 then 'week' else 'month' end as bucket
                 from span where seconds is not null),
    done as (
      select c.user_id, c.at from rm.stats_completions c
       where c.course_id = ${courseId} and ${inWindow(sql.identifier(['c', 'at']), w)} and ${inScope(scope, 'c')}),
    facts as (select at, 1 as p, 0 as c from firsts union all select at, 0, 1 from done),
    periods as (
      select to_char(date_trunc(b.bucket, f.at at time zone 'Europe/Ljubljana'), 'YYYY-MM-DD') as period, sum(f.p)::int as participants, sum(f.c)::int as completions
        from facts f cross join bucket b group by 1)
    select (select bucket from bucket) as bucket,
           coalesce((select json_agg(json_build_object('period', period, 'participants', participants, 'completions', completions) order by period)
                       from periods), '[]'::json) as periods,
           (select coalesce(sum(e.credit_points), 0)::float8 from done d join rm.enrollments e on e.course_id = ${courseId} and e.user_id = d.user_id) as points`);
  const rows = found.periods;
  const bucket: ReportBucket = found.bucket ?? 'day';
  const byPeriod = new Map(rows.map((r) => [r.period, r]));
  const periods: z.infer<typeof periodRow>[] = [];
  const last = rows.at(-1)?.period;
  // Every period between the first and the last, so a chart's gaps are real (bounded: a few hundred at most).
  for (
    let period = rows[0]?.period;
    period !== undefined && last !== undefined && period <= last && periods.length < 400;
    period = nextPeriod(period, bucket)
  ) {
    periods.push(byPeriod.get(period) ?? { period, participants: 0, completions: 0 });
  }
  return { bucket, periods, creditPointsIssued: found.points };
};

/** The units the course was opened from in the window, where each participant stood when opening it (decision 0050), by name. */
export const participantUnits = (db: StatsDb, courseId: number, w: Window, scope: StatsScope) =>
  db.any(sql.type(z.object({ id: z.number(), name: z.string(), companyId: z.number() }))`
    select distinct un.id, un.name, un.company_id as "companyId" from rm.stats_course_opens o
      join rm.units un on un.id = any(o.unit_ids)
     where o.course_id = ${courseId} and ${inWindow(sql.identifier(['o', 'at']), w)} and ${inScope(scope, 'o')}
     order by un.name, un.id`);

const unitSuccessRow = z.object({ id: z.number(), started: z.number(), completed: z.number(), attempted: z.number(), passed: z.number() });

/**
 * Each unit's participation and quiz success in the window, in one statement: what `courseSuccess`
 * with the scope of that unit alone counts (a fact stamped with the unit where its person stood,
 * decision 0050), for every unit at once. A report's per-unit section asked it unit by unit, four
 * statements each: 4,000 round trips for a course taken in 1,000 units (docs/benchmarks.md, screens).
 */
export const successByUnit = async (db: StatsDb, courseId: number, w: Window, unitIds: readonly number[]) => {
  if (unitIds.length === 0) return new Map<number, z.infer<typeof unitSuccessRow>>();
  const rows = await db.any(sql.type(unitSuccessRow)`
    with units as (select distinct unnest(${sql.array([...unitIds], 'int4')}) as id),
    opens as (
      select u.id, count(distinct o.user_id)::int as n from units u join rm.stats_course_opens o on u.id = any(o.unit_ids)
       where o.course_id = ${courseId} and ${inWindow(sql.identifier(['o', 'at']), w)} group by u.id),
    completions as (
      select u.id, count(*)::int as n from units u join rm.stats_completions c on u.id = any(c.unit_ids)
       where c.course_id = ${courseId} and ${inWindow(sql.identifier(['c', 'at']), w)} group by u.id),
    quizzes as (
      select id, sum(attempted)::int as attempted, sum(passed)::int as passed from (
        select u.id, q.block_id, count(distinct q.user_id) as attempted, count(distinct q.user_id) filter (where q.passed) as passed
          from units u join rm.stats_quiz_outcomes q on u.id = any(q.unit_ids)
         where q.course_id = ${courseId} and ${inWindow(sql.identifier(['q', 'at']), w)} group by u.id, q.block_id) per_block
       group by id)
    select u.id, coalesce(o.n, 0) as started, coalesce(c.n, 0) as completed, coalesce(q.attempted, 0) as attempted, coalesce(q.passed, 0) as passed
      from units u left join opens o using (id) left join completions c using (id) left join quizzes q using (id)`);
  return new Map(rows.map((r) => [r.id, r]));
};
