import { z } from 'zod';
import { can, canSomewhere } from '../../domain/permissions/can.ts';
import { idParam } from '../../domain/shared/id.rules.ts';
import { anyOf, errorResponses, type HttpApp, requireAuth } from '../../infrastructure/http/http.port.ts';
import { COMMUNITY_KINDS, npsByCommunity, npsOverview, type StatsDb } from './stats.queries.ts';
import { courseParams, routeConfig, scopeOf, summary, tags, toWindow, windowOf, windowQuery, windowResponse } from './stats-request.ts';

/** A block's NPS: its overview (1056/1059, comments with 1058/1061) and its breakdown per community (1057/1060). */
export const registerNpsRoutes = (app: HttpApp, deps: { db: StatsDb }) => {
  const { db } = deps;

  app.get(
    '/api/courses/:id/nps/:blockId/overview',
    {
      config: routeConfig(anyOf([{ system: 1056 }, { communityAnywhere: 1059 }])),
      schema: {
        tags,
        summary: 'NPS of a block: summary, distribution, follow-up reasons, last 20 comments (with 1058/1061)',
        params: courseParams.extend({ blockId: idParam }),
        querystring: windowQuery,
        response: {
          200: z.object({
            course: z.object({ id: z.number(), title: z.string() }),
            window: windowResponse,
            nps: summary.extend({
              distribution: z.array(z.object({ score: z.number(), count: z.number() })),
              reasons: z.array(z.object({ reason: z.string(), category: z.string(), count: z.number() })),
              comments: z.array(z.object({ score: z.number(), comment: z.string(), at: z.string() })),
            }),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const scope = scopeOf(request, 1056, 1059);
      const { subject } = requireAuth(request);
      const comments = can(subject, 1058, { kind: 'system' }) || canSomewhere(subject, 1061);
      const { course, window } = await windowOf(db, request.params.id, request.query, scope);
      return {
        course: { id: course.id, title: course.title },
        window: toWindow(window),
        nps: await npsOverview(db, course.id, request.params.blockId, window, scope, comments),
      };
    },
  );

  app.get(
    '/api/courses/:id/nps/:blockId/communities',
    {
      config: routeConfig(anyOf([{ system: 1057 }, { communityAnywhere: 1060 }])),
      schema: {
        tags,
        summary: 'NPS of a block per unit, company, community group or profession',
        params: courseParams.extend({ blockId: idParam }),
        querystring: windowQuery.extend({ kind: z.enum(COMMUNITY_KINDS).default('unit') }),
        response: {
          200: z.object({
            course: z.object({ id: z.number(), title: z.string() }),
            window: windowResponse,
            rows: z.array(summary.extend({ id: z.number(), name: z.string() })),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const scope = scopeOf(request, 1057, 1060);
      const { course, window } = await windowOf(db, request.params.id, request.query, scope);
      return {
        course: { id: course.id, title: course.title },
        window: toWindow(window),
        rows: await npsByCommunity(db, course.id, request.params.blockId, window, scope, request.query.kind),
      };
    },
  );
};
