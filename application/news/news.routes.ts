import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { NEWS_LOCATIONS, newsActionRule, newsRule } from '../../domain/news/news.rules.ts';
import { newsNotFound } from '../../domain/news/news.ts';
import { idParam } from '../../domain/shared/id.rules.ts';
import type { AllPosition } from '../../infrastructure/event-store/event-store.port.ts';
import {
  AUTHENTICATED,
  commandMetadata,
  errorResponses,
  type HttpApp,
  queryArray,
  requireAuth,
  system,
  withPosition,
} from '../../infrastructure/http/http.port.ts';
import { adminNewsItem, getNews, listNews, newsForReader, readerNewsItem } from '../../projections/news/news.queries.ts';
import { changeNews, createNews, type NewsDeps, recordNewsAction } from './news.ts';

const tags = ['news'];
const idParams = z.object({ id: idParam });
const idResponse = z.object({ id: z.number() });
const sent = (reply: FastifyReply, status: number, result: { id: number; position: AllPosition | null }) =>
  withPosition(reply, result.position).status(status).send({ id: result.id });

/** `location[]=1&location[]=2`, `location=1&location=2` or `location=1` (spec §7, DESIGN §6); none asked: the list and home (1). */
const locationQuery = z.object({
  location: queryArray(z.enum(NEWS_LOCATIONS.map(String) as ['1', '2'], { error: 'Neveljavno mesto prikaza.' }).transform(Number))
    .pipe(z.array(z.number()).max(10))
    .optional(),
});

/**
 * News (spec §2 /admin/news, §3, §4, §5, §7). Authors hold 1065 ("the news menu and news creation
 * need 1065", spec §6); every signed-in reader asks for the one item to show now and reports what
 * they did with it.
 */
export const registerNewsRoutes = (app: HttpApp, deps: NewsDeps) => {
  const authors = { access: system(1065), readModels: ['news', 'organisation'] } as const;
  const readers = { access: AUTHENTICATED, readModels: ['news', 'users', 'organisation', 'courses'] } as const;

  app.get(
    '/api/news',
    {
      config: authors,
      schema: {
        tags,
        summary: 'Every news item with its reach and engagement, latest start first (1065)',
        querystring: z.object({
          search: z.string().max(200).optional(),
          page: z.coerce.number().int().min(1).max(100_000).optional(),
          pageSize: z.coerce.number().int().min(1).max(100).optional(),
        }),
        response: { 200: z.object({ items: z.array(adminNewsItem), total: z.number() }), ...errorResponses },
      },
    },
    async (request) => listNews(deps.db, request.query),
  );
  app.get(
    '/api/news/user',
    {
      config: readers,
      schema: {
        tags,
        summary: 'spec §7: the one news item the caller should see now at one of the locations (1 list and home, 2 after a course ends); 204 when none',
        querystring: locationQuery,
        response: { 200: readerNewsItem, 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const locations = request.query.location?.length ? request.query.location : [1];
      const news = await newsForReader(deps.db, requireAuth(request).userId, locations, deps.now());
      return news ? readerNewsItem.parse(news) : reply.status(204).send(null);
    },
  );
  app.get(
    '/api/news/:id',
    { config: authors, schema: { tags, params: idParams, response: { 200: adminNewsItem, ...errorResponses } } },
    async (request) => (await getNews(deps.db, request.params.id)) ?? Promise.reject(newsNotFound()),
  );
  app.post(
    '/api/news',
    { config: authors, schema: { tags, summary: 'Write a news item (1065)', body: newsRule, response: { 201: idResponse, ...errorResponses } } },
    async (request, reply) => sent(reply, 201, await createNews(deps, request.body, commandMetadata(request))),
  );
  app.put(
    '/api/news/:id',
    { config: authors, schema: { tags, params: idParams, body: newsRule, response: { 200: idResponse, ...errorResponses } } },
    async (request, reply) =>
      sent(reply, 200, await changeNews(deps, request.params.id, { type: 'UpdateNews', fields: request.body }, commandMetadata(request))),
  );
  app.delete(
    '/api/news/:id',
    { config: authors, schema: { tags, params: idParams, response: { 200: idResponse, ...errorResponses } } },
    async (request, reply) => sent(reply, 200, await changeNews(deps, request.params.id, { type: 'DeleteNews' }, commandMetadata(request))),
  );
  app.put(
    '/api/news/:id/user/stats',
    {
      config: readers,
      schema: {
        tags,
        summary: 'spec §7: record what the caller did with a news item meant for them (1 shown, 2 declined, 3 engaged, 4 deferred)',
        params: idParams,
        body: newsActionRule,
        response: { 200: z.object({ id: z.number(), action: z.number() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await recordNewsAction(deps, requireAuth(request).userId, request.params.id, request.body.action, commandMetadata(request));
      return withPosition(reply, result.position).send({ id: result.id, action: result.action });
    },
  );
};
