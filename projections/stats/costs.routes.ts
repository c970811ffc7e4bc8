import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { can, communityReach } from '../../domain/permissions/can.ts';
import { anyOf, errorResponses, type HttpApp, requireAuth } from '../../infrastructure/http/http.port.ts';
import { BUCKETS, billedCompany, companiesOfUnits, costsLocked, costTimeline, coursesBilledTo, courseWindow, type StatsDb } from './stats.queries.ts';
import { asOf, courseParams, forbidden, routeConfig, tags, toWindow, windowOf, windowQuery, windowResponse } from './stats-request.ts';

/** Costs (1052, or 2009 for the accountant of the company billed): of a course, and of a company's courses. */
export const registerCostsRoutes = (app: HttpApp, deps: { db: StatsDb }) => {
  const { db } = deps;

  const costsShape = z.object({
    costs: z.record(z.string(), z.unknown()),
    setAt: z.string().nullable(),
    figures: z.object({ views: z.number(), viewsAmount: z.number(), totalAmount: z.number(), finalAmount: z.number(), shareEarnings: z.number() }),
    timeline: z.array(
      z.object({
        period: z.string(),
        views: z.number(),
        viewsAmount: z.number(),
        cumulativeViews: z.number(),
        totalAmount: z.number(),
        finalAmount: z.number(),
      }),
    ),
  });

  /** Costs: system 1052, or 2009 for a course billed to a company the accountant's units belong to. */
  const costsAllowed = async (request: FastifyRequest, companyOf: () => Promise<number | null>) => {
    const { subject } = requireAuth(request);
    if (can(subject, 1052, { kind: 'system' })) return;
    const reach = communityReach(subject, 2009);
    const own = await companiesOfUnits(db, reach.unitIds, reach.companyIds);
    const company = await companyOf();
    if (company === null || !own.includes(company)) throw forbidden();
  };

  app.get(
    '/api/courses/:id/costs',
    {
      config: routeConfig(anyOf([{ system: 1052 }, { communityAnywhere: 2009 }])),
      schema: {
        tags,
        summary: 'Costs of a course in an interval: the amounts, views and a timeline per day, week or month (all amounts in euro cents)',
        params: courseParams,
        querystring: windowQuery.extend({ bucket: z.enum(BUCKETS).default('day') }),
        response: {
          200: costsShape.extend({
            course: z.object({ id: z.number(), title: z.string() }),
            window: windowResponse,
            /** Costs are not edited while the course is active (spec §4): the page offers no edit then. */
            locked: z.boolean(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { subject } = requireAuth(request);
      // An accountant is told a course of another company does not exist; of one they see, that its costs are not theirs (403).
      const reach = can(subject, 1052, { kind: 'system' }) ? ({ all: true } as const) : { all: false as const, ...communityReach(subject, 2009) };
      const { course, window } = await windowOf(db, request.params.id, request.query, reach);
      await costsAllowed(request, () => billedCompany(db, course.id, window.asOf));
      return {
        course: { id: course.id, title: course.title },
        window: toWindow(window),
        locked: await costsLocked(db, course.id),
        ...(await costTimeline(db, course.id, window, request.query.bucket)),
      };
    },
  );

  app.get(
    '/api/companies/:id/costs',
    {
      config: routeConfig(anyOf([{ system: 1052 }, { communityAnywhere: 2009 }])),
      schema: {
        tags,
        summary: "A company's cost timeline: the courses billed to it, with views and amounts per day, week or month",
        params: courseParams,
        querystring: z.object({ asOf, bucket: z.enum(BUCKETS).default('month') }),
        response: {
          200: z.object({
            companyId: z.number(),
            courses: z.array(costsShape.extend({ course: z.object({ id: z.number(), title: z.string() }) })),
            totalAmount: z.number(),
            finalAmount: z.number(),
            views: z.number(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const companyId = request.params.id;
      await costsAllowed(request, async () => companyId);
      const at = request.query.asOf ? new Date(request.query.asOf) : new Date();
      const courses = [];
      for (const courseId of await coursesBilledTo(db, companyId, at)) {
        const found = await courseWindow(db, courseId, 0, at);
        if (!found) continue;
        courses.push({ course: { id: found.course.id, title: found.course.title }, ...(await costTimeline(db, courseId, found.window, request.query.bucket)) });
      }
      return {
        companyId,
        courses,
        totalAmount: courses.reduce((s, c) => s + c.figures.totalAmount, 0),
        finalAmount: courses.reduce((s, c) => s + c.figures.finalAmount, 0),
        views: courses.reduce((s, c) => s + c.figures.views, 0),
      };
    },
  );
};
