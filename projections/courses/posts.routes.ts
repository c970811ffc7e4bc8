import { z } from 'zod';
import { POST_READERS } from '../../domain/courses/course-access.ts';
import { can } from '../../domain/permissions/can.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { idParam } from '../../domain/shared/id.rules.ts';
import { anyOf, errorResponses, type HttpApp, requireAuth } from '../../infrastructure/http/http.port.ts';
import { courseById, listPosts, type PostReadDb, postThread } from './posts.queries.ts';
import { getUserCourse } from './user-courses.queries.ts';

/** spec §7 GET /post?courseId=: answers {items}, the course's posts with replies. */
export const registerPostReadRoutes = (app: HttpApp, deps: { db: PostReadDb }) => {
  app.get(
    '/api/post',
    {
      config: { readModels: ['posts', 'courses', 'users', 'organisation'], access: anyOf(POST_READERS) },
      schema: {
        tags: ['posts'],
        summary: "spec §7 GET /post?courseId=: a course's posts, newest first, each with its replies",
        querystring: z.object({ courseId: idParam }),
        response: { 200: z.object({ items: z.array(postThread) }), ...errorResponses },
      },
    },
    async (request) => {
      const { subject, userId } = requireAuth(request);
      const systemReader = can(subject, 1031, { kind: 'system' });
      const course =
        (await getUserCourse(deps.db, userId, request.query.courseId)) ?? (systemReader ? await courseById(deps.db, request.query.courseId) : null);
      if (!course) throw new DomainError('404', 'Izobraževanje ne obstaja.', { status: 404 });
      // With comments switched off participants see none; system readers still see what was written.
      if (!course.postsEnabled && !systemReader) return { items: [] };
      return { items: await listPosts(deps.db, request.query.courseId, { userId, revealAuthors: systemReader }) };
    },
  );
};
