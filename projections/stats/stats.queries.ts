import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { type CourseCosts, costFigures, courseCostsRule } from '../../domain/courses/course-costs.rules.ts';
import { countNps, npsCategory, summariseNps } from '../../domain/stats/nps.ts';

export type StatsDb = DatabasePool;

/** Whose answers count: everyone (system permission), or participants of these units and companies (a community role's reach). */
export type StatsScope = { readonly all: true } | { readonly all: false; readonly unitIds: readonly number[]; readonly companyIds: readonly number[] };

/** The time window of a figure: the interval (or all time) cut at the "as of" instant. */
export type Window = { readonly from: Date; readonly to: Date; readonly asOf: Date; readonly intervalId: number };

/**
 * A fact of the scope's people: stamped (decision 0050) with a unit or company of the scope, where
 * its person stood when it happened. `fact` is the alias of a stats fact table.
 */
export const inScope = (scope: StatsScope, fact: string) =>
  scope.all
    ? sql.fragment`true`
    : sql.fragment`(${sql.identifier([fact, 'unit_ids'])} && ${sql.array([...scope.unitIds], 'int4')}
        or ${sql.identifier([fact, 'company_ids'])} && ${sql.array([...scope.companyIds], 'int4')})`;

const courseRow = z.object({ id: z.number(), title: z.string(), intervals: z.array(z.object({ startsAt: z.string(), stopsAt: z.string() })) });

/** All time, cut at `asOf` (interval 0): a window that needs nothing of the course. */
export const allTimeWindow = (asOf: Date): Window => ({ from: new Date(0), to: asOf, asOf, intervalId: 0 });

/** The course and the window of its interval `intervalId` (0: all time), cut at `asOf`; null when the course or interval does not exist. */
export const courseWindow = async (db: StatsDb, courseId: number, intervalId: number, asOf: Date) => {
  const course = await db.maybeOne(sql.type(courseRow)`select id, title, intervals from rm.courses where id = ${courseId} and status <> 'deleted'`);
  if (!course) return null;
  if (intervalId === 0) return { course, window: allTimeWindow(asOf) };
  const interval = course.intervals[intervalId - 1];
  if (!interval) return null;
  const stop = new Date(interval.stopsAt);
  return { course, window: { from: new Date(interval.startsAt), to: stop < asOf ? stop : asOf, asOf, intervalId } satisfies Window };
};

export const inWindow = (column: ReturnType<typeof sql.identifier>, w: Window) =>
  sql.fragment`${column} >= ${w.from.toISOString()}::timestamptz and ${column} <= ${w.to.toISOString()}::timestamptz`;

/** A participant's answer to an NPS block, with where they stood when answering (decision 0050). */
export const npsAnswerRow = z.object({
  user_id: z.number(),
  score: z.number(),
  reasons: z.array(z.string()),
  comment: z.string().nullable(),
  answered_at: z.string(),
  unit_ids: z.array(z.number()),
  company_ids: z.array(z.number()),
  group_ids: z.array(z.number()),
  profession_id: z.number().nullable(),
});

/** Each participant's latest answer to the NPS block in the window (an answer given again replaces the earlier one). */
const latestAnswers = (db: StatsDb, courseId: number, blockId: number, w: Window, scope: StatsScope) =>
  db.any(sql.type(npsAnswerRow)`
    select distinct on (a.user_id) a.user_id, a.score, a.reasons, a.comment, a.answered_at, a.unit_ids, a.company_ids, a.group_ids, a.profession_id
      from rm.stats_nps_answers a
     where a.course_id = ${courseId} and a.block_id = ${blockId} and ${inWindow(sql.identifier(['a', 'answered_at']), w)} and ${inScope(scope, 'a')}
     order by a.user_id, a.answered_at desc`);

