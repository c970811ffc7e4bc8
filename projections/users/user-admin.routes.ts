import type { DatabasePool } from 'slonik';
import { z } from 'zod';
import { communityReach, type Subject } from '../../domain/permissions/can.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { idParam } from '../../domain/shared/id.rules.ts';
import { anyOf, errorResponses, type HttpApp, type Located, requireAuth, system } from '../../infrastructure/http/http.port.ts';
import {
  changeRequestItem,
  getUserDetail,
  listChangeRequests,
  listUsers,
  USER_SORTS,
  USER_STATUSES,
  type UserReach,
  userDetail,
  userListItem,
  userPlaces,
} from './user-admin.queries.ts';

const tags = ['users'];
const readModels = ['users', 'organisation', 'courses'] as const;
const idParams = z.object({ id: idParam });
const optionalId = idParam.optional();

const listQuery = z.object({
  search: z.string().max(200).optional(),
  roleId: optionalId,
  companyId: optionalId,
  unitId: optionalId,
  groupId: optionalId,
  professionId: optionalId,
  status: z.enum(USER_STATUSES).optional(),
  sort: z.enum(USER_SORTS).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  page: z.coerce.number().int().min(1).max(100_000).optional(),
  pageSize: z.coerce.number().int().min(1).max(100).optional(),
});
const listResponse = z.object({ items: z.array(userListItem), total: z.number() });

/** A manager's or director's reach (2011, 2012): the units they manage, and whole companies for unit_id 0. */
export const managerReach = (subject: Subject): UserReach => {
  const reaches = [communityReach(subject, 2011), communityReach(subject, 2012)];
  return { all: false, unitIds: reaches.flatMap((r) => r.unitIds), companyIds: reaches.flatMap((r) => r.companyIds) };
};

const MANAGER_ACCESS = anyOf([{ communityAnywhere: 2011 }, { communityAnywhere: 2012 }]);

/** The users of a list route as the admin (1004) and the manager (their units) see them. */
export const registerUserAdminReadRoutes = (app: HttpApp, deps: { db: DatabasePool }) => {
  const places = (located: Located) => userPlaces(deps.db, located.params.id as number);

  app.get(
    '/api/users',
    {
      config: { access: system(1004), readModels },
      schema: {
        tags,
        summary: 'Users, paginated, searchable by name, username, e-mail and numbers; filters by role, company, unit, group, profession, status (1004)',
        querystring: listQuery,
        response: { 200: listResponse, ...errorResponses },
      },
    },
    async (request) => listUsers(deps.db, request.query, { all: true }),
  );

  app.get(
    '/api/users/change-requests',
    {
      config: { access: system(1004), readModels },
      schema: {
        tags,
        summary: "Managers' change requests, open first (1004)",
        querystring: z.object({ status: z.enum(['open', 'accepted', 'rejected']).optional() }),
        response: { 200: z.object({ items: z.array(changeRequestItem) }), ...errorResponses },
      },
    },
    async (request) => ({ items: [...(await listChangeRequests(deps.db, { status: request.query.status }))] }),
  );

  app.get(
    '/api/users/:id',
    {
      config: { access: system(1004), readModels },
      schema: {
        tags,
        summary: "A user's page: fields, roles, abilities, social identities, courses, change requests (1004)",
        params: idParams,
        response: { 200: userDetail, ...errorResponses },
      },
    },
    async (request) => {
      const user = await getUserDetail(deps.db, request.params.id, { all: true });
      if (!user) throw new DomainError('404', 'Uporabnik ne obstaja.', { status: 404 });
      return user;
    },
  );

  app.get(
    '/api/manager/users',
    {
      config: { access: MANAGER_ACCESS, readModels },
      schema: {
        tags,
        summary: 'The users of the units a manager or director manages (2011, 2012; unit 0 = the whole company), read-only',
        querystring: listQuery,
        response: { 200: listResponse, ...errorResponses },
      },
    },
    async (request) => listUsers(deps.db, request.query, managerReach(requireAuth(request).subject)),
  );

  app.get(
    '/api/manager/users/:id',
    {
      config: {
        access: anyOf([
          { community: 2011, scope: places },
          { community: 2012, scope: places },
        ]),
        readModels,
      },
      schema: {
        tags,
        summary: 'One user of a manager’s units (2011, 2012); outside them 404',
        params: idParams,
        response: { 200: userDetail, ...errorResponses },
      },
    },
    async (request) => {
      const user = await getUserDetail(deps.db, request.params.id, managerReach(requireAuth(request).subject));
      if (!user) throw new DomainError('404', 'Vir ne obstaja.', { status: 404 });
      return user;
    },
  );

  app.get(
    '/api/manager/change-requests',
    {
      config: { access: MANAGER_ACCESS, readModels },
      schema: {
        tags,
        summary: 'The change requests a manager filed, with their outcome',
        response: { 200: z.object({ items: z.array(changeRequestItem) }), ...errorResponses },
      },
    },
    async (request) => ({ items: [...(await listChangeRequests(deps.db, { requestedBy: requireAuth(request).userId }))] }),
  );
};
