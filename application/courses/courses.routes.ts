import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { blockRule, courseNotificationRule, courseRule } from '../../domain/courses/course.rules.ts';
import { COURSE_READERS, COURSE_TAKERS } from '../../domain/courses/course-access.ts';
import { courseCostsRule } from '../../domain/courses/course-costs.rules.ts';
import { can } from '../../domain/permissions/can.ts';
import { idParam, refId } from '../../domain/shared/id.rules.ts';
import type { AllPosition } from '../../infrastructure/event-store/event-store.port.ts';
import type { FileStore } from '../../infrastructure/files/file-store.port.ts';
import { anyOf, commandMetadata, errorResponses, type HttpApp, type Located, requireAuth, system, withPosition } from '../../infrastructure/http/http.port.ts';
import { courseNamedBefore } from '../../projections/courses/courses.queries.ts';
import { registerAcademyRoutes } from './academies.routes.ts';
import { addBlock, changeCourse, createCourse } from './author-courses.ts';
import { checkCommunityAudience, ownerFor } from './community-authoring.ts';
import { addAttachment, checkCover } from './course-attachments.ts';
import { sendManualNotification } from './course-notifications.ts';
import { courseOwnerForAccess } from './course-owner.ts';
import type { CoursesDeps } from './courses.deps.ts';
import { duplicateCourse } from './duplicate-course.ts';
import { registerPostRoutes } from './posts.routes.ts';
import { quizAttempts, quizAttemptsResponse } from './quiz-attempts.ts';
import { type CourseStep, takeCourseStep } from './take-course.ts';

const idParams = z.object({ id: idParam });
const blockParams = idParams.extend({ blockId: idParam });
const attachmentParams = idParams.extend({ fileId: idParam });
const idResponse = z.object({ id: z.number() });
const stepResponse = z.object({ events: z.array(z.string()), completed: z.boolean() });
const config = { readModels: ['courses', 'users', 'organisation'] as const };

/**
 * Taking a course writes records: the participant's membership permission 1045 (spec §6 "record
 * create"), checked before the body is read. Which course they may take is the handler's question (404).
 */
const takeCourse = { ...config, access: anyOf(COURSE_TAKERS, 'Izobraževanja lahko opravljajo le udeleženci.') };
const participant = (request: FastifyRequest) => requireAuth(request);
/** A step's body is an answer or a progress report: a few kilobytes at most. */
const STEP_BODY_LIMIT = 64 * 1024;

const sent = (reply: FastifyReply, status: number, result: { id: number; position: AllPosition | null }) =>
  withPosition(reply, result.position).status(status).send({ id: result.id });

/**
 * Courses: authoring (system 1018 create, 1019 update, 1020 delete, 1024 to 1026 blocks; a client in
 * its own community: course 2005 to 2007, block 1028 to 1030 on the courses its unit owns, others
 * 404) and each step of a participant (a course they may see; others answer 404).
 */
