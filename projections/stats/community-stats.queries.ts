import { sql } from 'slonik';
import { z } from 'zod';
import { countNps, summariseNps } from '../../domain/stats/nps.ts';
import { companiesOfUnits, inScope, type StatsDb, type StatsScope } from './stats.queries.ts';

const courseRow = z.object({
  id: z.number(),
  title: z.string(),
  participants: z.number(),
  completions: z.number(),
  npsBlockId: z.number().nullable(),
});
const npsRow = z.object({ course_id: z.number(), user_id: z.number(), score: z.number() });

/** How many courses the overview lists at most (the most taken first). */
const COURSE_LIMIT = 100;

/**
 * The statistics a manager, director, client or accountant reads for their community (issue 18,
 * spec §6 1059): the published courses they may read (public, targeted at or billed to one of their
 * companies: the rule of `courseReachable`), each with its participants, completions and NPS among
 * the people of their units and companies, the academies of those courses, and the totals. With the
 * system permission (1056) the scope is everyone and every published course.
 */
export const communityStats = async (db: StatsDb, scope: StatsScope) => {
  const companies = scope.all ? [] : await companiesOfUnits(db, scope.unitIds, scope.companyIds);
  const c = sql.array(companies, 'int4');
  const reachable = scope.all
    ? sql.fragment`true`
    : sql.fragment`(c.public
        or c.audience_companies && ${c}
        or exists (select 1 from rm.units u where u.id = any(c.audience_units) and u.company_id = any(${c}))
        or exists (select 1 from rm.community_group_units gu join rm.units u on u.id = gu.unit_id
                    where gu.group_id = any(c.audience_groups) and u.company_id = any(${c}))
        or coalesce((select (k.costs->>'companyId')::int from rm.stats_course_costs k where k.course_id = c.id order by k.at desc limit 1) = any(${c}), false))`;
  const courses = await db.any(sql.type(courseRow)`
    select c.id, c.title,
           (select count(distinct o.user_id) from rm.stats_course_opens o where o.course_id = c.id and ${inScope(scope, 'o')})::int as participants,
           (select count(*) from rm.stats_completions d where d.course_id = c.id and ${inScope(scope, 'd')})::int as completions,
           (select b.block_id from rm.course_blocks b where b.course_id = c.id and b.kind = 'nps' order by b.position limit 1) as "npsBlockId"
      from rm.courses c
     where c.status <> 'deleted' and c.published and ${reachable}
     order by participants desc, c.title collate public.slovenian, c.id
     limit ${COURSE_LIMIT}`);
  const ids = courses.map((x) => x.id);
  // Each person's latest answer per NPS block (as the NPS pages count), of the listed courses.
  const answers = await db.any(sql.type(npsRow)`
    select course_id, user_id, score from (
      select distinct on (a.block_id, a.user_id) a.course_id, a.block_id, a.user_id, a.score
        from rm.stats_nps_answers a
       where a.course_id = any(${sql.array(ids, 'int4')}) and ${inScope(scope, 'a')}
       order by a.block_id, a.user_id, a.answered_at desc) latest`);
  const byCourse = new Map<number, number[]>();
  for (const a of answers) byCourse.set(a.course_id, [...(byCourse.get(a.course_id) ?? []), a.score]);
  const academies = await db.any(sql.type(z.object({ id: z.number(), title: z.string() }))`
    select a.id, a.title from rm.academies a where not a.deleted and a.course_ids && ${sql.array(ids, 'int4')} order by a.title collate public.slovenian, a.id`);
  const participants = await db.oneFirst(sql.type(z.object({ n: z.number() }))`
    select count(distinct o.user_id)::int as n from rm.stats_course_opens o
     where o.course_id = any(${sql.array(ids, 'int4')}) and ${inScope(scope, 'o')}`);
  return {
    totals: {
      courses: courses.length,
      participants,
      completions: courses.reduce((sum, x) => sum + x.completions, 0),
      nps: summariseNps(countNps(answers.map((a) => a.score))),
    },
    courses: courses.map((x) => ({ ...x, nps: summariseNps(countNps(byCourse.get(x.id) ?? [])) })),
    academies: [...academies],
  };
};
