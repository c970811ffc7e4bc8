import type pg from 'pg';
import { z } from 'zod';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { AUTHENTICATED, errorResponses, type HttpApp, requireAuth, system } from '../../infrastructure/http/http.port.ts';
import { currentUserSchema, deletionRequestItem, findCurrentUser, listDeletionRequests } from './users.queries.ts';

export const registerUsersReadRoutes = (app: HttpApp, deps: { db: pg.Pool }) => {
  app.get(
    '/api/users/me',
    {
      config: { access: AUTHENTICATED, readModels: ['users', 'organisation', 'consents'], withoutConsents: true },
      schema: {
        tags: ['users'],
        summary: 'The signed-in user with roles and system abilities',
        security: [{ jwt: [] }],
        response: { 200: currentUserSchema, ...errorResponses },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const user = await findCurrentUser(deps.db, auth.userId, auth.realUserId);
      if (!user) throw new DomainError('404', 'Uporabnik ne obstaja.', { status: 404 });
      return user;
    },
  );

  app.get(
    '/api/users/deletion-requests',
    {
      config: { access: system(1004), readModels: ['users'] },
      schema: {
        tags: ['users'],
        summary: 'Open requests of users to delete their data (1004; spec §8, processed within 5 working days)',
        security: [{ jwt: [] }],
        response: { 200: z.object({ items: z.array(deletionRequestItem) }), ...errorResponses },
      },
    },
    async () => ({ items: await listDeletionRequests(deps.db) }),
  );
};
