// The courses bench's plain baseline (courses.bench.ts; the soak's baseline too): the participants'
// course list, course page and records served by hand-written SQL on the plain pg pool.

import Fastify from 'fastify';
import type pg from 'pg';

/**
 * The same rows by one hand-written SQL statement per request, a named prepared statement on the
 * plain pg pool: the visibility rule of decision 0011 (and 0062's for RX courses) as the queries write it, with no token, no
 * session lookup, no zod and no slonik.
 */
const PLAIN_COURSES = `
  select c.id, c.type, c.title, c.description, c.cover, c.credit_points as "creditPoints", c.intervals, c.status = 'archived' as archived,
         coalesce(e.status, 'none') as enrollment,
         case when e.user_id is null then 0 else (select count(*) from rm.course_records r where r.course_id = c.id and r.user_id = $1 and r.done)::int end as "blocksDone",
         c.blocks_count as "blocksTotal", e.started_at as "startedAt", e.completed_at as "completedAt", e.certificate_id as "certificateId",
         c.posts_enabled as "postsEnabled", c.certificate_enabled as "certificateEnabled"
    from rm.courses c
   cross join (
     select array_agg(r.unit_id) as units, array_agg(coalesce(r.company_id, un.company_id)) as companies,
            (select array_agg(gu.group_id) from rm.community_group_units gu join rm.user_roles g on g.unit_id = gu.unit_id where g.user_id = $1) as groups,
            (select u.profession_id from rm.users u where u.id = $1) as profession,
            coalesce((select p.may_prescribe from rm.users u join rm.professions p on p.id = u.profession_id where u.id = $1), false) as may_prescribe
       from rm.user_roles r left join rm.units un on un.id = r.unit_id where r.user_id = $1) me
    left join rm.enrollments e on e.course_id = c.id and e.user_id = $1
   where c.status <> 'deleted' and ($2::int is null or c.id = $2)
     and (c.type <> 1 or (me.may_prescribe and me.profession = any(c.audience_professions)))
     and (e.user_id is not null or (c.published and (c.public or (
     (c.org_audience or c.profession_audience)
     and (not c.org_audience or c.audience_units && me.units or c.audience_companies && me.companies or c.audience_groups && me.groups)
     and (not c.profession_audience or me.profession = any(c.audience_professions))))))
   order by e.completed_at desc nulls first, c.updated_at desc`;

// The caller's records of a course they may read (the platform answers 404 otherwise: a course no
// longer theirs, an RX course once their profession may not prescribe), so the course's visibility
// as PLAIN_COURSES has it, in the same statement. Until 2026-11-27 this baseline read the rows alone.
const PLAIN_RECORDS = `
  with visible as (${PLAIN_COURSES})
  select block_id, course_id, opened, done, video_seconds as "videoSeconds", quiz_attempts as "quizAttempts", quiz_score as "quizScore",
         quiz_passed as "quizPassed", nps_score as "npsScore"
    from rm.course_records where course_id = $2 and user_id = $1 and exists (select 1 from visible) order by block_id`;

export const startPlain = async (pool: pg.Pool) => {
  const app = Fastify();
  const query = async (name: string, text: string, values: unknown[]) => (await pool.query({ name, text, values })).rows;
  app.get<{ Params: { user: string } }>('/plain/user-courses/:user', async (r) => ({
    items: await query('plain_courses', PLAIN_COURSES, [r.params.user, null]),
  }));
  app.get<{ Params: { user: string; course: string } }>('/plain/user-courses/:user/:course', async (r, reply) => {
    const [course] = await query('plain_courses', PLAIN_COURSES, [r.params.user, r.params.course]);
    return course ?? reply.code(404).send();
  });
  app.get<{ Params: { user: string; course: string } }>('/plain/record/:user/:course', async (r) => ({
    items: await query('plain_records', PLAIN_RECORDS, [r.params.user, r.params.course]),
  }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as { port: number }).port };
};
