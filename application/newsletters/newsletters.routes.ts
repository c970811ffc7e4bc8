import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { newsletterRule } from '../../domain/newsletters/newsletter.rules.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { idParam } from '../../domain/shared/id.rules.ts';
import type { AllPosition } from '../../infrastructure/event-store/event-store.port.ts';
import { AUTHENTICATED, commandMetadata, errorResponses, type HttpApp, requireAuth, system, withPosition } from '../../infrastructure/http/http.port.ts';
import {
  getNewsletter,
  getReaderNewsletter,
  listNewsletters,
  listReaderNewsletters,
  newsletterItem,
} from '../../projections/newsletters/newsletters.queries.ts';
import { changeNewsletter, createNewsletter, type NewslettersDeps } from './newsletters.ts';

const tags = ['newsletters'];
const idParams = z.object({ id: idParam });
const idResponse = z.object({ id: z.number() });
const notFound = () => new DomainError('404', 'Novičnik ne obstaja.', { status: 404 });
const sent = (reply: FastifyReply, status: number, result: { id: number; position: AllPosition | null }) =>
  withPosition(reply, result.position).status(status).send({ id: result.id });

/**
 * Newsletters (spec §2 /novicnik, /admin/newsletters; §3; §5), only while the newsletters feature of
 * spec §1 is on (otherwise every route answers 404). Authors need 1065 (news and newsletters);
 * readers see the published issues for their profession.
 */
export const registerNewsletterRoutes = (app: HttpApp, deps: NewslettersDeps) => {
  const authors = { access: system(1065), feature: 'newsletters', readModels: ['newsletters', 'organisation'] } as const;
  const readers = { access: AUTHENTICATED, feature: 'newsletters', readModels: ['newsletters', 'users', 'courses', 'organisation'] } as const;

  app.get(
    '/api/newsletters',
    {
      config: authors,
      schema: {
        tags,
        summary: 'Every newsletter issue, newest change first (1065)',
        querystring: z.object({
          search: z.string().max(200).optional(),
          page: z.coerce.number().int().min(1).max(100_000).optional(),
          pageSize: z.coerce.number().int().min(1).max(100).optional(),
        }),
        response: { 200: z.object({ items: z.array(newsletterItem), total: z.number() }), ...errorResponses },
      },
    },
    async (request) => listNewsletters(deps.db, request.query),
  );
  app.get(
    '/api/newsletters/:id',
    { config: authors, schema: { tags, params: idParams, response: { 200: newsletterItem, ...errorResponses } } },
    async (request) => (await getNewsletter(deps.db, request.params.id)) ?? Promise.reject(notFound()),
  );
  app.post(
    '/api/newsletters',
    { config: authors, schema: { tags, summary: 'Write a newsletter issue (1065)', body: newsletterRule, response: { 201: idResponse, ...errorResponses } } },
    async (request, reply) => sent(reply, 201, await createNewsletter(deps, request.body, commandMetadata(request))),
  );
  app.put(
    '/api/newsletters/:id',
    { config: authors, schema: { tags, params: idParams, body: newsletterRule, response: { 200: idResponse, ...errorResponses } } },
    async (request, reply) =>
      sent(reply, 200, await changeNewsletter(deps, request.params.id, { type: 'UpdateNewsletter', fields: request.body }, commandMetadata(request))),
  );
  app.delete(
    '/api/newsletters/:id',
    { config: authors, schema: { tags, params: idParams, response: { 200: idResponse, ...errorResponses } } },
    async (request, reply) => sent(reply, 200, await changeNewsletter(deps, request.params.id, { type: 'DeleteNewsletter' }, commandMetadata(request))),
  );

  app.get(
    '/api/user-newsletters',
    {
      config: readers,
      schema: {
        tags,
        summary: 'Published issues for the caller’s profession, newest first',
        response: { 200: z.object({ items: z.array(newsletterItem) }), ...errorResponses },
      },
    },
    async (request) => ({ items: [...(await listReaderNewsletters(deps.db, requireAuth(request).userId))] }),
  );
  app.get(
    '/api/user-newsletters/:id',
    { config: readers, schema: { tags, params: idParams, response: { 200: newsletterItem, ...errorResponses } } },
    async (request) => (await getReaderNewsletter(deps.db, requireAuth(request).userId, request.params.id)) ?? Promise.reject(notFound()),
  );
};
