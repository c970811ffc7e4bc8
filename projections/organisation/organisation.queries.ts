import { type DatabasePool, type FragmentSqlToken, sql } from 'slonik';
import { z } from 'zod';
import type { TagKind } from '../../domain/organisation/organisation.rules.ts';
import { likePattern } from '../../infrastructure/postgres/search.port.ts';

/** The read-model database handle the organisation queries take. */
export type ReadDb = DatabasePool;

export type ListParams = {
  readonly search?: string | undefined;
  readonly sort?: string | undefined;
  readonly order?: 'asc' | 'desc' | undefined;
  readonly page?: number | undefined;
  /** 'all' is the spec's `limit=NO_LIMIT`. */
  readonly pageSize?: number | 'all' | undefined;
};

/** Which units and companies a user may see: everything (system permission 1009), or those of their community roles. */
export type Visibility = { readonly all: true } | { readonly all: false; readonly unitIds: readonly number[]; readonly companyIds: readonly number[] };

export type Page<T> = { items: T[]; total: number };

const DEFAULT_PAGE_SIZE = 20;

const orderBy = (sorts: Record<string, FragmentSqlToken>, params: ListParams, fallback: string) => {
  // Own keys only: `?sort=toString` must not reach Object.prototype (found by the hostile-input suite).
  const key = params.sort !== undefined && Object.hasOwn(sorts, params.sort) ? params.sort : fallback;
  const column = sorts[key] as FragmentSqlToken;
  return params.order === 'desc' ? sql.fragment`${column} desc nulls last, 1 desc` : sql.fragment`${column} asc nulls last, 1 asc`;
};

const limitOffset = (params: ListParams) => {
  if (params.pageSize === 'all') return sql.fragment``;
  const size = Math.min(Math.max(params.pageSize ?? DEFAULT_PAGE_SIZE, 1), 100);
  const page = Math.max(params.page ?? 1, 1);
  return sql.fragment`limit ${size} offset ${(page - 1) * size}`;
};

const searchFilter = (column: FragmentSqlToken, params: ListParams) =>
  params.search?.trim() ? sql.fragment`${column} ilike ${likePattern(params.search)}` : sql.fragment`true`;

const unitVisibility = (visibility: Visibility) =>
  visibility.all
    ? sql.fragment`true`
    : sql.fragment`(u.id = any(${sql.array([...visibility.unitIds], 'int4')}) or u.company_id = any(${sql.array([...visibility.companyIds], 'int4')}))`;

// ---------------------------------------------------------------- lookups

/** Whether another profession group than `exceptId` has this name, ignoring case and surrounding spaces. */
export const professionGroupNamed = async (db: ReadDb, name: string, exceptId: number) =>
  (await db.query(sql.unsafe`select 1 from rm.profession_groups where lower(trim(name)) = lower(trim(${name})) and id <> ${exceptId}`)).rowCount > 0;

/** The company of a unit, for permission scopes; null when the unit does not exist. */
export const unitScope = async (db: ReadDb, unitId: number) => {
  const companyId = await db.maybeOneFirst(sql.type(z.object({ company_id: z.number() }))`select company_id from rm.units where id = ${unitId}`);
  return companyId === null ? null : { unitId, companyId };
};

// ---------------------------------------------------------------- companies

export const companyListItem = z.object({
  id: z.number(),
  name: z.string(),
  address: z.string(),
  city: z.string().nullable(),
  zip: z.string().nullable(),
  vat: z.string().nullable(),
  tagName: z.string().nullable(),
  unitCount: z.number(),
});

