import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';

/** The ids a submitted version names, by kind. */
export type NamedIds = {
  readonly professionIds: readonly number[];
  readonly unitIds: readonly number[];
  readonly companyIds: readonly number[];
  readonly groupIds: readonly number[];
  readonly professionGroupIds: readonly number[];
  readonly courseIds: readonly number[];
  readonly tagIds: readonly number[];
};

const named = z.object({ id: z.number(), name: z.string() });
const ints = (ids: readonly number[]) => sql.array([...ids], 'int4');

/**
 * The names of what a version under approval names (issue 36 item 2): the audience's professions
 * (with whether each may prescribe or supply medicines, which an RX course's reviewer checks), units
 * with their companies, companies, community groups; the prerequisites' titles, the tags, and the
 * profession groups of a survey's follow-up questions. Whatever was deleted since is left out (the
 * preview then shows its id). Read from the organisation and courses read models as they are now.
 */
export const approvalReviewNames = async (db: DatabasePool, ids: NamedIds) => {
  const [professions, units, companies, groups, professionGroups, courses, tags] = await Promise.all([
    db.any(sql.type(named.extend({ mayPrescribe: z.boolean() }))`
      select id, name, coalesce((to_jsonb(p) ->> 'may_prescribe')::boolean, false) as "mayPrescribe"
        from rm.professions p where id = any(${ints(ids.professionIds)}) order by name collate public.slovenian`),
    db.any(sql.type(named.extend({ companyName: z.string().nullable() }))`
      select u.id, u.name, c.name as "companyName" from rm.units u left join rm.companies c on c.id = u.company_id
       where u.id = any(${ints(ids.unitIds)}) order by u.name collate public.slovenian`),
    db.any(sql.type(named)`select id, name from rm.companies where id = any(${ints(ids.companyIds)}) order by name collate public.slovenian`),
    db.any(sql.type(named)`select id, name from rm.community_groups where id = any(${ints(ids.groupIds)}) order by name collate public.slovenian`),
    db.any(sql.type(named)`select id, name from rm.profession_groups where id = any(${ints(ids.professionGroupIds)}) order by name collate public.slovenian`),
    db.any(sql.type(named)`select id, title as name from rm.courses where id = any(${ints(ids.courseIds)}) and status <> 'deleted' order by id`),
    db.any(
      sql.type(
        named,
      )`select id, name from rm.tags where id = any(${ints(ids.tagIds)}) and kind = 'course' and not deleted order by name collate public.slovenian`,
    ),
  ]);
  return {
    professions: [...professions],
    units: [...units],
    companies: [...companies],
    groups: [...groups],
    professionGroups: [...professionGroups],
    courses: [...courses],
    tags: [...tags],
  };
};
