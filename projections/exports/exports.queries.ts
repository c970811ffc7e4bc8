import { type DatabasePool, type FragmentSqlToken, sql } from 'slonik';
import { z } from 'zod';
import { EXPORT_KINDS, EXPORT_STATUSES, type ExportKind } from '../../domain/exports/export.rules.ts';
import { EXPORT_COSTS_COMMUNITY_PERMISSION, EXPORT_SYSTEM_PERMISSION, type ExportReach } from '../../domain/exports/export-access.ts';
import { anyOf } from '../../infrastructure/http/http.port.ts';

export type ExportsDb = DatabasePool;

/** The export routes let in whoever reaches some kind of export; the handlers narrow to the kind and company. */
export const EXPORT_ROUTE_ACCESS = anyOf([
  ...EXPORT_KINDS.map((kind) => ({ system: EXPORT_SYSTEM_PERMISSION[kind] })),
  { communityAnywhere: EXPORT_COSTS_COMMUNITY_PERMISSION },
]);

/** What a caller may read (decision 0026): whole kinds, and costs of these companies. */
export type ExportFilter = { readonly kinds: readonly ExportKind[]; readonly costCompanyIds: readonly number[] };

/** The companies of the units (and company-wide roles) where the caller reads costs (2009). */
export const exportFilterOf = async (db: ExportsDb, reach: ExportReach): Promise<ExportFilter> => {
  if (reach.kinds.includes('costs')) return { kinds: reach.kinds, costCompanyIds: [] };
  const fromUnits =
    reach.costs.unitIds.length === 0
      ? []
      : await db.anyFirst(sql.type(z.object({ company_id: z.number() }))`
          select company_id from rm.units where id = any(${sql.array([...reach.costs.unitIds], 'int4')})`);
  return { kinds: reach.kinds, costCompanyIds: [...new Set([...reach.costs.companyIds, ...fromUnits])] };
};

/** Whether an export of `kind` with these parameters is within the filter. */
export const exportReadable = (filter: ExportFilter, kind: string, parameters: Readonly<Record<string, unknown>>) =>
  filter.kinds.includes(kind as ExportKind) || (kind === 'costs' && filter.costCompanyIds.includes(Number(parameters.companyId)));

const readableWhere = (filter: ExportFilter): FragmentSqlToken =>
  sql.fragment`(e.kind = any(${sql.array([...filter.kinds], 'text')})
     or (e.kind = 'costs' and (e.parameters->>'companyId')::int = any(${sql.array([...filter.costCompanyIds], 'int4')})))`;