export const listCompanies = async (db: ReadDb, params: ListParams, visibility: Visibility): Promise<Page<z.infer<typeof companyListItem>>> => {
  const where = sql.fragment`${searchFilter(sql.fragment`c.name`, params)} and ${
    visibility.all
      ? sql.fragment`true`
      : sql.fragment`(c.id = any(${sql.array([...visibility.companyIds], 'int4')}) or c.id in (select company_id from rm.units where id = any(${sql.array([...visibility.unitIds], 'int4')})))`
  }`;
  const sorts = {
    name: sql.fragment`c.name collate public.slovenian`,
    city: sql.fragment`c.city collate public.slovenian`,
    vat: sql.fragment`c.vat`,
    units: sql.fragment`"unitCount"`,
    id: sql.fragment`c.id`,
  };
  const items = await db.any(sql.type(companyListItem)`
    select c.id, c.name, c.address, c.city, c.zip, c.vat, t.name as "tagName",
           (select count(*) from rm.units u where u.company_id = c.id)::int as "unitCount"
      from rm.companies c left join rm.tags t on t.id = c.tag_id
     where ${where}
     order by ${orderBy(sorts, params, 'name')} ${limitOffset(params)}`);
  const total = await db.oneFirst(sql.type(z.object({ n: z.number() }))`select count(*)::int as n from rm.companies c where ${where}`);
  return { items: [...items], total };
};

export const companyDetail = z.object({
  id: z.number(),
  name: z.string(),
  address: z.string(),
  city: z.string().nullable(),
  zip: z.string().nullable(),
  region: z.string().nullable(),
  tagId: z.number().nullable(),
  vat: z.string().nullable(),
  parentCompanyId: z.number().nullable(),
  parentCompanyName: z.string().nullable(),
  externalId: z.string().nullable(),
  syncDestination: z.number().nullable(),
  financial: z.object({ iban: z.string().nullable(), swift: z.string().nullable(), billingEmail: z.string().nullable() }),
  signature: z.object({ name: z.string(), role: z.string(), imageFileId: z.number().nullable() }).nullable(),
  units: z.array(z.object({ id: z.number(), name: z.string(), published: z.boolean() })),
});

export const getCompany = async (db: ReadDb, id: number) =>
  db.maybeOne(sql.type(companyDetail)`
    select c.id, c.name, c.address, c.city, c.zip, c.region, c.tag_id as "tagId", c.vat, c.parent_company_id as "parentCompanyId",
           p.name as "parentCompanyName", c.external_id as "externalId", c.sync_destination as "syncDestination", c.financial, c.signature,
           coalesce((select json_agg(json_build_object('id', u.id, 'name', u.name, 'published', u.published) order by u.name collate public.slovenian)
                       from rm.units u where u.company_id = c.id), '[]'::json) as units
      from rm.companies c left join rm.companies p on p.id = c.parent_company_id
     where c.id = ${id}`);

// ---------------------------------------------------------------- units (communities)

/** spec §7 GET /units: items with id, name, company_id, company_name. */
export const unitListItem = z.object({
  id: z.number(),
  name: z.string(),
  company_id: z.number(),
  company_name: z.string().nullable(),
  published: z.boolean(),
  tag_id: z.number().nullable(),
  tag_name: z.string().nullable(),
  groups: z.array(z.string()),
  address: z.string().nullable(),
  city: z.string().nullable(),
  zip: z.string().nullable(),
  region: z.string().nullable(),
  vat: z.string().nullable(),
  external_id: z.string().nullable(),
  sync_destination: z.number().nullable(),
  /** The unit's own certificate signature (issue 18); null: its company's is used. */
  signature: z.object({ name: z.string(), role: z.string(), imageFileId: z.number().nullable() }).nullable(),
});

