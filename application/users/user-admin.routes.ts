import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { idParam, refId } from '../../domain/shared/id.rules.ts';
import { adminUserRule, bulkLifecycleRule, changeRequestRule, createUserRule, resolveChangeRequestRule } from '../../domain/users/user-admin.rules.ts';
import type { AllPosition } from '../../infrastructure/event-store/event-store.port.ts';
import { anyOf, commandMetadata, errorResponses, type HttpApp, type Located, requireAuth, system, withPosition } from '../../infrastructure/http/http.port.ts';
import type { Spreadsheet } from '../../infrastructure/reports/spreadsheet.port.ts';
import { findChangeRequest, userPlaces } from '../../projections/users/user-admin.queries.ts';
import type { AuthDeps } from './auth.deps.ts';
import { exportLoginTokens, LOGIN_TOKEN_EXPORT_MAX } from './login-token-export.ts';
import {
  changeLifecycle,
  changeLifecycleInBulk,
  createUserByAdmin,
  type LifecycleAction,
  requestUserChange,
  resolveUserChange,
  sendWelcome,
  updateUserByAdmin,
} from './user-admin.ts';
import { USER_FIELD_CODES } from './user-field-codes.ts';

const tags = ['users'];
const bodyLimit = 64 * 1024;
const idParams = z.object({ id: idParam });
const idResponse = z.object({ id: z.number() });
/** Commands that check companies, units and professions in the read models wait for the writer's last write. */
const readModels = ['organisation', 'users'] as const;

const send = (reply: FastifyReply, status: number, body: object, position: AllPosition | null) => withPosition(reply, position).status(status).send(body);

/** Users administration (issue 14): 1005 create, 1006 update, 1007 delete; managers' change requests (2011, 2012 in the user's unit). */
export const registerUserAdminRoutes = (app: HttpApp, deps: AuthDeps & { spreadsheet: Spreadsheet; publicUrl: string }) => {
  // A manager of company A asking about a user of company B is told 404 (the id does not leak).
  const places = (located: Located) => userPlaces(deps.db, located.params.id as number);

  app.post(
    '/api/users',
    {
      config: { access: system(1005), readModels, fieldCodes: USER_FIELD_CODES },
      bodyLimit,
      schema: {
        tags,
        summary: 'Create a user (1005), optionally mailing the welcome link',
        body: createUserRule,
        response: { 201: idResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await createUserByAdmin(deps, request.body, commandMetadata(request));
      return send(reply, 201, { id: result.id }, result.position);
    },
  );

  app.put(
    '/api/users/:id',
    {
      config: { access: system(1006), readModels, fieldCodes: USER_FIELD_CODES },
      bodyLimit,
      schema: {
        tags,
        summary: "Save a user's fields and roles (1006)",
        params: idParams,
        body: adminUserRule,
        response: { 200: idResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await updateUserByAdmin(deps, request.params.id, request.body, commandMetadata(request));
      return send(reply, 200, { id: result.id }, result.position);
    },
  );

  const lifecycle = (method: 'post' | 'delete', url: string, action: LifecycleAction, permission: number, summary: string) =>
    app[method](
      url,
      { config: { access: system(permission) }, schema: { tags, summary, params: idParams, response: { 200: idResponse, ...errorResponses } } },
      async (request, reply) => {
        const result = await changeLifecycle(deps, requireAuth(request).userId, request.params.id, action, commandMetadata(request));
        return send(reply, 200, { id: result.id }, result.position);
      },
    );
  lifecycle('post', '/api/users/:id/activate', 'activate', 1006, 'Activate an inactive user (1006)');
  lifecycle('post', '/api/users/:id/deactivate', 'deactivate', 1006, 'Deactivate a user: open sessions end, login is refused (1006)');
  lifecycle('delete', '/api/users/:id', 'delete', 1007, 'Delete a user: hidden from lists, login refused (1007)');
  lifecycle('post', '/api/users/:id/reactivate', 'reactivate', 1007, 'Bring a deleted user back (1007)');

  app.post(
    '/api/users/bulk-status',
    {
      config: { access: system(1006) },
      bodyLimit,
      schema: {
        tags,
        summary: 'Activate or deactivate many users (1006); each on its own, refusals listed',
        body: bulkLifecycleRule,
        response: { 200: z.object({ changed: z.number(), failed: z.array(z.object({ id: z.number(), message: z.string() })) }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await changeLifecycleInBulk(deps, requireAuth(request).userId, request.body.userIds, request.body.active, commandMetadata(request));
      return send(reply, 200, { changed: result.changed, failed: result.failed }, result.position);
    },
  );

  app.post(
    '/api/users/:id/welcome',
    {
      config: { access: system(1005) },
      schema: {
        tags,
        summary: 'Mail the welcome message with a first-password link (1005)',
        params: idParams,
        response: { 200: idResponse, ...errorResponses },
      },
    },
    async (request, reply) => send(reply, 200, { id: request.params.id }, await sendWelcome(deps, request.params.id, commandMetadata(request))),
  );

  app.post(
    '/api/users/:id/change-requests',
    {
      config: {
        access: anyOf([
          { community: 2011, scope: places },
          { community: 2012, scope: places },
        ]),
        readModels,
      },
      bodyLimit,
      schema: {
        tags,
        summary: "A manager's or director's request to change a user of their units: unit, deletion or other (spec §4)",
        params: idParams,
        body: changeRequestRule,
        response: { 201: z.object({ id: z.string() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await requestUserChange(deps, requireAuth(request).subject, request.params.id, request.body, commandMetadata(request));
      return send(reply, 201, { id: result.id }, result.position);
    },
  );

  app.post(
    '/api/users/change-requests/:requestId/resolve',
    {
      config: { access: system(1006), readModels: ['users', 'organisation'] },
      bodyLimit,
      schema: {
        tags,
        summary: "Accept or reject a manager's change request (1006); a rejection says why",
        params: z.object({ requestId: z.uuid() }),
        body: resolveChangeRequestRule,
        response: { 200: z.object({ id: z.string() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const found = await findChangeRequest(deps.db, request.params.requestId);
      if (!found) throw new DomainError('404', 'Zahteva ne obstaja.', { status: 404 });
      const result = await resolveUserChange(
        deps,
        requireAuth(request).userId,
        { requestId: request.params.requestId, userId: found.userId, kind: found.kind, unitId: found.unitId },
        request.body,
        commandMetadata(request),
      );
      return send(reply, 200, { id: result.id }, result.position);
    },
  );

  app.post(
    '/api/users/login-tokens/export',
    {
      config: { access: system(1066) },
      bodyLimit,
      schema: {
        tags,
        summary: 'One-time login links for chosen users as an xlsx file (1066); each issuing and each use is an event',
        body: z
          .object({
            userIds: z
              .array(refId('user'))
              .min(1, { error: 'Izberite vsaj enega uporabnika.' })
              .max(LOGIN_TOKEN_EXPORT_MAX, { error: `Naenkrat je mogoče izvoziti največ ${LOGIN_TOKEN_EXPORT_MAX} povezav.` }),
          })
          .strict(),
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const result = await exportLoginTokens(deps, request.body.userIds, commandMetadata(request));
      return withPosition(reply, result.position)
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', 'attachment; filename="povezave-za-prijavo.xlsx"')
        .header('cache-control', 'no-store')
        .header('x-issued', String(result.issued))
        .send(result.file);
    },
  );
};