/** The summary, the distribution of scores 0 to 10, follow-up reasons by category, and (with the comment permission) the last 20 comments of a block's latest answers. */
export const overviewOf = (answers: readonly z.infer<typeof npsAnswerRow>[], withComments: boolean) => {
  const distribution = Array.from({ length: 11 }, (_, score) => ({ score, count: answers.filter((a) => a.score === score).length }));
  const reasons = new Map<string, { reason: string; category: string; count: number }>();
  for (const a of answers) {
    const category = npsCategory(a.score);
    for (const reason of a.reasons) {
      const key = `${category}|${reason}`;
      const entry = reasons.get(key) ?? { reason, category, count: 0 };
      entry.count++;
      reasons.set(key, entry);
    }
  }
  // spec §9: a report can include only the last 20 comments.
  const comments = withComments
    ? answers
        .filter((a) => a.comment)
        .sort((a, b) => b.answered_at.localeCompare(a.answered_at))
        .slice(0, 20)
        .map((a) => ({ score: a.score, comment: a.comment as string, at: a.answered_at }))
    : [];
  return { ...summariseNps(countNps(answers.map((a) => a.score))), distribution, reasons: [...reasons.values()].sort((a, b) => b.count - a.count), comments };
};

/** NPS of one block: the summary, the distribution of scores 0 to 10, follow-up reasons by category, and (with the comment permission) the last 20 comments. */
export const npsOverview = async (db: StatsDb, courseId: number, blockId: number, w: Window, scope: StatsScope, withComments: boolean) =>
  overviewOf(await latestAnswers(db, courseId, blockId, w, scope), withComments);

export const COMMUNITY_KINDS = ['unit', 'company', 'group', 'profession'] as const;
export type CommunityKind = (typeof COMMUNITY_KINDS)[number];

const nameRow = z.object({ id: z.number(), name: z.string() });

/** The names of units, companies, community groups or professions, by id (as they are called now). */
const namesOf = async (db: StatsDb, kind: CommunityKind, ids: readonly number[]) => {
  const wanted = sql.array([...new Set(ids)], 'int4');
  const table = { unit: 'units', company: 'companies', group: 'community_groups', profession: 'professions' }[kind];
  return new Map((await db.any(sql.type(nameRow)`select id, name from ${sql.identifier(['rm', table])} where id = any(${wanted})`)).map((r) => [r.id, r.name]));
};

/** Where an answer's person stood when answering (decision 0050): the ids of `kind` stamped on it. */
const stampedIds = (row: z.infer<typeof npsAnswerRow>, kind: CommunityKind): readonly number[] =>
  kind === 'unit'
    ? row.unit_ids
    : kind === 'company'
      ? row.company_ids
      : kind === 'group'
        ? row.group_ids
        : row.profession_id === null
          ? []
          : [row.profession_id];

/**
 * NPS of one block per unit, company, community group or profession: each answer counts where its
 * person stood when giving it (decision 0050), not where they are now.
 */
export const npsByCommunity = async (db: StatsDb, courseId: number, blockId: number, w: Window, scope: StatsScope, kind: CommunityKind) => {
  const answers = await latestAnswers(db, courseId, blockId, w, scope);
  const names = await namesOf(
    db,
    kind,
    answers.flatMap((a) => stampedIds(a, kind)),
  );
  const groups = new Map<number, { id: number; name: string; scores: number[] }>();
  for (const answer of answers) {
    for (const id of stampedIds(answer, kind)) {
      const name = names.get(id);
      if (name === undefined) continue;
      const group = groups.get(id) ?? { id, name, scores: [] };
      group.scores.push(answer.score);
      groups.set(id, group);
    }
  }
  return [...groups.values()]
    .map((g) => ({ id: g.id, name: g.name, ...summariseNps(countNps(g.scores)) }))
    .sort((a, b) => b.answers - a.answers || a.name.localeCompare(b.name, 'sl'));
};

