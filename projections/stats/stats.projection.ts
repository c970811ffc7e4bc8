import { sql } from 'slonik';
import { ERASED_PERSON } from '../../domain/shared/event.ts';
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port.ts';
import type { Projection, ProjectionContext } from '../../infrastructure/projections/projection.port.ts';

/**
 * Facts for the statistics (issue 7), one row per fact with its time, so every figure can also be
 * asked "as of" a past instant by filtering on that time (decision 0015):
 * - `stats_nps_answers`: each NPS answer (score, reasons, comment);
 * - `stats_quiz_outcomes`: each quiz attempt's outcome (attempt number, passed, score);
 * - `stats_course_opens`: the first step of a participant in a course per day (a "view" is the
 *   first opening in an interval, so days are enough and the table stays small);
 * - `stats_completions`: when a participant completed a course;
 * - `stats_course_costs`: every change of a course's costs;
 * - `stats_months`: the platform's trends per month in Ljubljana time (issue 17 item 7, /admin/stats):
 *   new users, enrollments, completions, certificates, credit points and NPS answers by category,
 *   counters kept current as events come; `stats_month_facts` records which fact each counted
 *   (a user, an enrollment, a completion, a certificate, an answer), and only a fact recorded for the
 *   first time is added, so a batch applied again (or replayed) counts nothing twice.
 * Rows are keyed by the event id (or by course, user and day), so a batch applied again adds nothing.
 * Written in a few statements per batch: a participant's steps are most events of the platform.
 */
const enrollmentOf = (event: RecordedEvent) => event.streamName.slice('enrollment-'.length).split('_').map(Number) as [number, number];
const STEP_EVENTS = new Set([
  'CourseStarted',
  'BlockOpened',
  'VideoProgressed',
  'VideoCompleted',
  'AlternativeRead',
  'QuizAnswerSubmitted',
  'QuizPassed',
  'QuizFailed',
  'NpsAnswered',
  'CourseCompleted',
  'CertificateIssued',
]);

/** What the monthly trends count; each fact once, by its key. */
type MonthFact = { kind: 'user' | 'enrollment' | 'completion' | 'certificate' | 'nps'; key: string; at: string; points: number; score: number };

/**
 * Adds the facts not counted before to their month's counters, in one statement: the facts go into
 * the ledger first, and only those it did not hold yet (returned by the insert) are added.
 */
const countMonths = async ({ tx, table }: ProjectionContext, facts: ReadonlyMap<string, MonthFact>) => {
  if (facts.size === 0) return;
  const rows = [...facts.values()];
  const col = <K extends keyof MonthFact>(key: K) => rows.map((r) => r[key]);
  await tx.query(sql.unsafe`
    with x as (select kind, key, date_trunc('month', at at time zone 'Europe/Ljubljana')::date as month, points, score
                 from unnest(${sql.array(col('kind'), 'text')}, ${sql.array(col('key'), 'text')}, ${sql.array(col('at'), 'timestamptz')},
                             ${sql.array(col('points'), 'numeric')}, ${sql.array(col('score'), 'int4')}) as x(kind, key, at, points, score)),
         fresh as (insert into ${table('stats_month_facts')} (kind, key, month) select kind, key, month from x
                     on conflict (kind, key) do nothing returning kind, key)
    insert into ${table('stats_months')} as m (month, users, enrollments, completions, certificates, credit_points, promoters, neutrals, detractors)
    select x.month,
           count(*) filter (where x.kind = 'user'), count(*) filter (where x.kind = 'enrollment'), count(*) filter (where x.kind = 'completion'),
           count(*) filter (where x.kind = 'certificate'), coalesce(sum(x.points) filter (where x.kind = 'completion'), 0),
           count(*) filter (where x.kind = 'nps' and x.score >= 9), count(*) filter (where x.kind = 'nps' and x.score between 7 and 8),
           count(*) filter (where x.kind = 'nps' and x.score <= 6)
      from fresh join x using (kind, key) group by x.month
    on conflict (month) do update set users = m.users + excluded.users, enrollments = m.enrollments + excluded.enrollments,
      completions = m.completions + excluded.completions, certificates = m.certificates + excluded.certificates,
      credit_points = m.credit_points + excluded.credit_points, promoters = m.promoters + excluded.promoters,
      neutrals = m.neutrals + excluded.neutrals, detractors = m.detractors + excluded.detractors`);
};