export const listUnits = async (
  db: ReadDb,
  params: ListParams & { companyIds?: readonly number[] | undefined; ids?: readonly number[] | undefined },
  visibility: Visibility,
): Promise<Page<z.infer<typeof unitListItem>>> => {
  const where = sql.fragment`${searchFilter(sql.fragment`u.name`, params)} and ${unitVisibility(visibility)}
    and ${params.companyIds?.length ? sql.fragment`u.company_id = any(${sql.array([...params.companyIds], 'int4')})` : sql.fragment`true`}
    and ${params.ids ? sql.fragment`u.id = any(${sql.array([...params.ids], 'int4')})` : sql.fragment`true`}`;
  const sorts = {
    name: sql.fragment`u.name collate public.slovenian`,
    company: sql.fragment`c.name collate public.slovenian`,
    published: sql.fragment`u.published`,
    id: sql.fragment`u.id`,
  };
  const items = await db.any(sql.type(unitListItem)`
    select u.id, u.name, u.company_id, c.name as company_name, u.published, u.tag_id, t.name as tag_name, u.address, u.city, u.zip, u.region, u.vat,
           u.external_id, u.sync_destination, u.signature,
           coalesce((select array_agg(g.name order by g.name collate public.slovenian) from rm.community_group_units gu join rm.community_groups g on g.id = gu.group_id
                      where gu.unit_id = u.id), '{}') as groups
      from rm.units u left join rm.companies c on c.id = u.company_id left join rm.tags t on t.id = u.tag_id
     where ${where}
     order by ${orderBy(sorts, params, 'name')} ${limitOffset(params)}`);
  const total = await db.oneFirst(sql.type(z.object({ n: z.number() }))`
    select count(*)::int as n from rm.units u left join rm.companies c on c.id = u.company_id where ${where}`);
  return { items: [...items], total };
};

export const getUnit = async (db: ReadDb, id: number) => (await listUnits(db, { ids: [id], pageSize: 'all' }, { all: true })).items[0] ?? null;

// ---------------------------------------------------------------- community groups

export const communityGroupItem = z.object({
  id: z.number(),
  name: z.string(),
  units: z.array(z.object({ id: z.number(), name: z.string(), company_name: z.string().nullable() })),
});

export const listCommunityGroups = async (db: ReadDb, params: ListParams & { ids?: readonly number[] }): Promise<Page<z.infer<typeof communityGroupItem>>> => {
  const where = sql.fragment`${searchFilter(sql.fragment`g.name`, params)} and ${params.ids ? sql.fragment`g.id = any(${sql.array([...params.ids], 'int4')})` : sql.fragment`true`}`;
  const sorts = { name: sql.fragment`g.name collate public.slovenian`, id: sql.fragment`g.id`, units: sql.fragment`json_array_length(units)` };
  const items = await db.any(sql.type(communityGroupItem)`
    select g.id, g.name,
           coalesce((select json_agg(json_build_object('id', u.id, 'name', u.name, 'company_name', c.name) order by u.name collate public.slovenian)
                       from rm.community_group_units gu join rm.units u on u.id = gu.unit_id left join rm.companies c on c.id = u.company_id
                      where gu.group_id = g.id), '[]'::json) as units
      from rm.community_groups g
     where ${where}
     order by ${orderBy(sorts, params, 'name')} ${limitOffset(params)}`);
  const total = await db.oneFirst(sql.type(z.object({ n: z.number() }))`select count(*)::int as n from rm.community_groups g where ${where}`);
  return { items: [...items], total };
};

// ---------------------------------------------------------------- professions

export const professionItem = z.object({
  id: z.number(),
  name: z.string(),
  groupId: z.number().nullable(),
  groupName: z.string().nullable(),
  needsLicenceNumber: z.boolean(),
  needsChamberNumber: z.boolean(),
  chamber: z.number().nullable(),
  /** May prescribe or supply medicines: receives RX courses (issue 36). */
  mayPrescribe: z.boolean(),
});

export const listProfessions = async (db: ReadDb, params: ListParams & { ids?: readonly number[] }): Promise<Page<z.infer<typeof professionItem>>> => {
  const where = sql.fragment`${searchFilter(sql.fragment`p.name`, params)} and ${params.ids ? sql.fragment`p.id = any(${sql.array([...params.ids], 'int4')})` : sql.fragment`true`}`;
  const sorts = { name: sql.fragment`p.name collate public.slovenian`, group: sql.fragment`g.name collate public.slovenian`, id: sql.fragment`p.id` };
  const items = await db.any(sql.type(professionItem)`
    select p.id, p.name, p.group_id as "groupId", g.name as "groupName", p.needs_licence_number as "needsLicenceNumber", p.needs_chamber_number as "needsChamberNumber",
           p.chamber, coalesce((to_jsonb(p) ->> 'may_prescribe')::boolean, false) as "mayPrescribe"
      from rm.professions p left join rm.profession_groups g on g.id = p.group_id
     where ${where}
     order by ${orderBy(sorts, params, 'name')} ${limitOffset(params)}`);
  const total = await db.oneFirst(sql.type(z.object({ n: z.number() }))`
    select count(*)::int as n from rm.professions p left join rm.profession_groups g on g.id = p.group_id where ${where}`);
  return { items: [...items], total };
};

