// The screens bench's plain baseline (screens.bench.ts): each admin screen's main rows by
// hand-written SQL, a named prepared statement on the plain pg pool behind a bare Fastify route,
// with no token, no session or permission lookup, no zod and no slonik.

import Fastify from 'fastify';
import type pg from 'pg';

const ISO = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
const BY_NAME = 'u.last_name collate public.slovenian, u.first_name collate public.slovenian, u.id';

/** The admin user list's page (the first 20 by name) of one filter's users, with each user's roles. */
const usersPage = (where: string) => `
  select u.id, u.username, u.email, trim(u.first_name || coalesce(' ' || u.middle_name, '') || ' ' || u.last_name) as "fullName",
         p.name as "professionName", u.licence_number as "licenceNumber", u.chamber_membership_number as "chamberMembershipNumber", u.status,
         coalesce((select json_agg(json_build_object('roleId', r.role_id, 'unitId', r.unit_id, 'unitName', un.name, 'companyId', r.company_id, 'companyName', c.name)
                                   order by r.role_id, c.name, un.name)
                     from rm.user_roles r left join rm.units un on un.id = r.unit_id left join rm.companies c on c.id = r.company_id
                    where r.user_id = u.id), '[]'::json) as roles,
         ${ISO('u.registered_at')} as "registeredAt", ${ISO('u.last_login_at')} as "lastLoginAt",
         u.deletion_requested_at is not null as "deletionRequested",
         (select count(*) from rm.user_change_requests q where q.user_id = u.id and q.status = 'open')::int as "openChangeRequests"
    from (select * from rm.users u where ${where} order by ${BY_NAME} limit 20) u
    left join rm.professions p on p.id = u.profession_id
   order by ${BY_NAME}`;
const ALL_USERS = `u.status <> 'deleted'`;
const COMPANY_USERS = `u.status <> 'deleted' and u.role_keys @> array[$1::text]`;

/** The admin course list's first page (newest change first) with what its status and publishing gaps are made of. */
const COURSES_PAGE = `
  select c.id, c.title, c.type, c.published,
         case when c.status = 'archived' then 'archived'
              when jsonb_array_length(c.intervals) = 0 or exists (select 1 from jsonb_array_elements(c.intervals) i
                   where (i->>'startsAt')::timestamptz <= now() and now() < (i->>'stopsAt')::timestamptz) then 'active'
              when exists (select 1 from jsonb_array_elements(c.intervals) i where (i->>'startsAt')::timestamptz > now()) then 'reserved'
              else 'expired' end as status,
         c.credit_points::float8 as "creditPoints", c.blocks_count as "blocksCount",
         (select count(*) from rm.enrollments e where e.course_id = c.id)::int as enrolled, ${ISO('c.updated_at')} as "updatedAt",
         c.public, array(select distinct b.kind from rm.course_blocks b where b.course_id = c.id) as "blockKinds",
         (select count(*) from rm.course_audience a where a.course_id = c.id)::int as "audienceCount"
    from rm.courses c where c.status <> 'deleted'
   order by c.updated_at desc, c.id desc limit 20`;

const PARTICIPANTS = `
  select e.user_id as "userId", trim(concat_ws(' ', u.first_name, u.middle_name, u.last_name)) as name, e.status,
         ${ISO('e.started_at')} as "startedAt", ${ISO('e.completed_at')} as "completedAt",
         (select count(*) from rm.course_records r where r.course_id = e.course_id and r.user_id = e.user_id and r.done)::int as "blocksDone",
         c.blocks_count as "blocksCount"
    from rm.enrollments e join rm.courses c on c.id = e.course_id join rm.users u on u.id = e.user_id
   where e.course_id = $1
   order by e.started_at desc, e.user_id limit 500`;

/** Each participant's latest NPS answer of the block, counted per score. */
const NPS_SCORES = `
  select score, count(*)::int as n from (
    select distinct on (a.user_id) a.score from rm.stats_nps_answers a
     where a.course_id = $1 and a.block_id = $2 order by a.user_id, a.answered_at desc) latest
   group by score`;

const SUCCESS = `
  select (select count(distinct o.user_id) from rm.stats_course_opens o where o.course_id = $1)::int as started,
         (select count(*) from rm.stats_completions c where c.course_id = $1)::int as completed,
         (select count(distinct q.user_id) from rm.stats_quiz_outcomes q where q.course_id = $1)::int as attempted,
         (select count(distinct q.user_id) filter (where q.passed) from rm.stats_quiz_outcomes q where q.course_id = $1)::int as passed`;

/** Views (a participant's first opening) per day in Ljubljana time. */
const VIEWS_BY_DAY = `
  select to_char(date_trunc('day', first_at at time zone 'Europe/Ljubljana'), 'YYYY-MM-DD') as period, count(*)::int as views
    from (select o.user_id, min(o.at) as first_at from rm.stats_course_opens o where o.course_id = $1 group by o.user_id) f
   group by 1 order by 1`;

const distribution = (rows: { score: number; n: number }[]) =>
  Array.from({ length: 11 }, (_, score) => ({ score, count: rows.find((r) => r.score === score)?.n ?? 0 }));

export const startScreensPlain = async (pool: pg.Pool) => {
  const app = Fastify();
  const query = async <T extends pg.QueryResultRow>(name: string, text: string, values: unknown[] = []) => (await pool.query<T>({ name, text, values })).rows;
  const total = async (name: string, where: string, values: unknown[] = []) =>
    (await query<{ n: number }>(name, `select count(*)::int as n from rm.users u where ${where}`, values))[0]?.n;
  app.get('/plain/users', async () => ({
    items: await query('plain_users', usersPage(ALL_USERS)),
    total: await total('plain_users_total', ALL_USERS),
  }));
  app.get<{ Params: { company: string } }>('/plain/users/company/:company', async (r) => {
    const key = [`c${r.params.company}`];
    return { items: await query('plain_company_users', usersPage(COMPANY_USERS), key), total: await total('plain_company_users_total', COMPANY_USERS, key) };
  });
  app.get('/plain/courses', async () => ({
    items: await query('plain_courses', COURSES_PAGE),
    total: (await query<{ n: number }>('plain_courses_total', `select count(*)::int as n from rm.courses c where c.status <> 'deleted'`))[0]?.n,
  }));
  app.get<{ Params: { course: string } }>('/plain/courses/:course/participants', async (r) => ({
    items: await query('plain_participants', PARTICIPANTS, [r.params.course]),
  }));
  app.get<{ Params: { course: string; block: string } }>('/plain/courses/:course/nps/:block', async (r) => ({
    distribution: distribution(await query('plain_nps', NPS_SCORES, [r.params.course, r.params.block])),
  }));
  app.get<{ Params: { course: string } }>('/plain/courses/:course/success', async (r) => (await query('plain_success', SUCCESS, [r.params.course]))[0]);
  app.get<{ Params: { course: string } }>('/plain/courses/:course/views', async (r) => ({
    timeline: await query('plain_views', VIEWS_BY_DAY, [r.params.course]),
  }));
  // The report's main figures: participation, and the NPS block's distribution.
  app.get<{ Params: { course: string; block: string } }>('/plain/courses/:course/report/:block', async (r) => ({
    participation: (await query('plain_success', SUCCESS, [r.params.course]))[0],
    distribution: distribution(await query('plain_nps', NPS_SCORES, [r.params.course, r.params.block])),
  }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as { port: number }).port };
};
