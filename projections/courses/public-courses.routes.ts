import { z } from 'zod';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { type FeatureFlags, HIDDEN_COURSE_TYPE, LIVE_COURSE_TYPE } from '../../domain/shared/features.ts';
import type { AttemptLimiter } from '../../infrastructure/auth/attempt-limiter.port.ts';
import { errorResponses, type HttpApp, PUBLIC } from '../../infrastructure/http/http.port.ts';
import { listPublicCourses, publicCourseItem } from './public-courses.queries.ts';

/** Requests per address per minute: a partner page is opened by many, each address asks once per view. */
export const PUBLIC_COURSES_PER_ADDRESS = 120;

/**
 * The public course list behind the embeddable /glp page (issue 17 item 7, decision 0031): read
 * without logging in (and the same when signed in), limited per address like the other public routes.
 */
export const registerPublicCourseRoutes = (
  app: HttpApp,
  deps: { db: Parameters<typeof listPublicCourses>[0]; now: () => Date; limiter: AttemptLimiter; features: FeatureFlags; perAddress?: number },
) => {
  const hidden = [HIDDEN_COURSE_TYPE, ...(deps.features.liveCourses ? [] : [LIVE_COURSE_TYPE])];
  app.get(
    '/api/public-courses',
    {
      config: { access: PUBLIC, readModels: ['courses'] },
      schema: {
        tags: ['courses'],
        summary: 'Public, published courses running now (title, cover, type, credit points, lecturer), for the embeddable /glp page',
        response: { 200: z.object({ items: z.array(publicCourseItem) }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const verdict = await deps.limiter.hit([{ key: `public-courses|address|${request.ip}`, limit: deps.perAddress ?? PUBLIC_COURSES_PER_ADDRESS }], 60);
      if (!verdict.allowed) {
        reply.header('Retry-After', String(verdict.retryAfterSeconds));
        throw new DomainError('429', `Preveč zahtev. Poskusite znova čez ${verdict.retryAfterSeconds} s.`, { status: 429 });
      }
      return { items: [...(await listPublicCourses(deps.db, deps.now(), hidden))] };
    },
  );
};