export const professionGroupItem = z.object({ id: z.number(), name: z.string(), professions: z.array(z.object({ id: z.number(), name: z.string() })) });

export const listProfessionGroups = async (
  db: ReadDb,
  params: ListParams & { ids?: readonly number[] },
): Promise<Page<z.infer<typeof professionGroupItem>>> => {
  const where = sql.fragment`${searchFilter(sql.fragment`g.name`, params)} and ${params.ids ? sql.fragment`g.id = any(${sql.array([...params.ids], 'int4')})` : sql.fragment`true`}`;
  const sorts = { name: sql.fragment`g.name collate public.slovenian`, id: sql.fragment`g.id` };
  const items = await db.any(sql.type(professionGroupItem)`
    select g.id, g.name,
           coalesce((select json_agg(json_build_object('id', p.id, 'name', p.name) order by p.name collate public.slovenian) from rm.professions p where p.group_id = g.id), '[]'::json) as professions
      from rm.profession_groups g
     where ${where}
     order by ${orderBy(sorts, params, 'name')} ${limitOffset(params)}`);
  const total = await db.oneFirst(sql.type(z.object({ n: z.number() }))`select count(*)::int as n from rm.profession_groups g where ${where}`);
  return { items: [...items], total };
};

// ---------------------------------------------------------------- tags

export const tagItem = z.object({ id: z.number(), kind: z.string(), name: z.string(), internalUse: z.boolean() });

export const listTags = async (db: ReadDb, kind: TagKind, params: ListParams & { ids?: readonly number[] }): Promise<Page<z.infer<typeof tagItem>>> => {
  const where = sql.fragment`t.kind = ${kind} and not t.deleted and ${searchFilter(sql.fragment`t.name`, params)}
    and ${params.ids ? sql.fragment`t.id = any(${sql.array([...params.ids], 'int4')})` : sql.fragment`true`}`;
  const sorts = { name: sql.fragment`t.name collate public.slovenian`, internalUse: sql.fragment`t.internal_use`, id: sql.fragment`t.id` };
  const items = await db.any(sql.type(tagItem)`
    select t.id, t.kind, t.name, t.internal_use as "internalUse" from rm.tags t where ${where} order by ${orderBy(sorts, params, 'name')} ${limitOffset(params)}`);
  const total = await db.oneFirst(sql.type(z.object({ n: z.number() }))`select count(*)::int as n from rm.tags t where ${where}`);
  return { items: [...items], total };
};

export const getTag = async (db: ReadDb, id: number) =>
  db.maybeOne(sql.type(tagItem)`select t.id, t.kind, t.name, t.internal_use as "internalUse" from rm.tags t where t.id = ${id} and not t.deleted`);

// ---------------------------------------------------------------- members

export const memberItem = z.object({ id: z.number(), username: z.string(), fullName: z.string(), email: z.string() });

/** The participants of a unit (role 10 there). */
export const listUnitMembers = async (db: ReadDb, unitId: number) =>
  db.any(sql.type(memberItem)`
    select u.id, u.username, concat_ws(' ', u.first_name, u.middle_name, u.last_name) as "fullName", u.email
      from rm.user_roles r join rm.users u on u.id = r.user_id
     where r.role_id = 10 and r.unit_id = ${unitId} and u.status = 'active'
     order by u.last_name collate public.slovenian, u.first_name collate public.slovenian`);

/** Whether a unit is published; null when it does not exist. */
export const unitPublished = async (db: ReadDb, unitId: number) =>
  db.maybeOneFirst(sql.type(z.object({ published: z.boolean() }))`select published from rm.units where id = ${unitId}`);