const quizRow = z.object({
  block_id: z.number(),
  attempted: z.number(),
  passed: z.number(),
  first_attempt_passed: z.number(),
  attempts: z.number(),
  /** Each participant's best score in the block, averaged; null without scores. */
  average: z.number().nullable(),
});

const successRow = z.object({ started: z.number(), completed: z.number(), average: z.number().nullable(), quizzes: z.array(quizRow) });

export const rate = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 1000) / 10);

/**
 * Success of a course in the window: per quiz block passed over attempted and first-attempt passes;
 * started and completed participants. One statement (it was four, one after another: the success
 * screen and every report ask it, docs/benchmarks.md "screens"): the window's quiz outcomes are read
 * once for the per-block counts, each participant's best score per block and the averages of those.
 */
export const courseSuccess = async (db: StatsDb, courseId: number, w: Window, scope: StatsScope) => {
  const row = await db.one(sql.type(successRow)`
    with outcomes as (
      select q.block_id, q.user_id, q.passed, q.attempt, q.score from rm.stats_quiz_outcomes q
       where q.course_id = ${courseId} and ${inWindow(sql.identifier(['q', 'at']), w)} and ${inScope(scope, 'q')}),
    blocks as (
      select block_id, count(distinct user_id)::int as attempted, count(distinct user_id) filter (where passed)::int as passed,
             count(distinct user_id) filter (where passed and attempt = 1)::int as first_attempt_passed, count(*)::int as attempts
        from outcomes group by block_id),
    -- A block's average score: each participant's best (a quiz's or a package's, issue 35), averaged.
    best as (select block_id, user_id, max(score) as best from outcomes group by block_id, user_id),
    averages as (select block_id, round(avg(best)::numeric, 1)::float8 as average from best group by block_id)
    select (select count(distinct o.user_id) from rm.stats_course_opens o
             where o.course_id = ${courseId} and ${inWindow(sql.identifier(['o', 'at']), w)} and ${inScope(scope, 'o')})::int as started,
           (select count(*) from rm.stats_completions c
             where c.course_id = ${courseId} and ${inWindow(sql.identifier(['c', 'at']), w)} and ${inScope(scope, 'c')})::int as completed,
           (select round(avg(best)::numeric, 1)::float8 from best) as average,
           coalesce((select json_agg(json_build_object('block_id', b.block_id, 'attempted', b.attempted, 'passed', b.passed,
                                                       'first_attempt_passed', b.first_attempt_passed, 'attempts', b.attempts, 'average', a.average)
                                     order by b.block_id)
                       from blocks b left join averages a using (block_id)), '[]'::json) as quizzes`);
  const { quizzes } = row;
  const attempted = quizzes.reduce((s, q) => s + q.attempted, 0);
  const passed = quizzes.reduce((s, q) => s + q.passed, 0);
  const first = quizzes.reduce((s, q) => s + q.first_attempt_passed, 0);
  return {
    started: row.started,
    completed: row.completed,
    completionRate: rate(row.completed, row.started),
    attempted,
    passed,
    successRate: rate(passed, attempted),
    firstAttemptRate: rate(first, attempted),
    /** Each participant's best score in each scored block (quiz or package), averaged; null without scores. */
    averageScore: row.average,
    quizzes: quizzes.map((q) => ({
      blockId: q.block_id,
      attempted: q.attempted,
      passed: q.passed,
      firstAttemptPassed: q.first_attempt_passed,
      attempts: q.attempts,
      successRate: rate(q.passed, q.attempted),
      firstAttemptRate: rate(q.first_attempt_passed, q.attempted),
      averageScore: q.average,
    })),
  };
};

const costRow = z.object({ costs: z.record(z.string(), z.unknown()), at: z.string() });