export const registerCourseRoutes = (app: HttpApp, deps: CoursesDeps, uploads: { files: FileStore }) => {
  const tags = ['courses'];
  const owner = (located: Located) => courseOwnerForAccess(deps, located.params.id as number);
  /** The platform's authors anywhere; a community's author on the courses its unit owns. */
  const authoring = (systemId: number, communityId: number) => ({ ...config, access: anyOf([{ system: systemId }, { community: communityId, scope: owner }]) });
  /** What a community author saves stays within its company (spec §6; the platform's authors are not bound). */
  const keepInCommunity = async (request: FastifyRequest, courseId: number, fields: z.output<typeof courseRule>) => {
    if (can(requireAuth(request).subject, 1019, { kind: 'system' })) return;
    const owned = await courseOwnerForAccess(deps, courseId);
    if (owned) await checkCommunityAudience(deps, owned, fields);
  };

  app.post(
    '/api/courses',
    {
      config: { ...config, access: anyOf([{ system: 1018 }, { communityAnywhere: 2005 }]) },
      schema: {
        tags,
        summary: 'Create a course (1018), or a client’s course in its unit (2005; ?unitId= when the client has several): for its company’s people only',
        querystring: z.object({ unitId: idParam.optional() }),
        body: courseRule,
        response: { 201: idResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { subject } = requireAuth(request);
      const owned = can(subject, 1018, { kind: 'system' }) ? null : await ownerFor(deps, subject, request.query.unitId);
      if (owned) await checkCommunityAudience(deps, owned, request.body);
      await checkCover(uploads.files, request.body.cover);
      return sent(reply, 201, await createCourse(deps, request.body, commandMetadata(request), owned));
    },
  );
  app.post(
    '/api/courses/:id/duplicate',
    {
      config: authoring(1018, 2005),
      schema: {
        tags,
        summary: 'A copy of a course to edit further (1018): its fields, audience and blocks, unpublished, titled "(kopija)"',
        params: idParams,
        response: { 201: idResponse, ...errorResponses },
      },
    },
    async (request, reply) => sent(reply, 201, await duplicateCourse(deps, request.params.id, commandMetadata(request))),
  );
  app.put(
    '/api/courses/:id',
    {
      config: { ...authoring(1019, 2006), namedBefore: (request) => courseNamedBefore(deps.db, (request.params as { id: number }).id) },
      schema: { tags, params: idParams, body: courseRule, response: { 200: idResponse, ...errorResponses } },
    },
    async (request, reply) => {
      await keepInCommunity(request, request.params.id, request.body);
      await checkCover(uploads.files, request.body.cover);
      return sent(reply, 200, await changeCourse(deps, request.params.id, { type: 'UpdateCourse', fields: request.body }, commandMetadata(request)));
    },
  );
  // Notifications (issue 16): a manual one to the course's audience, at least 10 minutes after the last (spec §8, §9).
  app.post(
    '/api/courses/:id/notifications',
    {
      config: authoring(1019, 2006),
      schema: {
        tags,
        summary: 'Send a notification to the course’s audience by e-mail (1019, or 2006 on a community’s own course); refused within 10 minutes of the last',
        params: idParams,
        body: courseNotificationRule,
        response: { 202: idResponse, ...errorResponses },
      },
    },
    async (request, reply) => sent(reply, 202, await sendManualNotification(deps, request.params.id, request.body, commandMetadata(request))),
  );
  // Attachments (spec §3): uploaded files participants download from the course page (1019, as any change of the course).
  app.post(
    '/api/courses/:id/attachments',
    {
      config: authoring(1019, 2006),
      schema: {
        tags,
        summary: 'Offer an uploaded file with the course (jpg, png, gif, pdf or zip up to 25 MB; upload it first with POST /api/files)',
        params: idParams,
        body: z.object({ fileId: refId('file') }).strict(),
        response: { 201: idResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await addAttachment(deps, uploads.files, request.params.id, request.body.fileId, commandMetadata(request));
      return withPosition(reply, result.position).status(201).send({ id: request.body.fileId });
    },
  );
  app.delete(
    '/api/courses/:id/attachments/:fileId',
    {
      config: authoring(1019, 2006),
      schema: { tags, summary: 'Stop offering an attachment with the course', params: attachmentParams, response: { 200: idResponse, ...errorResponses } },
    },
    async (request, reply) =>
      sent(reply, 200, await changeCourse(deps, request.params.id, { type: 'RemoveAttachment', fileId: request.params.fileId }, commandMetadata(request))),
  );
  for (const [path, type] of [
    ['publish', 'PublishCourse'],
    ['unpublish', 'UnpublishCourse'],
    ['archive', 'ArchiveCourse'],
    ['restore', 'RestoreCourse'],
  ] as const) {
    app.post(
      `/api/courses/:id/${path}`,
      { config: authoring(1019, 2006), schema: { tags, params: idParams, response: { 200: idResponse, ...errorResponses } } },
      async (request, reply) => sent(reply, 200, await changeCourse(deps, request.params.id, { type }, commandMetadata(request))),
    );
  }
  // The course's deal (decision 0016): its agreed costs and the company billed. Create 1053, change 1054, withdraw 1055.
  for (const [method, permission, deal, summary] of [
    ['POST', 1053, 'new', 'Agree the costs of a course: a new deal (euro cents; 409 when one exists; refused while the course is active, spec §4)'],
    ['PUT', 1054, 'existing', 'Change the agreed costs of a course (euro cents; 404 without a deal; refused while the course is active, spec §4)'],
  ] as const) {
    app.route({
      method,
      url: '/api/courses/:id/costs',
      config: { ...config, access: system(permission) },
      schema: { tags, summary, params: idParams, body: courseCostsRule, response: { 200: idResponse, ...errorResponses } },
      handler: async (request, reply) =>
        sent(
          reply,
          200,
          await changeCourse(deps, request.params.id, { type: 'SetCosts', costs: request.body, now: deps.now(), deal }, commandMetadata(request)),
        ),
    });
  }
  app.delete(
    '/api/courses/:id/costs',
    {
      config: { ...config, access: system(1055) },
      schema: {
        tags,
        summary: 'Withdraw the deal: the course is back on the default costs and billed to nobody (refused while active)',
        params: idParams,
        response: { 200: idResponse, ...errorResponses },
      },
    },
    async (request, reply) =>
      sent(reply, 200, await changeCourse(deps, request.params.id, { type: 'WithdrawCosts', now: deps.now() }, commandMetadata(request))),
  );
  app.delete(
    '/api/courses/:id',
    { config: authoring(1020, 2007), schema: { tags, params: idParams, response: { 200: idResponse, ...errorResponses } } },
    async (request, reply) => sent(reply, 200, await changeCourse(deps, request.params.id, { type: 'DeleteCourse' }, commandMetadata(request))),
  );
  app.post(
    '/api/courses/:id/blocks',
    {
      config: authoring(1024, 1028),
      schema: {
        tags,
        params: idParams,
        body: z.object({ block: blockRule, position: z.number().int().min(0).optional() }).strict(),
        response: { 201: idResponse, ...errorResponses },
      },
    },
    async (request, reply) => sent(reply, 201, await addBlock(deps, request.params.id, request.body.block, request.body.position, commandMetadata(request))),
  );
  app.put(
    '/api/courses/:id/blocks/:blockId',
    { config: authoring(1025, 1029), schema: { tags, params: blockParams, body: blockRule, response: { 200: idResponse, ...errorResponses } } },
    async (request, reply) =>
      sent(
        reply,
        200,
        await changeCourse(deps, request.params.id, { type: 'UpdateBlock', blockId: request.params.blockId, block: request.body }, commandMetadata(request)),
      ),
  );
  app.post(
    '/api/courses/:id/blocks/:blockId/move',
    {
      config: authoring(1025, 1029),
      schema: { tags, params: blockParams, body: z.object({ position: z.number().int().min(0) }).strict(), response: { 200: idResponse, ...errorResponses } },
    },
    async (request, reply) =>
      sent(
        reply,
        200,
        await changeCourse(
          deps,
          request.params.id,
          { type: 'MoveBlock', blockId: request.params.blockId, position: request.body.position },
          commandMetadata(request),
        ),
      ),
  );
  app.delete(
    '/api/courses/:id/blocks/:blockId',
    { config: authoring(1026, 1030), schema: { tags, params: blockParams, response: { 200: idResponse, ...errorResponses } } },
    async (request, reply) =>
      sent(reply, 200, await changeCourse(deps, request.params.id, { type: 'RemoveBlock', blockId: request.params.blockId }, commandMetadata(request))),
  );

  // ---------------------------------------------------------------- a participant's steps
  /** The caller's step in the course the path names: the events it recorded, and whether it completed the course. */
  const step = async (request: FastifyRequest & { params: { id: number } }, reply: FastifyReply, command: CourseStep) => {
    const result = await takeCourseStep(deps, participant(request).userId, request.params.id, command, commandMetadata(request));
    return withPosition(reply, result.position).send({ events: result.events.map((e) => e.type), completed: result.completed });
  };
  /** A step route's options: the participant's permission, the small body limit, the answer's schema. */
  const stepRoute = <P extends z.ZodType>(params: P) => ({
    config: takeCourse,
    bodyLimit: STEP_BODY_LIMIT,
    schema: { tags, security: [{ jwt: [] }], params, response: { 200: stepResponse, ...errorResponses } },
  });
  const stepBodyRoute = <P extends z.ZodType, B extends z.ZodType>(params: P, body: B) => {
    const route = stepRoute(params);
    return { ...route, schema: { ...route.schema, body } };
  };

  app.post('/api/user-courses/:id/start', stepRoute(idParams), async (request, reply) =>
    step(request, reply, { type: 'StartCourse', userId: participant(request).userId }),
  );
  app.post('/api/user-courses/:id/blocks/:blockId/open', stepRoute(blockParams), async (request, reply) =>
    step(request, reply, { type: 'OpenBlock', blockId: request.params.blockId }),
  );
  app.post(
    '/api/user-courses/:id/blocks/:blockId/video-progress',
    stepBodyRoute(blockParams, z.object({ seconds: z.number().min(0).max(86_400), duration: z.number().positive().max(86_400) }).strict()),
    async (request, reply) =>
      step(request, reply, { type: 'ReportVideoProgress', blockId: request.params.blockId, seconds: request.body.seconds, duration: request.body.duration }),
  );
  app.post('/api/user-courses/:id/blocks/:blockId/alternative', stepRoute(blockParams), async (request, reply) =>
    step(request, reply, { type: 'ReadAlternative', blockId: request.params.blockId }),
  );
  app.post(
    '/api/user-courses/:id/blocks/:blockId/quiz',
    stepBodyRoute(blockParams, z.object({ answers: z.record(z.string().max(40), z.string().max(40)) }).strict()),
    async (request, reply) => step(request, reply, { type: 'SubmitQuiz', blockId: request.params.blockId, answers: request.body.answers }),
  );
  app.post(
    '/api/user-courses/:id/blocks/:blockId/nps',
    stepBodyRoute(
      blockParams,
      z
        .object({
          score: z.number().int().min(0).max(10),
          reasons: z.array(z.string().max(300)).max(50).default([]),
          comment: z.string().max(2000).nullish(),
          followUps: z.array(z.string().max(300)).max(20).default([]),
        })
        .strict(),
    ),
    async (request, reply) =>
      step(request, reply, {
        type: 'AnswerNps',
        blockId: request.params.blockId,
        score: request.body.score,
        reasons: request.body.reasons,
        comment: request.body.comment ?? null,
        followUps: request.body.followUps,
      }),
  );

  // Issue 33 (decision 0053): the participant's review of a quiz, read from their enrollment stream like /api/record reads the records.
  app.get(
    '/api/user-courses/:id/blocks/:blockId/quiz/attempts',
    {
      config: { ...config, access: anyOf(COURSE_READERS) },
      schema: {
        tags,
        security: [{ jwt: [] }],
        summary:
          "The caller's attempts of a quiz: score and, per question, the chosen answer and whether it was right; the right answer and explanation only as the author's revealAnswers allows",
        params: blockParams,
        response: { 200: quizAttemptsResponse, ...errorResponses },
      },
    },
    async (request) => quizAttempts(deps, participant(request).userId, request.params.id, request.params.blockId),
  );

  // Issue 17 item 5: an attendee confirms presence at a live webinar's open check (spec §4 live page).
  app.post(
    '/api/user-courses/:id/live/presence',
    stepBodyRoute(idParams, z.object({ checkIndex: z.number().int().min(0).max(1000) }).strict()),
    async (request, reply) => step(request, reply, { type: 'ConfirmPresence', checkIndex: request.body.checkIndex }),
  );

  registerAcademyRoutes(app, deps);
  registerPostRoutes(app, deps);
};
