import { z } from 'zod';
import { ROLE_SCOPE, type RoleId } from '../../domain/permissions/roles.ts';
import { deletionRequestRule, passwordChangeRule, profileRule, REQUIRED } from '../../domain/users/user.rules.ts';
import { anyOf, commandMetadata, errorResponses, type HttpApp, requireAuth, withPosition } from '../../infrastructure/http/http.port.ts';
import { type AttemptLimits, guardAttempts } from '../shared/attempt-limits.ts';
import { changeOwnPassword, deleteOwnAccount, type ProfileDeps, requestDeletion, updateProfile } from './profile.ts';
import { USER_FIELD_CODES } from './user-field-codes.ts';

const tags = ['users'];
const bodyLimit = 16 * 1024;
const idResponse = z.object({ id: z.number() });

/** spec §8: "Delete-request sent, processed within 5 working days." */
export const DELETION_REQUESTED = 'Zahteva za izbris podatkov je poslana. Obdelali jo bomo v 5 delovnih dneh.';

/**
 * The signed-in user's own account (profile permissions of spec §6, on one's own account only):
 * profile (1001), password (1003), and a request to delete one's data or, with the delete-account
 * feature on, deleting the account at once (1002).
 */
export const registerProfileRoutes = (app: HttpApp, deps: ProfileDeps & { attempts: AttemptLimits }) => {
  app.put(
    '/api/users/me',
    {
      config: { access: anyOf([{ profile: 1001 }]), readModels: ['organisation'], fieldCodes: USER_FIELD_CODES },
      bodyLimit,
      schema: { tags, summary: "Update one's own profile (1001)", body: profileRule, response: { 200: idResponse, ...errorResponses } },
    },
    async (request, reply) => {
      const result = await updateProfile(deps, requireAuth(request).userId, request.body, commandMetadata(request));
      return withPosition(reply, result.position).send({ id: result.id });
    },
  );

  app.put(
    '/api/users/me/password',
    {
      config: { access: anyOf([{ profile: 1003 }]), fieldCodes: USER_FIELD_CODES },
      bodyLimit,
      schema: {
        tags,
        summary: "Change one's own password (1003); other sessions of the account end",
        body: passwordChangeRule,
        response: { 200: idResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      // The current password can be guessed from a session left open: the same budget as logins.
      await guardAttempts(deps.attempts, reply, 'password-change', { account: String(auth.userId), address: request.ip });
      const result = await changeOwnPassword(deps, auth, request.body, commandMetadata(request));
      return withPosition(reply, result.position).send({ id: result.id });
    },
  );

  app.post(
    '/api/users/me/deletion-request',
    {
      // Also open to a user who has not given (or has withdrawn) the required consents. With the
      // delete-account feature off (spec §1 default) this request is how one's data gets deleted:
      // recorded as an event, handled by an admin (issue 13); with it on, DELETE /api/users/me does it at once.
      config: { access: anyOf([{ profile: 1002 }]), withoutConsents: true },
      bodyLimit,
      schema: {
        tags,
        summary: 'Ask for one’s data to be deleted (1002; spec §8, processed within 5 working days)',
        body: deletionRequestRule,
        response: { 202: z.object({ message: z.string() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await requestDeletion(deps, requireAuth(request).userId, request.body.reason, commandMetadata(request));
      return withPosition(reply, result.position).status(202).send({ message: DELETION_REQUESTED });
    },
  );

  app.delete(
    '/api/users/me',
    {
      // Only while the delete-account feature of spec §1 is on (404 otherwise, as if the route did not exist).
      config: { access: anyOf([{ profile: 1002 }]), withoutConsents: true, feature: 'deleteAccount' },
      bodyLimit,
      schema: {
        tags,
        summary: 'Delete one’s own account at once, confirmed with the password (1002; only with the delete-account feature on)',
        body: z.object({ password: z.string({ error: REQUIRED }).min(1, { error: REQUIRED }).max(200) }).strict(),
        response: { 200: idResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      // A password guessed from a session left open: the same budget as logins.
      await guardAttempts(deps.attempts, reply, 'password-change', { account: String(auth.userId), address: request.ip });
      const hasSystemRole = auth.subject.roles.some((role) => ROLE_SCOPE[role.roleId as RoleId] === 'admin');
      const result = await deleteOwnAccount(deps, { userId: auth.userId, hasSystemRole }, request.body.password, commandMetadata(request));
      return withPosition(reply, result.position).send({ id: result.id });
    },
  );
};
