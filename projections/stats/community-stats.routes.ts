import { z } from 'zod';
import { anyOf, errorResponses, type HttpApp } from '../../infrastructure/http/http.port.ts';
import { communityStats } from './community-stats.queries.ts';
import type { StatsDb } from './stats.queries.ts';
import { routeConfig, scopeOf, summary, tags } from './stats-request.ts';

/** The caller's community at a glance (1059; everyone with 1056). */
export const registerCommunityStatsRoutes = (app: HttpApp, deps: { db: StatsDb }) => {
  const { db } = deps;

  app.get(
    '/api/stats/community',
    {
      config: routeConfig(anyOf([{ system: 1056 }, { communityAnywhere: 1059 }])),
      schema: {
        tags,
        summary:
          "The caller's community at a glance (1059; everyone with 1056): the published courses they may read with participants, completions and NPS of their people, the academies of those courses, and the totals",
        response: {
          200: z.object({
            totals: z.object({ courses: z.number(), participants: z.number(), completions: z.number(), nps: summary }),
            courses: z.array(
              z.object({
                id: z.number(),
                title: z.string(),
                participants: z.number(),
                completions: z.number(),
                npsBlockId: z.number().nullable(),
                nps: summary,
              }),
            ),
            academies: z.array(z.object({ id: z.number(), title: z.string() })),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => communityStats(db, scopeOf(request, 1056, 1059)),
  );
};
