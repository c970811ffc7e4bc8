import { type DatabasePool, type FragmentSqlToken, sql } from 'slonik';
import { z } from 'zod';
import { PUBLISHING_GAPS, publishingGaps } from '../../domain/courses/publishing-gaps.ts';
import { likePattern } from '../../infrastructure/postgres/search.port.ts';

/**
 * The admins' course list (/admin/courses, issue 15): a page of courses with search, filters and
 * sort, each with its status and what it lacks for publishing (spec §4).
 *
 * Status: draft or published as the author left it, archived, deleted (only when asked for), and by
 * its intervals: reserved (the next one has not opened yet), expired (every one has closed); a course
 * with no interval or an open one is active.
 */
export const ADMIN_COURSE_STATUSES = ['active', 'reserved', 'expired', 'archived', 'deleted'] as const;
export const ADMIN_COURSE_SORTS = ['title', 'type', 'updatedAt', 'enrolled'] as const;

export type AdminCourseListParams = {
  readonly search?: string | undefined;
  readonly type?: number | undefined;
  readonly status?: (typeof ADMIN_COURSE_STATUSES)[number] | undefined;
  readonly published?: boolean | undefined;
  readonly academyId?: number | undefined;
  readonly tagId?: number | undefined;
  /** A community author's reach: only the courses its units (or whole companies) own. Absent: every course. */
  readonly owners?: { readonly unitIds: readonly number[]; readonly companyIds: readonly number[] } | undefined;
  readonly sort?: (typeof ADMIN_COURSE_SORTS)[number] | undefined;
  readonly order?: 'asc' | 'desc' | undefined;
  readonly page?: number | undefined;
  readonly pageSize?: number | undefined;
};

export const adminCourseListItem = z.object({
  id: z.number(),
  title: z.string(),
  type: z.number(),
  published: z.boolean(),
  status: z.enum(ADMIN_COURSE_STATUSES),
  /** For an academy's total when the course is picked for it (issue 15). */
  creditPoints: z.number(),
  blocksCount: z.number(),
  enrolled: z.number(),
  updatedAt: z.string(),
  gaps: z.array(z.enum(PUBLISHING_GAPS)),
  /**
   * Approval before publishing (issue 36, decision 0063): the state of the course's newest version in
   * approval, `none` when its scope (its owner company, or the platform) has approval on and nothing
   * was submitted, null when approval does not apply. Read from the approval read model: a content
   * change after a grant is not known here (the course's approval panel compares the hashes).
   */
  approval: z.enum(['none', 'pending', 'approved', 'rejected', 'withdrawn']).nullable(),
});

/** A list item as read, with what its publishing gaps are worked out from instead of the gaps. */
const row = adminCourseListItem.omit({ gaps: true }).extend({
  notificationsEnabled: z.boolean(),
  public: z.boolean(),
  blockKinds: z.array(z.string()),
  audienceCount: z.number(),
  tagCount: z.number(),
});

// An interval is open now, or one opens later: the course's status by its intervals (none: always open).
const OPEN_NOW = sql.fragment`exists (select 1 from jsonb_array_elements(c.intervals) i
  where (i->>'startsAt')::timestamptz <= now() and now() < (i->>'stopsAt')::timestamptz)`;
const OPENS_LATER = sql.fragment`exists (select 1 from jsonb_array_elements(c.intervals) i where (i->>'startsAt')::timestamptz > now())`;
const STATUS = sql.fragment`case
  when c.status = 'deleted' then 'deleted'
  when c.status = 'archived' then 'archived'
  when jsonb_array_length(c.intervals) = 0 or ${OPEN_NOW} then 'active'
  when ${OPENS_LATER} then 'reserved'
  else 'expired' end`;