const applyBatch = async (context: ProjectionContext, events: readonly RecordedEvent[]) => {
  const { tx, table } = context;
  const nps: { id: string; course: number; block: number; user: number; score: number; reasons: string; comment: string | null; at: string }[] = [];
  const quiz: { id: string; course: number; block: number; user: number; attempt: number; passed: boolean; score: number; at: string }[] = [];
  const opens = new Map<string, { course: number; user: number; day: string; at: string }>();
  const completions: { course: number; user: number; at: string }[] = [];
  const costs: { id: string; course: number; costs: string; at: string }[] = [];
  const erased: number[] = [];
  // The first of a key in the batch stands (events come in order, so it is the earliest).
  const months = new Map<string, MonthFact>();
  const fact = (kind: MonthFact['kind'], key: string, at: string, value: { points?: number; score?: number } = {}) => {
    if (!months.has(`${kind}|${key}`)) months.set(`${kind}|${key}`, { kind, key, at, points: value.points ?? 0, score: value.score ?? 0 });
  };
  for (const event of events) {
    const at = event.createdAt.toISOString();
    if (event.type === 'UserRegistered') {
      // Every new account: registered, created by an admin, imported or signed in socially.
      fact('user', event.streamName.slice('user-'.length), at);
      continue;
    }
    if (event.type === 'UserErased') {
      erased.push(Number(event.streamName.slice('user-'.length)));
      continue;
    }
    if (event.type === 'CourseCostsSet' || event.type === 'CourseCostsWithdrawn') {
      // A withdrawn deal is an empty set of costs from then on: the defaults, billed to nobody.
      const set = event.type === 'CourseCostsSet' ? (event.data as { costs: unknown }).costs : {};
      costs.push({ id: event.eventId, course: Number(event.streamName.slice('course-'.length)), costs: JSON.stringify(set), at });
      continue;
    }
    if (event.type === 'SurveyNpsAnswered') {
      // A survey answered at /anketa (issue 17, decision 0029): counted as an NPS answer of its respondent (negative: an anonymous browser).
      const s = event.data as { courseId: number; blockId: number; respondent: number; score: number; reasons: string[]; comment: string | null };
      fact('nps', event.eventId, at, { score: s.score });
      nps.push({
        id: event.eventId,
        course: s.courseId,
        block: s.blockId,
        user: s.respondent,
        score: s.score,
        reasons: JSON.stringify(s.reasons),
        comment: s.comment,
        at,
      });
      continue;
    }
    if (!STEP_EVENTS.has(event.type)) continue;
    const [course, user] = enrollmentOf(event);
    const day = at.slice(0, 10);
    const key = `${course}_${user}_${day}`;
    const open = opens.get(key);
    if (!open || at < open.at) opens.set(key, { course, user, day, at });
    const d = event.data as { blockId: number; score: number; reasons: string[]; comment: string | null; attempt: number };
    if (event.type === 'NpsAnswered')
      nps.push({ id: event.eventId, course, block: d.blockId, user, score: d.score, reasons: JSON.stringify(d.reasons), comment: d.comment, at });
    if (event.type === 'QuizPassed' || event.type === 'QuizFailed')
      quiz.push({ id: event.eventId, course, block: d.blockId, user, attempt: d.attempt, passed: event.type === 'QuizPassed', score: d.score, at });
    if (event.type === 'CourseCompleted') completions.push({ course, user, at });
    // Trends: an enrollment, completion and certificate once per participant and course (as the
    // headline figures count them); each NPS answer in the month it was given.
    if (event.type === 'CourseStarted') fact('enrollment', `${course}_${user}`, at);
    if (event.type === 'CourseCompleted') fact('completion', `${course}_${user}`, at, { points: (event.data as { creditPoints: number }).creditPoints });
    if (event.type === 'CertificateIssued') fact('certificate', `${course}_${user}`, at);
    if (event.type === 'NpsAnswered') fact('nps', event.eventId, at, { score: d.score });
  }
  await countMonths(context, months);
  const col = <T, K extends keyof T>(rows: readonly T[], key: K) => rows.map((r) => r[key]);
  if (nps.length > 0) {
    await tx.query(sql.unsafe`
      insert into ${table('stats_nps_answers')} (event_id, course_id, block_id, user_id, score, reasons, comment, answered_at)
      select id, c, b, u, s, r::jsonb, m, a from unnest(${sql.array(col(nps, 'id'), 'uuid')}, ${sql.array(col(nps, 'course'), 'int4')}, ${sql.array(col(nps, 'block'), 'int4')},
        ${sql.array(col(nps, 'user'), 'int4')}, ${sql.array(col(nps, 'score'), 'int4')}, ${sql.array(col(nps, 'reasons'), 'text')}, ${sql.array(col(nps, 'comment'), 'text')},
        ${sql.array(col(nps, 'at'), 'timestamptz')}) as x(id, c, b, u, s, r, m, a)
      on conflict (event_id) do nothing`);
  }
  if (quiz.length > 0) {
    await tx.query(sql.unsafe`
      insert into ${table('stats_quiz_outcomes')} (event_id, course_id, block_id, user_id, attempt, passed, score, at)
      select * from unnest(${sql.array(col(quiz, 'id'), 'uuid')}, ${sql.array(col(quiz, 'course'), 'int4')}, ${sql.array(col(quiz, 'block'), 'int4')},
        ${sql.array(col(quiz, 'user'), 'int4')}, ${sql.array(col(quiz, 'attempt'), 'int4')}, ${sql.array(col(quiz, 'passed'), 'bool')}, ${sql.array(col(quiz, 'score'), 'numeric')},
        ${sql.array(col(quiz, 'at'), 'timestamptz')})
      on conflict (event_id) do nothing`);
  }
  if (opens.size > 0) {
    const rows = [...opens.values()];
    await tx.query(sql.unsafe`
      insert into ${table('stats_course_opens')} as o (course_id, user_id, day, at)
      select * from unnest(${sql.array(col(rows, 'course'), 'int4')}, ${sql.array(col(rows, 'user'), 'int4')}, ${sql.array(col(rows, 'day'), 'date')}, ${sql.array(col(rows, 'at'), 'timestamptz')})
      on conflict (course_id, user_id, day) do update set at = least(o.at, excluded.at)`);
  }
  if (completions.length > 0) {
    await tx.query(sql.unsafe`
      insert into ${table('stats_completions')} as c (course_id, user_id, at)
      select * from unnest(${sql.array(col(completions, 'course'), 'int4')}, ${sql.array(col(completions, 'user'), 'int4')}, ${sql.array(col(completions, 'at'), 'timestamptz')})
      on conflict (course_id, user_id) do update set at = least(c.at, excluded.at)`);
  }
  for (const c of costs) {
    await tx.query(sql.unsafe`
      insert into ${table('stats_course_costs')} (event_id, course_id, costs, at) values (${c.id}, ${c.course}, ${c.costs}::jsonb, ${c.at})
      on conflict (event_id) do nothing`);
  }
  // Decision 0019: an erased person's comments go at once, after this batch's answers went in; the scores stay.
  if (erased.length > 0) {
    await tx.query(sql.unsafe`
      update ${table('stats_nps_answers')} set comment = ${ERASED_PERSON} where user_id = any(${sql.array(erased, 'int4')}) and comment is not null`);
  }
};