/** The costs as they stood at `asOf` (the defaults of spec §9 before any were set). */
export const costsAsOf = async (db: StatsDb, courseId: number, asOf: Date): Promise<{ costs: CourseCosts; setAt: string | null }> => {
  const row = await db.maybeOne(sql.type(costRow)`
    select costs, at from rm.stats_course_costs where course_id = ${courseId} and at <= ${asOf.toISOString()}::timestamptz order by at desc limit 1`);
  // No row, or an empty one (the deal was withdrawn): the spec §9 defaults, and no deal.
  const dealt = row !== null && Object.keys(row.costs as object).length > 0;
  return { costs: courseCostsRule.parse(dealt ? row.costs : {}), setAt: dealt ? row.at : null };
};

export const BUCKETS = ['day', 'week', 'month'] as const;
export type Bucket = (typeof BUCKETS)[number];

const periodRow = z.object({ period: z.string(), views: z.number() });

/**
 * Views (a participant's first opening of the course in the window, decision 0015) per day, week or
 * month in Ljubljana time, with what they cost: each period's views amount and the running totals.
 */
/**
 * Whether a course's costs are locked (spec §4: not edited while the course is active): published,
 * not archived or deleted, and open now (no intervals, or one running), as the course decider's
 * refusal has it (domain/courses/course.ts).
 */
export const costsLocked = async (db: StatsDb, courseId: number) =>
  db.exists(sql.unsafe`
    select 1 from rm.courses c
     where c.id = ${courseId} and c.published and c.status not in ('archived', 'deleted')
       and (jsonb_array_length(c.intervals) = 0
            or exists (select 1 from jsonb_array_elements(c.intervals) i
                        where (i->>'startsAt')::timestamptz <= now() and now() < (i->>'stopsAt')::timestamptz))`);

export const costTimeline = async (db: StatsDb, courseId: number, w: Window, bucket: Bucket) => {
  // The costs and the views are independent: two connections, in parallel.
  const [{ costs, setAt }, periods] = await Promise.all([
    costsAsOf(db, courseId, w.asOf),
    db.any(sql.type(periodRow)`
    select to_char(date_trunc(${bucket}, first_at at time zone 'Europe/Ljubljana'), 'YYYY-MM-DD') as period, count(*)::int as views
      from (select o.user_id, min(o.at) as first_at from rm.stats_course_opens o
             where o.course_id = ${courseId} and ${inWindow(sql.identifier(['o', 'at']), w)} group by o.user_id) f
     group by 1 order by 1`),
  ]);
  let views = 0;
  const timeline = periods.map((p) => {
    views += p.views;
    const figures = costFigures(costs, views);
    return {
      period: p.period,
      views: p.views,
      viewsAmount: p.views * costs.viewAmount,
      cumulativeViews: views,
      totalAmount: figures.totalAmount,
      finalAmount: figures.finalAmount,
    };
  });
  return { costs, setAt, figures: costFigures(costs, views), timeline };
};

/** Courses whose costs were billed to the company as of `asOf` (the company's accountant reads these). */
export const coursesBilledTo = async (db: StatsDb, companyId: number, asOf: Date) =>
  db.anyFirst(sql.type(z.object({ course_id: z.number() }))`
    select course_id from (select distinct on (course_id) course_id, costs from rm.stats_course_costs
                            where at <= ${asOf.toISOString()}::timestamptz order by course_id, at desc) latest
     where (costs->>'companyId')::int = ${companyId} order by course_id`);

/** The company a course's costs are billed to as of `asOf`, or null. */
export const billedCompany = async (db: StatsDb, courseId: number, asOf: Date) => (await costsAsOf(db, courseId, asOf)).costs.companyId;

/** The companies of the units a community role reaches (an accountant's own company). */
export const companiesOfUnits = async (db: StatsDb, unitIds: readonly number[], companyIds: readonly number[]) => [
  ...new Set([
    ...companyIds,
    ...(await db.anyFirst(sql.type(z.object({ company_id: z.number() }))`select company_id from rm.units where id = any(${sql.array([...unitIds], 'int4')})`)),
  ]),
];

