import { sql } from 'slonik';
import { z } from 'zod';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { idParam } from '../../domain/shared/id.rules.ts';
import { AUTHENTICATED, anyOf, errorResponses, type HttpApp, requireAuth, system } from '../../infrastructure/http/http.port.ts';
import { type ChamberCreditsDb, chamberCreditItem, chamberCreditsOfCourse, chamberCreditsOfUser } from './chamber-credits.queries.ts';

const tags = ['chambers'];
const readModels = ['chamber_credits', 'users', 'courses'] as const;
const idParams = z.object({ id: idParam });
const listResponse = z.object({ items: z.array(chamberCreditItem) });

/**
 * Credit points owed to the chambers (issue 17 item 6, decision 0030), per course for those who read
 * its participants (1017) or its reports (1064), per person for those who read users (1004), and
 * one's own for everybody signed in.
 */
export const registerChamberCreditRoutes = (app: HttpApp, deps: { db: ChamberCreditsDb }) => {
  app.get(
    '/api/courses/:id/chamber-credits',
    {
      config: { access: anyOf([{ system: 1017 }, { system: 1064 }]), readModels },
      schema: {
        tags,
        summary: 'The credit points of a course reported to its chamber: earned and reported times, attempts, the last refusal (1017, 1064)',
        params: idParams,
        response: { 200: listResponse, ...errorResponses },
      },
    },
    async (request) => {
      const exists = await deps.db.exists(sql.unsafe`select 1 from rm.courses where id = ${request.params.id} and status <> 'deleted'`);
      if (!exists) throw new DomainError('404', 'Izobraževanje ne obstaja.', { status: 404 });
      return { items: [...(await chamberCreditsOfCourse(deps.db, request.params.id))] };
    },
  );

  app.get(
    '/api/users/:id/chamber-credits',
    {
      config: { access: system(1004), readModels },
      schema: {
        tags,
        summary: "A person's credit points reported to the chambers (1004)",
        params: idParams,
        response: { 200: listResponse, ...errorResponses },
      },
    },
    async (request) => {
      const exists = await deps.db.exists(sql.unsafe`select 1 from rm.users where id = ${request.params.id}`);
      if (!exists) throw new DomainError('404', 'Uporabnik ne obstaja.', { status: 404 });
      return { items: [...(await chamberCreditsOfUser(deps.db, request.params.id))] };
    },
  );

  app.get(
    '/api/users/me/chamber-credits',
    {
      config: { access: AUTHENTICATED, readModels },
      schema: {
        tags,
        summary: "One's own credit points and whether each has reached the chamber",
        security: [{ jwt: [] }],
        response: { 200: listResponse, ...errorResponses },
      },
    },
    async (request) => ({ items: [...(await chamberCreditsOfUser(deps.db, requireAuth(request).userId))] }),
  );
};
