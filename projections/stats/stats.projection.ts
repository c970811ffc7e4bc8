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
  // Issue 35: a package item's result counts in success rates as a quiz attempt does.
  'PackageScored',
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

/**
 * Where a person stood (issue 32 item 1, decision 0050): the units of their roles, those units'
 * companies (a company-wide role's company), the community groups containing the units, their
 * profession. Kept by this projection from the events in the order of the log, and stamped on
 * each fact as it is recorded: a fact counts where the person was when it happened, whatever
 * happens later, and a rebuild from zero stamps the same.
 */
const MEMBERSHIP_EVENTS = new Set([
  'UserRegistered',
  'UserProfileUpdated',
  'UserRoleGranted',
  'UserRoleRevoked',
  'UnitCreated',
  'UnitUpdated',
  'CommunityGroupCreated',
  'CommunityGroupUpdated',
  'CommunityGroupDeleted',
]);

const tailId = (event: RecordedEvent) => Number(event.streamName.slice(event.streamName.lastIndexOf('-') + 1));

const applyMembership = async ({ tx, table }: ProjectionContext, event: RecordedEvent) => {
  switch (event.type) {
    case 'UserRegistered':
    case 'UserProfileUpdated': {
      const professionId = (event.data as { professionId?: number | null }).professionId ?? null;
      await tx.query(sql.unsafe`
        insert into ${table('stats_member_professions')} (user_id, profession_id) values (${tailId(event)}, ${professionId})
        on conflict (user_id) do update set profession_id = excluded.profession_id`);
      return;
    }
    case 'UserRoleGranted':
    case 'UserRoleRevoked': {
      const role = event.data as { roleId: number; unitId: number; companyId: number | null };
      if (event.type === 'UserRoleGranted') {
        await tx.query(sql.unsafe`
          insert into ${table('stats_member_roles')} (user_id, role_id, unit_id, company_id) values (${tailId(event)}, ${role.roleId}, ${role.unitId}, ${role.companyId})
          on conflict do nothing`);
      } else {
        await tx.query(sql.unsafe`
          delete from ${table('stats_member_roles')}
           where user_id = ${tailId(event)} and role_id = ${role.roleId} and unit_id = ${role.unitId} and company_id is not distinct from ${role.companyId}`);
      }
      return;
    }
    case 'UnitCreated':
    case 'UnitUpdated': {
      const companyId = (event.data as { companyId: number }).companyId;
      await tx.query(sql.unsafe`
        insert into ${table('stats_unit_companies')} (unit_id, company_id) values (${tailId(event)}, ${companyId})
        on conflict (unit_id) do update set company_id = excluded.company_id`);
      return;
    }
    case 'CommunityGroupCreated':
    case 'CommunityGroupUpdated':
    case 'CommunityGroupDeleted': {
      const groupId = tailId(event);
      const unitIds = event.type === 'CommunityGroupDeleted' ? [] : (event.data as { unitIds: number[] }).unitIds;
      await tx.query(sql.unsafe`delete from ${table('stats_group_units')} where group_id = ${groupId}`);
      await tx.query(sql.unsafe`
        insert into ${table('stats_group_units')} (group_id, unit_id) select ${groupId}, unnest(${sql.array(unitIds, 'int4')}) on conflict do nothing`);
      return;
    }
    default:
      return;
  }
};

/** Where `user` stands now, in this projection's own membership tables: units, companies, groups, profession. */
const stampOf = (table: ProjectionContext['table'], user: ReturnType<typeof sql.identifier>) => sql.fragment`
  select coalesce((select array_agg(distinct r.unit_id order by r.unit_id) from ${table('stats_member_roles')} r where r.user_id = ${user} and r.unit_id > 0), '{}') as units,
         coalesce((select array_agg(distinct coalesce(uc.company_id, r.company_id) order by coalesce(uc.company_id, r.company_id))
                     from ${table('stats_member_roles')} r left join ${table('stats_unit_companies')} uc on uc.unit_id = r.unit_id and r.unit_id > 0
                    where r.user_id = ${user} and coalesce(uc.company_id, r.company_id) is not null), '{}') as companies,
         coalesce((select array_agg(distinct g.group_id order by g.group_id) from ${table('stats_group_units')} g
                     join ${table('stats_member_roles')} r on r.unit_id = g.unit_id where r.user_id = ${user}), '{}') as groups,
         (select p.profession_id from ${table('stats_member_professions')} p where p.user_id = ${user}) as profession`;

