import { z } from 'zod';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { idParam } from '../../domain/shared/id.rules.ts';
import { anyOf, errorResponses, type HttpApp } from '../../infrastructure/http/http.port.ts';
import { academySuccess, allTimeWindow, companiesOfUnits, courseReachable, courseSuccess, type StatsDb } from './stats.queries.ts';
import { courseParams, narrowTo, routeConfig, scopeOf, tags, toWindow, windowOf, windowQuery, windowResponse } from './stats-request.ts';

/** Success rates (1056/1059): of a course, and of an academy's series of courses. */
export const registerSuccessRoutes = (app: HttpApp, deps: { db: StatsDb }) => {
  const { db } = deps;

  const successResponse = z.object({
    started: z.number(),
    completed: z.number(),
    completionRate: z.number().nullable(),
    attempted: z.number(),
    passed: z.number(),
    successRate: z.number().nullable(),
    firstAttemptRate: z.number().nullable(),
    averageScore: z.number().nullable(),
    quizzes: z.array(
      z.object({
        blockId: z.number(),
        attempted: z.number(),
        passed: z.number(),
        firstAttemptPassed: z.number(),
        /** Each participant's best score, averaged (percent). */
        averageScore: z.number().nullable(),
        attempts: z.number(),
        successRate: z.number().nullable(),
        firstAttemptRate: z.number().nullable(),
      }),
    ),
  });

  app.get(
    '/api/courses/:id/success',
    {
      config: routeConfig(anyOf([{ system: 1056 }, { communityAnywhere: 1059 }])),
      schema: {
        tags,
        summary: 'Success of a course: passed over attempted, first-attempt passes, completions (optionally of one unit: communityId)',
        params: courseParams,
        querystring: windowQuery.extend({ communityId: idParam.optional() }),
        response: {
          200: z.object({ course: z.object({ id: z.number(), title: z.string() }), window: windowResponse, success: successResponse }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const caller = scopeOf(request, 1056, 1059);
      const scope = await narrowTo(db, caller, request.query.communityId);
      const asOf = request.query.asOf ? new Date(request.query.asOf) : new Date();
      // All time (the screen's default) needs nothing of the course for its window: the figures are
      // asked beside the course's checks and given only once those pass (the screens bench had this
      // route at 3.5x its plain baseline with its statements one after another, docs/benchmarks.md).
      const early = request.query.intervalId === 0 ? courseSuccess(db, request.params.id, allTimeWindow(asOf), scope) : null;
      early?.catch(() => undefined);
      const { course, window } = await windowOf(db, request.params.id, { intervalId: request.query.intervalId, asOf: asOf.toISOString() }, caller);
      const success = early ? await early : await courseSuccess(db, course.id, window, scope);
      return { course: { id: course.id, title: course.title }, window: toWindow(window), success };
    },
  );

  app.get(
    '/api/academies/:id/success',
    {
      config: routeConfig(anyOf([{ system: 1056 }, { communityAnywhere: 1059 }])),
      schema: {
        tags,
        summary: 'Success of an academy: each course of the series in its interval intervalId (0: all time), and who completed the whole series',
        params: courseParams,
        querystring: windowQuery.extend({ communityId: idParam.optional() }),
        response: {
          200: z.object({
            academy: z.object({ id: z.number(), title: z.string() }),
            asOf: z.string(),
            courses: z.array(z.object({ course: z.object({ id: z.number(), title: z.string() }), success: successResponse })),
            completedSeries: z.number(),
            attempted: z.number(),
            passed: z.number(),
            successRate: z.number().nullable(),
            completionRate: z.number().nullable(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const caller = scopeOf(request, 1056, 1059);
      const scope = await narrowTo(db, caller, request.query.communityId);
      const at = request.query.asOf ? new Date(request.query.asOf) : new Date();
      const result = await academySuccess(db, request.params.id, request.query.intervalId, at, scope);
      if (!result) throw new DomainError('404', 'Akademija ne obstaja.', { status: 404 });
      if (!caller.all) {
        const companies = await companiesOfUnits(db, caller.unitIds, caller.companyIds);
        const reachable = await Promise.all(result.courses.map((c) => courseReachable(db, c.course.id, companies)));
        if (!reachable.some(Boolean)) throw new DomainError('404', 'Akademija ne obstaja.', { status: 404 });
      }
      return { ...result, asOf: at.toISOString() };
    },
  );
};
