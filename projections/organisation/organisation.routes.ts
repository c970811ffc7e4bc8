import { z } from 'zod';
import { tagKindRule } from '../../domain/organisation/organisation.rules.ts';
import { can, communityReach, companiesOf, type Subject } from '../../domain/permissions/can.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { FeatureFlags } from '../../domain/shared/features.ts';
import { idParam } from '../../domain/shared/id.rules.ts';
import { anyOf, errorResponses, type HttpApp, type Located, PUBLIC, queryArray, requireAuth } from '../../infrastructure/http/http.port.ts';
import {
  communityGroupItem,
  companyDetail,
  companyListItem,
  getCompany,
  getTag,
  getUnit,
  listCommunityGroups,
  listCompanies,
  listProfessionGroups,
  listProfessions,
  listTags,
  listUnitMembers,
  listUnits,
  memberItem,
  professionGroupItem,
  professionItem,
  type ReadDb,
  tagItem,
  unitListItem,
  unitScope,
  type Visibility,
} from './organisation.queries.ts';

const READ_MODELS = ['organisation'] as const;
const TAGS_FORBIDDEN = 'Nimate pravic za upravljanje z značkami.';

const listQuery = z.object({
  search: z.string().max(200).optional(),
  sort: z.string().max(40).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  page: z.coerce.number().int().min(1).max(100_000).optional(),
  pageSize: z.coerce.number().int().min(1).max(100).optional(),
});

const idParams = z.object({ id: idParam });
const page = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), total: z.number() });
const notFound = (what: string) => new DomainError('404', `${what} ne obstaja.`, { status: 404 });

/** System read (1009) sees everything; others see what their community roles reach. */
const visibilityFor = (subject: Subject, permission: number): Visibility =>
  can(subject, 1009, { kind: 'system' }) ? { all: true } : { all: false, ...communityReach(subject, permission) };

const inCompany = (located: Located) => ({ companyId: located.params.id as number });