const statsRow = z.object({
  participants: z.number(),
  courses: z.number(),
  publishedCourses: z.number(),
  enrollments: z.number(),
  completions: z.number(),
  views30: z.number(),
});

/** The read models /admin/stats reads: users (roles), courses (courses, blocks, enrollments) and stats. */
export const PLATFORM_READ_MODELS = ['courses', 'stats', 'users'] as const;

/**
 * What the figures of `names` are computed from, as one string: each active generation and how many
 * events it has applied. It changes exactly when one of them applied an event (or a rebuilt
 * generation went live), so a result kept under it is current for as long as it is the same.
 */
export const readModelVersion = async (db: StatsDb, names: readonly string[]) =>
  (await db.maybeOneFirst(sql.type(z.object({ version: z.string().nullable() }))`
    select string_agg(name || ':' || generation || ':' || events_applied, ',' order by name) as version
      from projections.generations where status = 'active' and name = any(${sql.array([...names], 'text')})`)) ?? '';

/** /admin/stats: the platform at a glance, and the courses with the most views. */
export const platformStats = async (db: StatsDb, asOf: Date) => {
  const t = asOf.toISOString();
  const totals = await db.one(sql.type(statsRow)`
    select (select count(distinct user_id) from rm.user_roles where role_id = 10)::int as participants,
           (select count(*) from rm.courses where status <> 'deleted')::int as courses,
           (select count(*) from rm.courses where published and status <> 'deleted')::int as "publishedCourses",
           (select count(*) from rm.enrollments where started_at <= ${t}::timestamptz)::int as enrollments,
           (select count(*) from rm.stats_completions where at <= ${t}::timestamptz)::int as completions,
           (select count(distinct (course_id, user_id)) from rm.stats_course_opens where at <= ${t}::timestamptz and at > ${t}::timestamptz - interval '30 days')::int as views30`);
  const nps = await db.anyFirst(sql.type(z.object({ score: z.number() }))`
    select score from (select distinct on (block_id, user_id) score from rm.stats_nps_answers where answered_at <= ${t}::timestamptz order by block_id, user_id, answered_at desc) a`);
  const top = await db.any(sql.type(
    z.object({ id: z.number(), title: z.string(), views: z.number(), completions: z.number(), npsBlockId: z.number().nullable() }),
  )`
    select c.id, c.title, coalesce(v.views, 0)::int as views, coalesce(d.n, 0)::int as completions,
           (select b.block_id from rm.course_blocks b where b.course_id = c.id and b.kind = 'nps' order by b.position limit 1) as "npsBlockId"
      from rm.courses c
      left join (select course_id, count(*) as views from rm.enrollments where started_at <= ${t}::timestamptz group by course_id) v on v.course_id = c.id
      left join (select course_id, count(*) as n from rm.stats_completions where at <= ${t}::timestamptz group by course_id) d on d.course_id = c.id
     where c.status <> 'deleted' order by views desc, c.id limit 10`);
  return { ...totals, nps: summariseNps(countNps(nps)), topCourses: [...top] };
};

const monthRow = z.object({
  month: z.string(),
  users: z.number(),
  enrollments: z.number(),
  completions: z.number(),
  certificates: z.number(),
  creditPoints: z.number(),
  promoters: z.number(),
  neutrals: z.number(),
  detractors: z.number(),
});

/**
 * /admin/stats trends (issue 17 item 7): the 12 months (Europe/Ljubljana) up to the month of `asOf`,
 * oldest first, each with its new users, enrollments, completions, certificates, credit points and
 * the NPS of the answers given in it; a month without any is all zeros. Read from `stats_months`,
 * whose counters hold everything recorded so far (the current month is the month to date).
 */