export const exportItem = z.object({
  id: z.number(),
  kind: z.enum(EXPORT_KINDS),
  parameters: z.record(z.string(), z.union([z.number(), z.string()])),
  /** Names of what the parameters point to, as they are now (a course's title, a company's name; null when gone or "all"). */
  courseTitle: z.string().nullable(),
  companyName: z.string().nullable(),
  status: z.enum(EXPORT_STATUSES),
  progress: z.object({ done: z.number(), total: z.number() }),
  attempts: z.number(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  user: z.object({ id: z.number(), name: z.string() }),
  rows: z.number().nullable(),
  bytes: z.number().nullable(),
  /** A file to download: finished, and not discarded since. */
  fileAvailable: z.boolean(),
  fileDiscarded: z.boolean(),
  error: z.string().nullable(),
});
export type ExportItem = z.infer<typeof exportItem>;

const iso = (column: FragmentSqlToken) => sql.fragment`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const ITEM = sql.fragment`
  e.id, e.kind, e.parameters, e.status, jsonb_build_object('done', e.done, 'total', e.total) as progress, e.attempts,
  ${iso(sql.fragment`e.created_at`)} as "createdAt", ${iso(sql.fragment`e.started_at`)} as "startedAt", ${iso(sql.fragment`e.finished_at`)} as "finishedAt",
  (select c.title from rm.courses c where c.id = (e.parameters->>'courseId')::int) as "courseTitle",
  (select co.name from rm.companies co where co.id = nullif((e.parameters->>'companyId')::int, 0)) as "companyName",
  jsonb_build_object('id', e.requested_by, 'name', coalesce((select trim(concat_ws(' ', u.first_name, u.middle_name, u.last_name)) from rm.users u where u.id = e.requested_by), '')) as "user",
  e.rows, e.bytes, (e.status = 'finished' and e.file_id is not null and not e.file_discarded) as "fileAvailable", e.file_discarded as "fileDiscarded", e.error`;

/** The exports the caller may read, newest first. */
export const listExports = async (db: ExportsDb, filter: ExportFilter, options: { limit: number }) =>
  db.any(sql.type(exportItem)`
    select ${ITEM} from rm.exports e where ${readableWhere(filter)} order by e.created_at desc, e.id desc limit ${options.limit}`);

export const getExport = async (db: ExportsDb, id: number) =>
  db.maybeOne(sql.type(exportItem.extend({ fileId: z.number().nullable() }))`select ${ITEM}, e.file_id as "fileId" from rm.exports e where e.id = ${id}`);

/** Whether a stored file is an export's: served only through its export's download (decision 0026), never by id. */
export const isExportFile = async (db: ExportsDb, fileId: number) =>
  (await db.maybeOneFirst(sql.type(z.object({ found: z.boolean() }))`select true as found from rm.exports where file_id = ${fileId} limit 1`)) ?? false;

/**
 * Exports of the kinds that name people (all but costs) whose last run started at or before an
 * instant and whose file is not discarded: what an erasure at that instant may reach.
 */
export const exportsNamingPeopleStartedBefore = async (db: ExportsDb, at: Date) =>
  db.any(sql.type(z.object({ id: z.number(), status: z.enum(EXPORT_STATUSES), fileId: z.number().nullable() }))`
    select id, status, file_id as "fileId" from rm.exports
     where kind <> 'costs' and not file_discarded and started_at <= ${at.toISOString()}::timestamptz and status in ('computing', 'finished')
     order by id`);

/** Courses an export may name: every course not deleted, by title, with its intervals (1-based; 0 = all time). */
export const exportCourseChoices = (db: ExportsDb) =>
  db.any(sql.type(z.object({ id: z.number(), title: z.string(), intervals: z.array(z.object({ startsAt: z.string(), stopsAt: z.string() })) }))`
    select id, title, intervals from rm.courses where status <> 'deleted' order by title collate public.slovenian, id`);

/** Companies an export may name: all of them, or these. */
export const exportCompanyChoices = (db: ExportsDb, only: readonly number[] | null) =>
  db.any(sql.type(z.object({ id: z.number(), name: z.string() }))`
    select id, name from rm.companies
     where ${only === null ? sql.fragment`true` : sql.fragment`id = any(${sql.array([...only], 'int4')})`}
     order by name collate public.slovenian, id`);

/** How many of a person's exports wait or are being computed (decision 0049: a person runs few at once). */
export const runningExportsOf = async (db: ExportsDb, userId: number) =>
  db.oneFirst(
    sql.type(z.object({ n: z.number() }))`select count(*)::int as n from rm.exports where requested_by = ${userId} and status in ('initiated', 'computing')`,
  );

/**
 * The exports started before `at` whose file may name this person (issue 32 item 3): users and
 * consent exports of every company or of a company she had a role in, participants exports of a
 * course she took, NPS exports of a course she answered, chamber exports of a chamber she had credits
 * with. Other people's exports stay. Costs exports name nobody.
 */
export const exportsNamingPerson = async (db: ExportsDb, userId: number, at: Date) =>
  db.any(sql.type(z.object({ id: z.number(), status: z.enum(EXPORT_STATUSES), fileId: z.number().nullable() }))`
    with companies as (
      select coalesce(r.company_id, un.company_id) as id from rm.user_roles r left join rm.units un on un.id = r.unit_id where r.user_id = ${userId}),
    courses as (select course_id from rm.enrollments where user_id = ${userId}),
    answered as (select course_id from rm.stats_nps_answers where user_id = ${userId}),
    chambers as (select chamber from rm.chamber_credits where user_id = ${userId} and chamber is not null)
    select id, status, file_id as "fileId" from rm.exports x
     where not file_discarded and started_at <= ${at.toISOString()}::timestamptz and status in ('computing', 'finished')
       and case kind
             when 'users' then (x.parameters->>'companyId')::int = 0 or (x.parameters->>'companyId')::int in (select id from companies)
             when 'consents' then (x.parameters->>'companyId')::int = 0 or (x.parameters->>'companyId')::int in (select id from companies)
             when 'participants' then (x.parameters->>'courseId')::int in (select course_id from courses)
             when 'nps' then (x.parameters->>'courseId')::int in (select course_id from answered)
             when 'chambers' then (x.parameters->>'chamber')::int in (select chamber from chambers)
             else false
           end
     order by id`);