export const registerOrganisationReadRoutes = (app: HttpApp, deps: { db: ReadDb; features: FeatureFlags }) => {
  const { db } = deps;
  const unitScopeOf = async (located: Located) => unitScope(db, located.params.id as number);
  const common = { readModels: READ_MODELS };

  app.get(
    '/api/companies',
    {
      config: { ...common, access: anyOf([{ system: 1009 }, { communityAnywhere: 2000 }]) },
      schema: {
        tags: ['organisation'],
        summary: 'Companies (1009, or 2000 in them)',
        querystring: listQuery,
        response: { 200: page(companyListItem), ...errorResponses },
      },
    },
    async (request) => listCompanies(db, request.query, visibilityFor(requireAuth(request).subject, 2000)),
  );

  app.get(
    '/api/companies/:id',
    {
      config: { ...common, access: anyOf([{ system: 1009 }, { community: 2000, scope: inCompany }]) },
      schema: { tags: ['organisation'], params: idParams, response: { 200: companyDetail, ...errorResponses } },
    },
    async (request) => {
      const company = await getCompany(db, request.params.id);
      if (!company) throw notFound('Podjetje');
      // The external id and chamber sync are not shown while that feature of spec §1 is off.
      return deps.features.externalId ? company : { ...company, externalId: null, syncDestination: null };
    },
  );

  app.get(
    '/api/units',
    {
      config: { ...common, access: anyOf([{ system: 1009 }, { profile: 1046 }]) },
      schema: {
        tags: ['organisation'],
        summary: 'Units (spec §7: companyIds[], limit=NO_LIMIT; items with id, name, company_id, company_name)',
        querystring: listQuery.extend({
          companyIds: queryArray(idParam).optional(),
          limit: z.union([z.literal('NO_LIMIT'), z.coerce.number().int().min(1).max(100)]).optional(),
        }),
        response: { 200: page(unitListItem), ...errorResponses },
      },
    },
    async (request) => {
      const { limit, ...query } = request.query;
      const subject = requireAuth(request).subject;
      const visibility = visibilityFor(subject, 2000);
      const pageSize = limit === 'NO_LIMIT' ? ('all' as const) : (limit ?? query.pageSize);
      // Published units of one's own companies may be looked up (to join them, spec §6 1046-1048; decision 0009);
      // another company's units, published or not, are not listed; unpublished ones need a community role.
      if (visibility.all) return listUnits(db, { ...query, pageSize }, visibility);
      const reach = await listUnits(db, { ...query, pageSize: 'all' }, visibility);
      const own = new Set(companiesOf(subject));
      const published = await listUnits(db, { ...query, pageSize: 'all' }, { all: false, unitIds: [], companyIds: [...own] });
      const merged = [...new Map([...published.items.filter((u) => u.published), ...reach.items].map((u) => [u.id, u])).values()];
      const size = pageSize === 'all' ? merged.length : Math.min(pageSize ?? 20, 100);
      const start = pageSize === 'all' ? 0 : ((query.page ?? 1) - 1) * size;
      return { items: merged.slice(start, start + size), total: merged.length };
    },
  );

  app.get(
    '/api/units/:id',
    {
      config: { ...common, access: anyOf([{ system: 1009 }, { community: 2000, scope: unitScopeOf }]) },
      schema: { tags: ['organisation'], params: idParams, response: { 200: unitListItem, ...errorResponses } },
    },
    async (request) => (await getUnit(db, request.params.id)) ?? Promise.reject(notFound('Enota')),
  );

  app.get(
    '/api/communities',
    {
      config: { ...common, access: anyOf([{ system: 1009 }, { profile: 1046 }]) },
      schema: {
        tags: ['organisation'],
        summary: 'Communities by id (spec §7: filterIds, answers {data}); a lookup is accepted only when exactly one matches',
        querystring: z.object({ filterIds: queryArray(idParam).optional(), search: z.string().max(200).optional() }),
        response: { 200: z.object({ data: z.array(unitListItem) }), ...errorResponses },
      },
    },
    async (request) => {
      const subject = requireAuth(request).subject;
      const all = can(subject, 1009, { kind: 'system' });
      const found = await listUnits(
        db,
        { ids: request.query.filterIds, search: request.query.search, pageSize: request.query.filterIds ? 'all' : 50 },
        { all: true },
      );
      const reach = communityReach(subject, 2000);
      const own = new Set(companiesOf(subject));
      const visible = found.items.filter(
        (u) => all || (u.published && own.has(u.company_id)) || reach.unitIds.includes(u.id) || reach.companyIds.includes(u.company_id),
      );
      return { data: visible };
    },
  );

  app.get(
    '/api/manager/units',
    {
      config: {
        ...common,
        // spec §8 "user manages no units or companies": the words of the refusal for everyone else.
        access: anyOf([{ communityAnywhere: 2011 }, { communityAnywhere: 2012 }, { communityAnywhere: 2010 }], 'Ne upravljate nobene enote ali podjetja.'),
      },
      schema: {
        tags: ['organisation'],
        summary: 'The units the caller runs as manager (2011), director (2012; unit_id 0: every unit of the company) or client (2010)',
        response: { 200: z.object({ items: z.array(unitListItem), total: z.number() }), ...errorResponses },
      },
    },
    async (request) => {
      const subject = requireAuth(request).subject;
      const reaches = [2011, 2012, 2010].map((id) => communityReach(subject, id));
      const visibility = {
        all: false as const,
        unitIds: [...new Set(reaches.flatMap((r) => r.unitIds))],
        companyIds: [...new Set(reaches.flatMap((r) => r.companyIds))],
      };
      return listUnits(db, { pageSize: 'all', sort: 'name' }, visibility);
    },
  );

  app.get(
    '/api/units/:id/members',
    {
      config: { access: anyOf([{ system: 1004 }, { community: 1051, scope: unitScopeOf }]), readModels: ['organisation', 'users'] },
      schema: { tags: ['organisation'], params: idParams, response: { 200: z.object({ items: z.array(memberItem) }), ...errorResponses } },
    },
    async (request) => ({ items: [...(await listUnitMembers(db, request.params.id))] }),
  );

  app.get(
    '/api/community-groups',
    {
      config: { ...common, access: anyOf([{ system: 1009 }, { system: 1063 }]) },
      schema: { tags: ['organisation'], querystring: listQuery, response: { 200: page(communityGroupItem), ...errorResponses } },
    },
    async (request) => listCommunityGroups(db, request.query),
  );

  app.get(
    '/api/community-groups/:id',
    {
      config: { ...common, access: anyOf([{ system: 1009 }, { system: 1063 }]) },
      schema: { tags: ['organisation'], params: idParams, response: { 200: communityGroupItem, ...errorResponses } },
    },
    async (request) => (await listCommunityGroups(db, { ids: [request.params.id] })).items[0] ?? Promise.reject(notFound('Skupina')),
  );

  // Professions are public: registration offers them before anyone has signed in.
  app.get(
    '/api/professions',
    {
      config: { ...common, access: PUBLIC },
      schema: { tags: ['organisation'], querystring: listQuery, response: { 200: page(professionItem), ...errorResponses } },
    },
    async (request) => listProfessions(db, request.query),
  );

  app.get(
    '/api/professions/:id',
    { config: { ...common, access: PUBLIC }, schema: { tags: ['organisation'], params: idParams, response: { 200: professionItem, ...errorResponses } } },
    async (request) => (await listProfessions(db, { ids: [request.params.id] })).items[0] ?? Promise.reject(notFound('Poklic')),
  );

  app.get(
    '/api/profession-groups',
    {
      config: { ...common, access: PUBLIC },
      schema: { tags: ['organisation'], querystring: listQuery, response: { 200: page(professionGroupItem), ...errorResponses } },
    },
    async (request) => listProfessionGroups(db, request.query),
  );

  app.get(
    '/api/profession-groups/:id',
    { config: { ...common, access: PUBLIC }, schema: { tags: ['organisation'], params: idParams, response: { 200: professionGroupItem, ...errorResponses } } },
    async (request) => (await listProfessionGroups(db, { ids: [request.params.id] })).items[0] ?? Promise.reject(notFound('Skupina poklicev')),
  );

  app.get(
    '/api/tags',
    {
      config: { ...common, access: anyOf([{ system: 1062 }, { system: 1009 }, { system: 1017 }], TAGS_FORBIDDEN) },
      schema: { tags: ['organisation'], querystring: listQuery.extend({ kind: tagKindRule }), response: { 200: page(tagItem), ...errorResponses } },
    },
    async (request) => {
      const { kind, ...query } = request.query;
      return listTags(db, kind, query);
    },
  );

  app.get(
    '/api/tags/:id',
    {
      config: { ...common, access: anyOf([{ system: 1062 }, { system: 1009 }, { system: 1017 }], TAGS_FORBIDDEN) },
      schema: { tags: ['organisation'], params: idParams, response: { 200: tagItem, ...errorResponses } },
    },
    async (request) => (await getTag(db, request.params.id)) ?? Promise.reject(notFound('Značka')),
  );
};