const filters = (params: AdminCourseListParams) => {
  const parts: FragmentSqlToken[] = [params.status === 'deleted' ? sql.fragment`c.status = 'deleted'` : sql.fragment`c.status <> 'deleted'`];
  if (params.status && params.status !== 'deleted') parts.push(sql.fragment`(${STATUS}) = ${params.status}`);
  if (params.search?.trim()) parts.push(sql.fragment`c.title ilike ${likePattern(params.search)}`);
  if (params.owners)
    parts.push(
      sql.fragment`(c.owner_unit_id = any(${sql.array([...params.owners.unitIds], 'int4')}) or c.owner_company_id = any(${sql.array([...params.owners.companyIds], 'int4')}))`,
    );
  if (params.type !== undefined) parts.push(sql.fragment`c.type = ${params.type}`);
  if (params.published !== undefined) parts.push(sql.fragment`c.published = ${params.published}`);
  if (params.academyId !== undefined)
    parts.push(sql.fragment`exists (select 1 from rm.academies a where a.id = ${params.academyId} and c.id = any(a.course_ids))`);
  if (params.tagId !== undefined) parts.push(sql.fragment`coalesce(c.fields->'tagIds', '[]'::jsonb) @> ${sql.jsonb([params.tagId])}`);
  return sql.join(parts, sql.fragment` and `);
};

const ENROLLED = sql.fragment`(select count(*) from rm.enrollments e where e.course_id = c.id)`;

const SORTS: Record<(typeof ADMIN_COURSE_SORTS)[number], (dir: FragmentSqlToken) => FragmentSqlToken> = {
  title: (dir) => sql.fragment`c.title collate public.slovenian ${dir}, c.id ${dir}`,
  type: (dir) => sql.fragment`c.type ${dir}, c.id ${dir}`,
  updatedAt: (dir) => sql.fragment`c.updated_at ${dir}, c.id ${dir}`,
  enrolled: (dir) => sql.fragment`${ENROLLED} ${dir}, c.id ${dir}`,
};

export const listAdminCoursePage = async (db: DatabasePool, params: AdminCourseListParams) => {
  const pageSize = params.pageSize ?? 20;
  const offset = ((params.page ?? 1) - 1) * pageSize;
  const dir = params.order === 'asc' ? sql.fragment`asc` : params.order === 'desc' ? sql.fragment`desc` : null;
  const sort = params.sort ?? 'updatedAt';
  // Newest first unless told otherwise; names A to Ž.
  const direction = dir ?? (sort === 'title' || sort === 'type' ? sql.fragment`asc` : sql.fragment`desc`);
  const where = filters(params);
  const order = SORTS[sort](direction);
  // The page is chosen first and only its courses get their counts, block kinds and approval: the
  // planner left the approval's subqueries below the sort, asked for every course of the list.
  const [rows, total] = await Promise.all([
    db.any(sql.type(row)`
      select c.id, c.title, c.type, c.published, ${STATUS} as status, c.credit_points::float8 as "creditPoints", c.blocks_count as "blocksCount",
             ${ENROLLED}::int as enrolled,
             to_char(c.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "updatedAt",
             coalesce((c.fields->>'notificationsEnabled')::boolean, false) as "notificationsEnabled", c.public,
             array(select distinct b.kind from rm.course_blocks b where b.course_id = c.id) as "blockKinds",
             (select count(*) from rm.course_audience a where a.course_id = c.id)::int as "audienceCount",
             coalesce(jsonb_array_length(c.fields->'tagIds'), 0)::int as "tagCount",
             coalesce((select a.status from rm.course_approvals a where a.course_id = c.id),
                      (select 'none' from rm.approval_settings s where s.scope = coalesce(c.owner_company_id::text, 'platform') and s.enabled)) as approval
        from (select c.* from rm.courses c where ${where} order by ${order} limit ${pageSize} offset ${offset}) c
       order by ${order}`),
    db.oneFirst(sql.type(z.object({ n: z.number() }))`select count(*)::int as n from rm.courses c where ${where}`),
  ]);
  return {
    items: rows.map(({ notificationsEnabled, public: isPublic, blockKinds, audienceCount, tagCount, ...item }) => ({
      ...item,
      gaps: publishingGaps({ notificationsEnabled, public: isPublic, blockKinds, audienceCount, tagCount, type: item.type }),
    })),
    total,
  };
};