export const statsProjection: Projection = {
  name: 'stats',
  // 2: erasure (decision 0019). 3: survey answers (decision 0029). 4: monthly trends (issue 17 item 7).
  version: 4,
  tables: ['stats_nps_answers', 'stats_quiz_outcomes', 'stats_course_opens', 'stats_completions', 'stats_course_costs', 'stats_months', 'stats_month_facts'],
  setup: (table) => [
    sql.unsafe`create table ${table('stats_nps_answers')} (event_id uuid primary key, course_id integer not null, block_id integer not null, user_id integer not null,
      score smallint not null, reasons jsonb not null, comment text, answered_at timestamptz not null)`,
    sql.unsafe`create index on ${table('stats_nps_answers')} (course_id, block_id, answered_at)`,
    sql.unsafe`create table ${table('stats_quiz_outcomes')} (event_id uuid primary key, course_id integer not null, block_id integer not null, user_id integer not null,
      attempt integer not null, passed boolean not null, score numeric not null, at timestamptz not null)`,
    sql.unsafe`create index on ${table('stats_quiz_outcomes')} (course_id, at)`,
    sql.unsafe`create table ${table('stats_course_opens')} (course_id integer not null, user_id integer not null, day date not null, at timestamptz not null,
      primary key (course_id, user_id, day))`,
    sql.unsafe`create index on ${table('stats_course_opens')} (course_id, at)`,
    sql.unsafe`create table ${table('stats_completions')} (course_id integer not null, user_id integer not null, at timestamptz not null, primary key (course_id, user_id))`,
    sql.unsafe`create table ${table('stats_course_costs')} (event_id uuid primary key, course_id integer not null, costs jsonb not null, at timestamptz not null)`,
    sql.unsafe`create index on ${table('stats_course_costs')} (course_id, at)`,
    // The month is its first day in Ljubljana time.
    sql.unsafe`create table ${table('stats_months')} (month date primary key, users integer not null default 0, enrollments integer not null default 0,
      completions integer not null default 0, certificates integer not null default 0, credit_points numeric not null default 0,
      promoters integer not null default 0, neutrals integer not null default 0, detractors integer not null default 0)`,
    sql.unsafe`create table ${table('stats_month_facts')} (kind text not null, key text not null, month date not null, primary key (kind, key))`,
  ],
  handles: [...STEP_EVENTS, 'CourseCostsSet', 'CourseCostsWithdrawn', 'UserErased', 'SurveyNpsAnswered', 'UserRegistered'],
  apply: applyBatch,
};
