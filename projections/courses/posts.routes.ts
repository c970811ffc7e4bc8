import { z } from 'zod';
import { POST_READERS } from '../../domain/courses/course-access.ts';
import { can, canSomewhere, type Subject } from '../../domain/permissions/can.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { idParam } from '../../domain/shared/id.rules.ts';
import { anyOf, errorResponses, type HttpApp, requireAuth } from '../../infrastructure/http/http.port.ts';
import { courseById, courseCompanies, listPosts, type PostReadDb, postThread } from './posts.queries.ts';
import { getUserCourse } from './user-courses.queries.ts';

/** Who moderates a course's posts and so still sees hidden ones: system 1033, or community 1036 in the course's company. */
const moderates = async (db: PostReadDb, subject: Subject, courseId: number) => {
  if (can(subject, 1033, { kind: 'system' })) return true;
  if (!canSomewhere(subject, 1036)) return false;
  return ((await courseCompanies(db, courseId)) ?? []).some((companyId) => can(subject, 1036, { kind: 'community', companyId }));
};

/** spec §7 GET /post?courseId=: answers {items}, the course's posts with replies. */
export const registerPostReadRoutes = (app: HttpApp, deps: { db: PostReadDb }) => {
  app.get(
    '/api/post',
    {
      config: { readModels: ['posts', 'courses', 'users', 'organisation'], access: anyOf(POST_READERS) },
      schema: {
        tags: ['posts'],
        summary: "spec §7 GET /post?courseId=: a course's posts, newest first, each with its replies; hidden posts only for moderators (1033, 1036), marked",
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
      const moderator = await moderates(deps.db, subject, request.query.courseId);
      return { items: await listPosts(deps.db, request.query.courseId, { userId, revealAuthors: systemReader, moderator }) };
    },
  );
};
