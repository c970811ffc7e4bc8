import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { idParam } from '../../domain/shared/id.rules.ts';
import { AUTHENTICATED, commandMetadata, errorResponses, type HttpApp, requireAuth, system, withPosition } from '../../infrastructure/http/http.port.ts';
import { type ErasureDeps, erasePersonalData } from './erase-personal-data.ts';
import { collectPersonalData, type PersonalDataDeps, personalDataPdf } from './personal-data.ts';

const tags = ['users'];
const readModels = ['users', 'consents', 'courses', 'mail'] as const;

/**
 * A person's data export (issue 14 item 7): one's own (any signed-in user, also one lacking the
 * required consents: access to one's data is a right, not a service), or anyone's for an admin
 * handling a request (1004). JSON for machines, PDF for people.
 */
export const registerPersonalDataRoutes = (app: HttpApp, deps: PersonalDataDeps & ErasureDeps) => {
  const send = async (reply: FastifyReply, userId: number, format: 'json' | 'pdf', caller: number) => {
    const data = await collectPersonalData(deps, userId);
    reply.header('cache-control', 'no-store').header('content-disposition', `attachment; filename="osebni-podatki-${userId}.${format}"`);
    if (format === 'json') return reply.header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(data, null, 2));
    return reply.header('content-type', 'application/pdf').send(await personalDataPdf(deps, data, `user-${caller}`));
  };
  for (const format of ['json', 'pdf'] as const) {
    const suffix = format === 'json' ? '' : '.pdf';
    app.get(
      `/api/users/me/personal-data${suffix}`,
      {
        config: { access: AUTHENTICATED, readModels, withoutConsents: true, expensive: 'render' },
        schema: { tags, summary: `Everything the platform holds about oneself, as ${format.toUpperCase()}`, security: [{ jwt: [] }], response: errorResponses },
      },
      async (request, reply) => send(reply, requireAuth(request).userId, format, requireAuth(request).userId),
    );
    app.get(
      `/api/users/:id/personal-data${suffix}`,
      {
        config: { access: system(1004), readModels, expensive: 'render' },
        schema: {
          tags,
          summary: `Everything the platform holds about a user, as ${format.toUpperCase()} (1004; a request for one's data)`,
          security: [{ jwt: [] }],
          params: z.object({ id: idParam }),
          response: errorResponses,
        },
      },
      async (request, reply) => send(reply, request.params.id, format, requireAuth(request).userId),
    );
  }

  // Erasure (decision 0019): irreversible, so it answers what was done and the UI asks twice before.
  app.delete(
    '/api/users/:id/personal-data',
    {
      config: { access: system(1007) },
      schema: {
        tags,
        summary: 'Erase a person for good (1007): the account is deleted, its username and e-mail freed, its personal data unreadable in the log',
        security: [{ jwt: [] }],
        params: z.object({ id: idParam }),
        response: { 200: z.object({ id: z.number(), mailForgotten: z.number() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await erasePersonalData(deps, requireAuth(request).userId, request.params.id, commandMetadata(request));
      return withPosition(reply, result.position).send({ id: result.id, mailForgotten: result.mailForgotten });
    },
  );
};