/** The companies whose certificate signature, or one of whose units' (issue 18), is the image `fileId` (who may see that file follows from them). */
export const companiesSigningWith = async (db: ReadDb, fileId: number) =>
  db.anyFirst(sql.type(z.object({ id: z.number() }))`
    select id from rm.companies where (signature->>'imageFileId')::bigint = ${fileId}
    union select company_id from rm.units where (signature->>'imageFileId')::bigint = ${fileId} order by id`);

/** What still depends on a unit or company: people holding a role there, its units (a company), the groups naming it (a unit). */
export const organisationDependents = async (db: ReadDb, what: 'unit' | 'company', id: number) => {
  const row =
    what === 'unit'
      ? await db.one(sql.type(z.object({ people: z.number(), units: z.number() }))`
          select (select count(*)::int from rm.user_roles where unit_id = ${id}) as people, 0 as units`)
      : await db.one(sql.type(z.object({ people: z.number(), units: z.number() }))`
          select (select count(*)::int from rm.user_roles r left join rm.units u on u.id = r.unit_id
                   where r.company_id = ${id} or u.company_id = ${id}) as people,
                 (select count(*)::int from rm.units where company_id = ${id}) as units`);
  return row;
};

/** Who depends on a profession: users holding it (not deleted) and courses targeting it. */
export const professionDependents = async (db: ReadDb, professionId: number) =>
  db.one(sql.type(z.object({ people: z.number(), courses: z.number() }))`
    select (select count(*)::int from rm.users where profession_id = ${professionId} and status <> 'deleted') as people,
           (select count(*)::int from rm.courses where status <> 'deleted' and ${professionId} = any(audience_professions)) as courses`);

/** What a profession asks of its members (spec §5): a licence number, a chamber membership number; null when there is no such profession. */
export const professionRequirements = async (db: ReadDb, professionId: number) =>
  db.maybeOne(sql.type(z.object({ licence: z.boolean(), chamber: z.boolean() }))`
    select needs_licence_number as licence, needs_chamber_number as chamber from rm.professions where id = ${professionId}`);

// ---------------------------------------------------------------- references (decision 0047)

export type OrganisationReferenceKind = 'company' | 'unit' | 'communityGroup' | 'profession' | 'professionGroup' | 'companyTag' | 'unitTag' | 'courseTag';

/**
 * The named records that exist, each with the companies it lies in: a company itself, a unit its
 * company, a community group the companies of its units; the catalogues shared by every company
 * (professions, their groups, tags) lie in none.
 */
export const organisationReferences = async (db: ReadDb, kind: OrganisationReferenceKind, ids: readonly number[]) => {
  const named = sql.array([...ids], 'int4');
  const row = sql.type(z.object({ id: z.number(), companyIds: z.array(z.number()) }));
  switch (kind) {
    case 'company':
      return db.any(row`select id, array[id] as "companyIds" from rm.companies where id = any(${named})`);
    case 'unit':
      return db.any(row`select id, array[company_id] as "companyIds" from rm.units where id = any(${named})`);
    case 'communityGroup':
      return db.any(row`
        select g.id, coalesce(array_agg(distinct u.company_id) filter (where u.company_id is not null), '{}') as "companyIds"
          from rm.community_groups g
          left join rm.community_group_units gu on gu.group_id = g.id
          left join rm.units u on u.id = gu.unit_id
         where g.id = any(${named})
         group by g.id`);
    case 'profession':
      return db.any(row`select id, '{}'::int[] as "companyIds" from rm.professions where id = any(${named})`);
    case 'professionGroup':
      return db.any(row`select id, '{}'::int[] as "companyIds" from rm.profession_groups where id = any(${named})`);
    case 'companyTag':
    case 'unitTag':
    case 'courseTag':
      return db.any(row`select id, '{}'::int[] as "companyIds" from rm.tags where id = any(${named}) and kind = ${kind.replace('Tag', '')} and not deleted`);
  }
};
