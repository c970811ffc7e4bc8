import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { can, canSomewhere, communityReach } from '../../domain/permissions/can.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { idParam, indexParam } from '../../domain/shared/id.rules.ts';
import { anyOf, errorResponses, type HttpApp, requireAuth, system } from '../../infrastructure/http/http.port.ts';
import { communityStats } from './community-stats.queries.ts';
import {
  academySuccess,
  BUCKETS,
  billedCompany,
  COMMUNITY_KINDS,
  companiesOfUnits,
  costsLocked,
  costTimeline,
  courseReachable,
  courseSuccess,
  coursesBilledTo,
  courseWindow,
  npsByCommunity,
  npsOverview,
  PLATFORM_READ_MODELS,
  platformStats,
  platformTrends,
  readModelVersion,
  type StatsDb,
  type StatsScope,
} from './stats.queries.ts';

/**
 * Statistics and costs (issue 7). Permissions of spec §6: block views overview 1056 (system) or 1059
 * (community), community breakdown 1057/1060, comments 1058/1061; costs: deal read 1052 (system) or
 * cost overview 2009 (community: the accountant, for courses billed to their company). A community
 * role sees only the answers of participants in the units it reaches. Every figure takes `asOf`.
 */
const READ_MODELS = ['stats', 'courses', 'academies', 'users', 'organisation'] as const;
const tags = ['stats'];
/** How long a platform result stays current while no read model changes (the 30 days of views move with the clock). */
const PLATFORM_KEEP_MS = 60_000;
const asOf = z.iso.datetime({ offset: true, error: 'Vnesite veljaven datum in čas.' }).optional();
const windowQuery = z.object({ intervalId: indexParam.default(0), asOf });
const courseParams = z.object({ id: idParam });
const notFound = () => new DomainError('404', 'Izobraževanje ali termin ne obstaja.', { status: 404 });
const forbidden = () => new DomainError('403', 'Nimate pravic za ogled teh podatkov.', { status: 403 });

const summary = z.object({
  promoters: z.number(),
  neutrals: z.number(),
  detractors: z.number(),
  answers: z.number(),
  score: z.number().nullable(),
  grade: z.string(),
  level: z.string(),
});

/** Everyone with the system permission; otherwise the reach of the community permission. */
const scopeOf = (request: FastifyRequest, systemPermission: number, communityPermission: number): StatsScope => {
  const { subject } = requireAuth(request);
  if (can(subject, systemPermission, { kind: 'system' })) return { all: true };
  if (!canSomewhere(subject, communityPermission)) throw forbidden();
  return { all: false, ...communityReach(subject, communityPermission) };
};

/** Narrowed to one unit (a community page); a community role may only ask for a unit it reaches. */
const narrowTo = async (db: StatsDb, scope: StatsScope, unitId: number | undefined): Promise<StatsScope> => {
  if (unitId === undefined) return scope;
  if (!scope.all) {
    const companies = await companiesOfUnits(db, [unitId], []);
    // A unit outside the caller's reach is answered as missing.
    if (!scope.unitIds.includes(unitId) && !companies.some((c) => scope.companyIds.includes(c)))
      throw new DomainError('404', 'Enota ne obstaja.', { status: 404 });
  }
  return { all: false, unitIds: [unitId], companyIds: [] };
};

/**
 * A community-scoped caller reads only courses of their companies (or public ones); any other
 * course is answered as missing (404), so its id reveals nothing.
 */
const requireReachable = async (db: StatsDb, scope: StatsScope, courseId: number) => {
  if (scope.all) return;
  const companies = await companiesOfUnits(db, scope.unitIds, scope.companyIds);
  if (!(await courseReachable(db, courseId, companies))) throw notFound();
};

const windowOf = async (db: StatsDb, courseId: number, query: { intervalId: number; asOf?: string | undefined }, scope: StatsScope) => {
  const found = await courseWindow(db, courseId, query.intervalId, query.asOf ? new Date(query.asOf) : new Date());
  if (!found) throw notFound();
  await requireReachable(db, scope, courseId);
  return found;
};

const windowResponse = z.object({ intervalId: z.number(), from: z.string(), to: z.string(), asOf: z.string() });
const toWindow = (w: { intervalId: number; from: Date; to: Date; asOf: Date }) => ({
  intervalId: w.intervalId,
  from: w.from.toISOString(),
  to: w.to.toISOString(),
  asOf: w.asOf.toISOString(),
});

export const registerStatsReadRoutes = (app: HttpApp, deps: { db: StatsDb }) => {
  const { db } = deps;
  // "Now" aggregates the whole platform (a few hundred ms on a million events): a result is kept under
  // the version of the read models it came from and served only while that version holds (issue 33
  // item 4: serving the last result whatever happened since showed a page the figure from before the
  // change it refetched for, and a first visit yesterday's). At most a minute: views move with the clock.
  type Platform = Awaited<ReturnType<typeof platformStats>>;
  let platformNow: { version: string; at: number; value: Platform } | null = null;
  let platformRefresh: { version: string; promise: Promise<Platform> } | null = null;
  const config = (access: ReturnType<typeof anyOf>) => ({ access, readModels: READ_MODELS });

  app.get(
    '/api/courses/:id/nps/:blockId/overview',
    {
      config: config(anyOf([{ system: 1056 }, { communityAnywhere: 1059 }])),
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
      config: config(anyOf([{ system: 1057 }, { communityAnywhere: 1060 }])),
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

  const successResponse = z.object({
    started: z.number(),
    completed: z.number(),
    completionRate: z.number().nullable(),
    attempted: z.number(),
    passed: z.number(),
    successRate: z.number().nullable(),
    firstAttemptRate: z.number().nullable(),
    quizzes: z.array(
      z.object({
        blockId: z.number(),
        attempted: z.number(),
        passed: z.number(),
        firstAttemptPassed: z.number(),
        attempts: z.number(),
        successRate: z.number().nullable(),
        firstAttemptRate: z.number().nullable(),
      }),
    ),
  });

  app.get(
    '/api/courses/:id/success',
    {
      config: config(anyOf([{ system: 1056 }, { communityAnywhere: 1059 }])),
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
      const { course, window } = await windowOf(db, request.params.id, request.query, caller);
      return { course: { id: course.id, title: course.title }, window: toWindow(window), success: await courseSuccess(db, course.id, window, scope) };
    },
  );

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
      config: config(anyOf([{ system: 1052 }, { communityAnywhere: 2009 }])),
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
      config: config(anyOf([{ system: 1052 }, { communityAnywhere: 2009 }])),
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

  app.get(
    '/api/academies/:id/success',
    {
      config: config(anyOf([{ system: 1056 }, { communityAnywhere: 1059 }])),
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

  app.get(
    '/api/stats/community',
    {
      config: config(anyOf([{ system: 1056 }, { communityAnywhere: 1059 }])),
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
