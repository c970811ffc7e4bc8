import { z } from 'zod';
import { errorResponses, type HttpApp, system } from '../../infrastructure/http/http.port.ts';
import { PLATFORM_READ_MODELS, platformStats, platformTrends, readModelVersion, type StatsDb } from './stats.queries.ts';
import { asOf, READ_MODELS, summary, tags } from './stats-request.ts';

/** How long a platform result stays current while no read model changes (the 30 days of views move with the clock). */
const PLATFORM_KEEP_MS = 60_000;

/** The platform at a glance and per month (1064, the admin data menu). */
export const registerPlatformStatsRoutes = (app: HttpApp, deps: { db: StatsDb }) => {
  const { db } = deps;
  // "Now" aggregates the whole platform (a few hundred ms on a million events): a result is kept under
  // the version of the read models it came from and served only while that version holds (issue 33
  // item 4: serving the last result whatever happened since showed a page the figure from before the
  // change it refetched for, and a first visit yesterday's). At most a minute: views move with the clock.
  type Platform = Awaited<ReturnType<typeof platformStats>>;
  let platformNow: { version: string; at: number; value: Platform } | null = null;
  let platformRefresh: { version: string; promise: Promise<Platform> } | null = null;

  app.get(
    '/api/stats',
    {
      config: { access: system(1064), readModels: READ_MODELS },
      schema: {
        tags,
        summary: 'The platform at a glance (admin data menu): participants, courses, enrollments, completions, overall NPS, most viewed courses',
        querystring: z.object({ asOf }),
        response: {
          200: z.object({
            participants: z.number(),
            courses: z.number(),
            publishedCourses: z.number(),
            enrollments: z.number(),
            completions: z.number(),
            views30: z.number(),
            nps: summary,
            topCourses: z.array(z.object({ id: z.number(), title: z.string(), views: z.number(), completions: z.number(), npsBlockId: z.number().nullable() })),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      if (request.query.asOf) return platformStats(db, new Date(request.query.asOf));
      const version = await readModelVersion(db, PLATFORM_READ_MODELS);
      if (platformNow?.version === version && Date.now() - platformNow.at < PLATFORM_KEEP_MS) return platformNow.value;
      // Asked again while it is computed from the same version: one computation answers both.
      if (platformRefresh?.version === version) return platformRefresh.promise;
      const at = Date.now();
      const promise = platformStats(db, new Date(at))
        .then((value) => {
          if (!platformNow || platformNow.at <= at) platformNow = { version, at, value };
          return value;
        })
        .finally(() => {
          if (platformRefresh?.promise === promise) platformRefresh = null;
        });
      platformRefresh = { version, promise };
      return promise;
    },
  );

  app.get(
    '/api/stats/trends',
    {
      config: { access: system(1064), readModels: READ_MODELS },
      schema: {
        tags,
        summary:
          'The platform per month (Europe/Ljubljana), the 12 months up to asOf: new users, enrollments, completions, certificates, credit points issued and the NPS of the answers given that month',
        querystring: z.object({ asOf }),
        response: {
          200: z.object({
            months: z.array(
              z.object({
                month: z.string(),
                users: z.number(),
                enrollments: z.number(),
                completions: z.number(),
                certificates: z.number(),
                creditPoints: z.number(),
                nps: summary,
              }),
            ),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => ({ months: await platformTrends(db, request.query.asOf ? new Date(request.query.asOf) : new Date()) }),
  );
};
