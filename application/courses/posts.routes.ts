import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { POST_DELETERS, POST_EDITORS, POST_WRITERS } from '../../domain/courses/course-access.ts';
import { postMessageRule, postRule } from '../../domain/courses/post.rules.ts';
import { idParam, refId } from '../../domain/shared/id.rules.ts';
import type { AllPosition } from '../../infrastructure/event-store/event-store.port.ts';
import { anyOf, commandMetadata, errorResponses, type HttpApp, type Located, requireAuth, withPosition } from '../../infrastructure/http/http.port.ts';
import { changePost, createPost, moderatePost, type PostsDeps, postCourseScopes, replyAsTeam } from './posts.ts';

const idParams = z.object({ id: idParam });
const idResponse = z.object({ id: z.number() });
const readModels = ['posts', 'courses', 'users', 'organisation'] as const;
/** A message is at most 5,000 characters. */
const POST_BODY_LIMIT = 64 * 1024;

const sent = (reply: FastifyReply, status: number, result: { id: number; position: AllPosition | null }) =>
  withPosition(reply, result.position).status(status).send({ id: result.id });

/** Comments and questions on a course (spec §3 Post); who may write is decided per course and post (domain/courses/post-access.ts). */
export const registerPostRoutes = (app: HttpApp, deps: PostsDeps) => {
  const tags = ['posts'];
  // The course team (issue 15): system ids anywhere, community ids in the company of the post's course (others: 404).
  const scope = (located: Located) => postCourseScopes(deps, located.params.id as number);
  const moderators = anyOf([{ system: 1033 }, { community: 1036, scope }]);
  app.post(
    '/api/post',
    {
      config: { readModels, access: anyOf(POST_WRITERS), expensive: 'comment' },
      bodyLimit: POST_BODY_LIMIT,
      schema: {
        tags,
        summary: 'A post on a course, or a reply to a post (parentId); anonymous posts never show their author to other participants',
        body: postRule.extend({ courseId: refId('course'), parentId: refId('post').nullish() }).strict(),
        response: { 201: idResponse, ...errorResponses },
      },
    },
    async (request, reply) =>
      sent(
        reply,
        201,
        await createPost(
          deps,
          requireAuth(request).subject,
          { courseId: request.body.courseId, message: request.body.message, anonymous: request.body.anonymous, parentId: request.body.parentId ?? null },
          commandMetadata(request),
        ),
      ),
  );
  app.put(
    '/api/post/:id',
    {
      config: { readModels, access: anyOf(POST_EDITORS) },
      bodyLimit: POST_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Edit a post: one’s own (1043) or as a moderator (1033, 1036)',
        params: idParams,
        body: z.object({ message: postMessageRule }).strict(),
        response: { 200: idResponse, ...errorResponses },
      },
    },
    async (request, reply) =>
      sent(
        reply,
        200,
        await changePost(deps, requireAuth(request).subject, request.params.id, { type: 'edit', message: request.body.message }, commandMetadata(request)),
      ),
  );
  app.delete(
    '/api/post/:id',
    {
      config: { readModels, access: anyOf(POST_DELETERS) },
      schema: {
        tags,
        summary: 'Delete a post: one’s own (1044) or as a moderator (1039, 1037)',
        params: idParams,
        response: { 200: idResponse, ...errorResponses },
      },
    },
    async (request, reply) =>
      sent(reply, 200, await changePost(deps, requireAuth(request).subject, request.params.id, { type: 'delete' }, commandMetadata(request))),
  );
  app.post(
    '/api/post/:id/team-replies',
    {
      config: { readModels, access: anyOf([{ system: 1041 }, { community: 1042, scope }]) },
      bodyLimit: POST_BODY_LIMIT,
      schema: {
        tags,
        summary: "Reply to a post as the course team (1041, or 1042 in the course's company): signed and marked as the team's answer",
        params: idParams,
        body: z.object({ message: postMessageRule }).strict(),
        response: { 201: idResponse, ...errorResponses },
      },
    },
    async (request, reply) =>
      sent(reply, 201, await replyAsTeam(deps, requireAuth(request).subject, request.params.id, request.body.message, commandMetadata(request))),
  );
  app.put(
    '/api/post/:id/hidden',
    {
      config: { readModels, access: moderators },
      schema: {
        tags,
        summary: "Hide a post from participants or show it again (1033, or 1036 in the course's company); moderators still see it, marked",
        params: idParams,
        body: z.object({ hidden: z.boolean() }).strict(),
        response: { 200: idResponse, ...errorResponses },
      },
    },
    async (request, reply) =>
      sent(reply, 200, await moderatePost(deps, requireAuth(request).subject, request.params.id, { hidden: request.body.hidden }, commandMetadata(request))),
  );
  app.put(
    '/api/post/:id/answered',
    {
      config: { readModels, access: moderators },
      schema: {
        tags,
        summary: "Mark a question answered or not (1033, or 1036 in the course's company); replies cannot be",
        params: idParams,
        body: z.object({ answered: z.boolean() }).strict(),
        response: { 200: idResponse, ...errorResponses },
      },
    },
    async (request, reply) =>
      sent(
        reply,
        200,
        await moderatePost(deps, requireAuth(request).subject, request.params.id, { answered: request.body.answered }, commandMetadata(request)),
      ),
  );
};