export const platformTrends = async (db: StatsDb, asOf: Date) => {
  const rows = await db.any(sql.type(monthRow)`
    select to_char(m, 'YYYY-MM') as month, coalesce(s.users, 0)::int as users, coalesce(s.enrollments, 0)::int as enrollments,
           coalesce(s.completions, 0)::int as completions, coalesce(s.certificates, 0)::int as certificates,
           coalesce(s.credit_points, 0)::float8 as "creditPoints", coalesce(s.promoters, 0)::int as promoters,
           coalesce(s.neutrals, 0)::int as neutrals, coalesce(s.detractors, 0)::int as detractors
      from generate_series(date_trunc('month', ${asOf.toISOString()}::timestamptz at time zone 'Europe/Ljubljana') - interval '11 months',
                           date_trunc('month', ${asOf.toISOString()}::timestamptz at time zone 'Europe/Ljubljana'), interval '1 month') as m
      left join rm.stats_months s on s.month = m::date
     order by m`);
  return rows.map(({ promoters, neutrals, detractors, ...r }) => ({ ...r, nps: summariseNps({ promoters, neutrals, detractors }) }));
};

const academyRow = z.object({ id: z.number(), title: z.string(), course_ids: z.array(z.number()) });

/**
 * Success of an academy (powerclass): each course of the series in its interval `intervalId` (0: all
 * time), and the participants who completed every course of the series by `asOf`.
 */
export const academySuccess = async (db: StatsDb, academyId: number, intervalId: number, asOf: Date, scope: StatsScope) => {
  const academy = await db.maybeOne(sql.type(academyRow)`select id, title, course_ids from rm.academies where id = ${academyId} and not deleted`);
  if (!academy) return null;
  const courses: { course: { id: number; title: string }; success: Awaited<ReturnType<typeof courseSuccess>> }[] = [];
  for (const courseId of academy.course_ids) {
    const found = await courseWindow(db, courseId, intervalId, asOf);
    if (found) courses.push({ course: { id: found.course.id, title: found.course.title }, success: await courseSuccess(db, courseId, found.window, scope) });
  }
  const ids = courses.map((c) => c.course.id);
  const completedSeries =
    ids.length === 0
      ? 0
      : await db.oneFirst(sql.type(z.object({ n: z.number() }))`
          select count(*)::int as n from (
            select c.user_id from rm.stats_completions c
             where c.course_id = any(${sql.array(ids, 'int4')}) and c.at <= ${asOf.toISOString()}::timestamptz and ${inScope(scope, 'c')}
             group by c.user_id having count(distinct c.course_id) = ${ids.length}) s`);
  const sum = (key: 'attempted' | 'passed' | 'started' | 'completed') => courses.reduce((s, c) => s + c.success[key], 0);
  return {
    academy: { id: academy.id, title: academy.title },
    courses,
    completedSeries,
    attempted: sum('attempted'),
    passed: sum('passed'),
    successRate: rate(sum('passed'), sum('attempted')),
    completionRate: rate(sum('completed'), sum('started')),
  };
};

/**
 * Whether a community-scoped caller may read a course's statistics at all (issue 7: users of other
 * companies get 403): the course is public, targeted at one of their companies (directly, through a
 * unit or a community group), or billed to one of them.
 */
export const courseReachable = async (db: StatsDb, courseId: number, companyIds: readonly number[]) => {
  const companies = sql.array([...companyIds], 'int4');
  return (
    (await db.maybeOneFirst(sql.type(z.object({ ok: z.boolean() }))`
      select c.public
          or c.audience_companies && ${companies}
          or exists (select 1 from rm.units u where u.id = any(c.audience_units) and u.company_id = any(${companies}))
          or exists (select 1 from rm.community_group_units gu join rm.units u on u.id = gu.unit_id
                      where gu.group_id = any(c.audience_groups) and u.company_id = any(${companies}))
          or coalesce((select (k.costs->>'companyId')::int from rm.stats_course_costs k where k.course_id = c.id order by k.at desc limit 1) = any(${companies}), false) as ok
        from rm.courses c where c.id = ${courseId}`)) ?? false
  );
};