type Pending = {
  nps: { id: string; course: number; block: number; user: number; score: number; reasons: string; comment: string | null; at: string }[];
  quiz: { id: string; course: number; block: number; user: number; attempt: number; passed: boolean; score: number; at: string }[];
  opens: Map<string, { course: number; user: number; day: string; at: string }>;
  completions: { course: number; user: number; at: string }[];
  costs: { id: string; course: number; costs: string; at: string }[];
  erased: number[];
  months: Map<string, MonthFact>;
};

const nothingPending = (): Pending => ({ nps: [], quiz: [], opens: new Map(), completions: [], costs: [], erased: [], months: new Map() });

/** Writes the facts gathered so far, each stamped with where its person stands now (before the next change of membership). */
const flush = async (context: ProjectionContext, pending: Pending) => {
  const { tx, table } = context;
  const { nps, quiz, opens, completions, costs, erased, months } = pending;
  await countMonths(context, months);
  const col = <T, K extends keyof T>(rows: readonly T[], key: K) => rows.map((r) => r[key]);
  const u = sql.identifier(['x', 'u']);
  if (nps.length > 0) {
    await tx.query(sql.unsafe`
      insert into ${table('stats_nps_answers')} (event_id, course_id, block_id, user_id, score, reasons, comment, answered_at, unit_ids, company_ids, group_ids, profession_id)
      select x.id, x.c, x.b, x.u, x.s, x.r::jsonb, x.m, x.a, st.units, st.companies, st.groups, st.profession
        from unnest(${sql.array(col(nps, 'id'), 'uuid')}, ${sql.array(col(nps, 'course'), 'int4')}, ${sql.array(col(nps, 'block'), 'int4')},
          ${sql.array(col(nps, 'user'), 'int4')}, ${sql.array(col(nps, 'score'), 'int4')}, ${sql.array(col(nps, 'reasons'), 'text')}, ${sql.array(col(nps, 'comment'), 'text')},
          ${sql.array(col(nps, 'at'), 'timestamptz')}) as x(id, c, b, u, s, r, m, a)
        cross join lateral (${stampOf(table, u)}) st
      on conflict (event_id) do nothing`);
  }
  if (quiz.length > 0) {
    await tx.query(sql.unsafe`
      insert into ${table('stats_quiz_outcomes')} (event_id, course_id, block_id, user_id, attempt, passed, score, at, unit_ids, company_ids, group_ids, profession_id)
      select x.id, x.c, x.b, x.u, x.n, x.p, x.s, x.a, st.units, st.companies, st.groups, st.profession
        from unnest(${sql.array(col(quiz, 'id'), 'uuid')}, ${sql.array(col(quiz, 'course'), 'int4')}, ${sql.array(col(quiz, 'block'), 'int4')},
          ${sql.array(col(quiz, 'user'), 'int4')}, ${sql.array(col(quiz, 'attempt'), 'int4')}, ${sql.array(col(quiz, 'passed'), 'bool')}, ${sql.array(col(quiz, 'score'), 'numeric')},
          ${sql.array(col(quiz, 'at'), 'timestamptz')}) as x(id, c, b, u, n, p, s, a)
        cross join lateral (${stampOf(table, u)}) st
      on conflict (event_id) do nothing`);
  }
  if (opens.size > 0) {
    const rows = [...opens.values()];
    // A day's first opening stands, with where the person stood at it.
    await tx.query(sql.unsafe`
      insert into ${table('stats_course_opens')} as o (course_id, user_id, day, at, unit_ids, company_ids, group_ids, profession_id)
      select x.c, x.u, x.d, x.a, st.units, st.companies, st.groups, st.profession
        from unnest(${sql.array(col(rows, 'course'), 'int4')}, ${sql.array(col(rows, 'user'), 'int4')}, ${sql.array(col(rows, 'day'), 'date')},
          ${sql.array(col(rows, 'at'), 'timestamptz')}) as x(c, u, d, a)
        cross join lateral (${stampOf(table, u)}) st
      on conflict (course_id, user_id, day) do update set
        unit_ids = case when excluded.at < o.at then excluded.unit_ids else o.unit_ids end,
        company_ids = case when excluded.at < o.at then excluded.company_ids else o.company_ids end,
        group_ids = case when excluded.at < o.at then excluded.group_ids else o.group_ids end,
        profession_id = case when excluded.at < o.at then excluded.profession_id else o.profession_id end,
        at = least(o.at, excluded.at)`);
  }
  if (completions.length > 0) {
    await tx.query(sql.unsafe`
      insert into ${table('stats_completions')} as c (course_id, user_id, at, unit_ids, company_ids, group_ids, profession_id)
      select x.c, x.u, x.a, st.units, st.companies, st.groups, st.profession
        from unnest(${sql.array(col(completions, 'course'), 'int4')}, ${sql.array(col(completions, 'user'), 'int4')},
          ${sql.array(col(completions, 'at'), 'timestamptz')}) as x(c, u, a)
        cross join lateral (${stampOf(table, u)}) st
      on conflict (course_id, user_id) do update set
        unit_ids = case when excluded.at < c.at then excluded.unit_ids else c.unit_ids end,
        company_ids = case when excluded.at < c.at then excluded.company_ids else c.company_ids end,
        group_ids = case when excluded.at < c.at then excluded.group_ids else c.group_ids end,
        profession_id = case when excluded.at < c.at then excluded.profession_id else c.profession_id end,
        at = least(c.at, excluded.at)`);
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

const applyBatch = async (context: ProjectionContext, events: readonly RecordedEvent[]) => {
  let pending = nothingPending();
  // The first of a key in the batch stands (events come in order, so it is the earliest).
  const fact = (kind: MonthFact['kind'], key: string, at: string, value: { points?: number; score?: number } = {}) => {
    if (!pending.months.has(`${kind}|${key}`)) pending.months.set(`${kind}|${key}`, { kind, key, at, points: value.points ?? 0, score: value.score ?? 0 });
  };
  for (const event of events) {
    const at = event.createdAt.toISOString();
    if (MEMBERSHIP_EVENTS.has(event.type)) {
      // The facts before a change of membership are stamped before it.
      await flush(context, pending);
      pending = nothingPending();
      await applyMembership(context, event);
    }
    if (event.type === 'UserRegistered') {
      // Every new account: registered, created by an admin, imported or signed in socially.
      fact('user', event.streamName.slice('user-'.length), at);
      continue;
    }
    if (event.type === 'UserErased') {
      pending.erased.push(Number(event.streamName.slice('user-'.length)));
      continue;
    }
    if (event.type === 'CourseCostsSet' || event.type === 'CourseCostsWithdrawn') {
      // A withdrawn deal is an empty set of costs from then on: the defaults, billed to nobody.
      const set = event.type === 'CourseCostsSet' ? (event.data as { costs: unknown }).costs : {};
      pending.costs.push({ id: event.eventId, course: Number(event.streamName.slice('course-'.length)), costs: JSON.stringify(set), at });
      continue;
    }
    if (event.type === 'SurveyNpsAnswered') {
      // A survey answered at /anketa (issue 17, decision 0029): counted as an NPS answer of its respondent (negative: an anonymous browser).
      const s = event.data as { courseId: number; blockId: number; respondent: number; score: number; reasons: string[]; comment: string | null };
      fact('nps', event.eventId, at, { score: s.score });
      pending.nps.push({
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
    const open = pending.opens.get(key);
    if (!open || at < open.at) pending.opens.set(key, { course, user, day, at });
    const d = event.data as { blockId: number; score: number; reasons: string[]; comment: string | null; attempt: number };
    if (event.type === 'NpsAnswered')
      pending.nps.push({ id: event.eventId, course, block: d.blockId, user, score: d.score, reasons: JSON.stringify(d.reasons), comment: d.comment, at });
    if (event.type === 'QuizPassed' || event.type === 'QuizFailed')
      pending.quiz.push({ id: event.eventId, course, block: d.blockId, user, attempt: d.attempt, passed: event.type === 'QuizPassed', score: d.score, at });
    if (event.type === 'PackageScored') {
      const result = event.data as { passed: boolean; score: number | null };
      pending.quiz.push({ id: event.eventId, course, block: d.blockId, user, attempt: d.attempt, passed: result.passed, score: result.score ?? 0, at });
    }
    if (event.type === 'CourseCompleted') pending.completions.push({ course, user, at });
    // Trends: an enrollment, completion and certificate once per participant and course (as the
    // headline figures count them); each NPS answer in the month it was given.
    if (event.type === 'CourseStarted') fact('enrollment', `${course}_${user}`, at);
    if (event.type === 'CourseCompleted') fact('completion', `${course}_${user}`, at, { points: (event.data as { creditPoints: number }).creditPoints });
    if (event.type === 'CertificateIssued') fact('certificate', `${course}_${user}`, at);
    if (event.type === 'NpsAnswered') fact('nps', event.eventId, at, { score: d.score });
  }
  await flush(context, pending);
};

/** Where the person of a fact stood when it happened: the columns every fact table carries. */
const STAMP = sql.fragment`unit_ids integer[] not null default '{}', company_ids integer[] not null default '{}', group_ids integer[] not null default '{}',
  profession_id integer`;

export const statsProjection: Projection = {
  name: 'stats',
  // 2: erasure (decision 0019). 3: survey answers (decision 0029). 4: monthly trends (issue 17 item 7).
  // 5: each fact stamped with where its person stood when it happened (decision 0050).
  version: 5,
  tables: [
    'stats_nps_answers',
    'stats_quiz_outcomes',
    'stats_course_opens',
    'stats_completions',
    'stats_course_costs',
    'stats_months',
    'stats_month_facts',
    'stats_member_roles',
    'stats_member_professions',
    'stats_unit_companies',
    'stats_group_units',
  ],
  setup: (table) => [
    sql.unsafe`create table ${table('stats_nps_answers')} (event_id uuid primary key, course_id integer not null, block_id integer not null, user_id integer not null,
      score smallint not null, reasons jsonb not null, comment text, answered_at timestamptz not null, ${STAMP})`,
    sql.unsafe`create index on ${table('stats_nps_answers')} (course_id, block_id, answered_at)`,
    sql.unsafe`create table ${table('stats_quiz_outcomes')} (event_id uuid primary key, course_id integer not null, block_id integer not null, user_id integer not null,
      attempt integer not null, passed boolean not null, score numeric not null, at timestamptz not null, ${STAMP})`,
    sql.unsafe`create index on ${table('stats_quiz_outcomes')} (course_id, at)`,
    sql.unsafe`create table ${table('stats_course_opens')} (course_id integer not null, user_id integer not null, day date not null, at timestamptz not null,
      ${STAMP}, primary key (course_id, user_id, day))`,
    sql.unsafe`create index on ${table('stats_course_opens')} (course_id, at)`,
    sql.unsafe`create table ${table('stats_completions')} (course_id integer not null, user_id integer not null, at timestamptz not null, ${STAMP},
      primary key (course_id, user_id))`,
    // Where people stand, as the log has it so far (decision 0050).
    sql.unsafe`create table ${table('stats_member_roles')} (user_id integer not null, role_id integer not null, unit_id integer not null, company_id integer,
      unique nulls not distinct (user_id, role_id, unit_id, company_id))`,
    sql.unsafe`create index on ${table('stats_member_roles')} (unit_id)`,
    sql.unsafe`create table ${table('stats_member_professions')} (user_id integer primary key, profession_id integer)`,
    sql.unsafe`create table ${table('stats_unit_companies')} (unit_id integer primary key, company_id integer not null)`,
    sql.unsafe`create table ${table('stats_group_units')} (group_id integer not null, unit_id integer not null, primary key (group_id, unit_id))`,
    sql.unsafe`create table ${table('stats_course_costs')} (event_id uuid primary key, course_id integer not null, costs jsonb not null, at timestamptz not null)`,
    sql.unsafe`create index on ${table('stats_course_costs')} (course_id, at)`,
    // The month is its first day in Ljubljana time.
    sql.unsafe`create table ${table('stats_months')} (month date primary key, users integer not null default 0, enrollments integer not null default 0,
      completions integer not null default 0, certificates integer not null default 0, credit_points numeric not null default 0,
      promoters integer not null default 0, neutrals integer not null default 0, detractors integer not null default 0)`,
    sql.unsafe`create table ${table('stats_month_facts')} (kind text not null, key text not null, month date not null, primary key (kind, key))`,
  ],
  handles: [...STEP_EVENTS, ...MEMBERSHIP_EVENTS, 'CourseCostsSet', 'CourseCostsWithdrawn', 'UserErased', 'SurveyNpsAnswered'],
  apply: applyBatch,
};
