import type pg from 'pg';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { AUTHENTICATED, errorResponses, type HttpApp, requireAuth } from '../../infrastructure/http/http.port.ts';
import { currentUserSchema, findCurrentUser } from './users.queries.ts';

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
      const user = await findCurrentUser(deps.db, auth.userId);
      if (!user) throw new DomainError('404', 'Uporabnik ne obstaja.', { status: 404 });
      return user;
    },
  );
};
