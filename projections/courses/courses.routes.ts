import { z } from 'zod';
import { audienceRule, COURSE_TYPES } from '../../domain/courses/course.rules.ts';
import { BLOCK_READERS, COURSE_READERS } from '../../domain/courses/course-access.ts';
import { visibleFeatureFields } from '../../domain/courses/course-features.ts';
import { isPrescriptionOnly } from '../../domain/courses/course-types.rules.ts';
import { attended, type LiveWindow, livePhase, PRESENCE_WINDOW_SECONDS, presenceChecks } from '../../domain/courses/live-presence.ts';
import { can, communityReach, companiesWith } from '../../domain/permissions/can.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { type FeatureFlags, HIDDEN_COURSE_TYPE, LIVE_COURSE_TYPE } from '../../domain/shared/features.ts';
import { idParam } from '../../domain/shared/id.rules.ts';
import type { FileStore } from '../../infrastructure/files/file-store.port.ts';
import { anyOf, errorResponses, type HttpApp, type Located, requireAuth } from '../../infrastructure/http/http.port.ts';
import { type CertificateRenderer, certificateFileName } from '../../infrastructure/pdf/certificate.port.ts';
import { registerAcademyReadRoutes } from './academies.routes.ts';
import { ADMIN_COURSE_SORTS, ADMIN_COURSE_STATUSES, adminCourseListItem, listAdminCoursePage } from './admin-courses.queries.ts';
import { certificateData } from './certificates.queries.ts';
import { certificateDocument } from './certificates.routes.ts';
import { countAudience, courseParticipant, listCourseParticipants } from './course-audience.queries.ts';
import { courseNotificationItem, listCourseNotifications } from './course-notifications.queries.ts';
import {
  adminCourse,
  audienceCompanies,
  blockItem,
  type CourseReadDb,
  courseAttachment,
  courseOwner,
  getAdminCourse,
  listBlocks,
  recordItem,
} from './courses.queries.ts';
import { registerPostReadRoutes } from './posts.routes.ts';
import { type UserCourseWithStatus, userCourse, withStatus } from './user-course-status.ts';
import { getUserCourse, getUserCourseDetail, hideCourseTypes, listUserCourses } from './user-courses.queries.ts';

const READ_MODELS = ['courses', 'users', 'organisation'] as const;

/** `type`: the course's type; an RX course (1) counts only people whose profession it names and may prescribe or supply (decision 0062). */
const audiencePreviewRule = z.object({ public: z.boolean(), audience: audienceRule, type: z.literal(COURSE_TYPES).optional() }).strict();

const adminCourseListQuery = z.object({
  search: z.string().max(200).optional(),
  type: z.coerce.number().int().min(1).max(9).optional(),
  status: z.enum(ADMIN_COURSE_STATUSES).optional(),
  published: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  academyId: idParam.optional(),
  tagId: idParam.optional(),
  sort: z.enum(ADMIN_COURSE_SORTS).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  page: z.coerce.number().int().min(1).max(100_000).optional(),
  pageSize: z.coerce.number().int().min(1).max(100).optional(),
});
const notFound = () => new DomainError('404', 'Izobraževanje ne obstaja.', { status: 404 });

/** A live webinar as its page shows it (issue 17): phase, the presence checks with the caller's confirmations, whether they attended, the recording. */
const liveDetail = z.object({
  roomId: z.string(),
  startsAt: z.string(),
  stopsAt: z.string(),
  phase: z.enum(['upcoming', 'live', 'ended']),
  checks: z.array(z.object({ index: z.number(), opensAt: z.string(), closesAt: z.string(), confirmed: z.boolean() })),
  windowSeconds: z.number(),
  attended: z.boolean(),
  recordingVimeoId: z.string().nullable(),
  serverTime: z.string(),
});
const liveView = (live: LiveWindow & { roomId: string }, presence: readonly number[], recordingVimeoId: string | null, now: Date) => ({
  ...live,
  phase: livePhase(live, now),
  checks: presenceChecks(live).map((c) => ({
    index: c.index,
    opensAt: c.opensAt.toISOString(),
    closesAt: c.closesAt.toISOString(),
    confirmed: presence.includes(c.index),
  })),
  windowSeconds: PRESENCE_WINDOW_SECONDS,
  attended: attended(live, presence),
  recordingVimeoId,
  serverTime: now.toISOString(),
});

const FILTERS = {
  /** Not started yet and open. */
  new: (c: UserCourseWithStatus) => c.enrollment === 'none' && (c.status === 'active' || c.status === 'reserved'),
  completed: (c: UserCourseWithStatus) => c.status === 'completed',
  archived: (c: UserCourseWithStatus) => c.status === 'archived' || c.status === 'expired',
} as const;

export const registerCourseReadRoutes = (
  app: HttpApp,
  deps: { db: CourseReadDb; now: () => Date; certificates: CertificateRenderer; files: FileStore; features: FeatureFlags; publicUrl: string },
) => {
  const { db } = deps;
  const tags = ['courses'];
  /** A client reads (2004) the courses its unit owns as authored; the platform's readers (1017) every course. */
  const ownedScope = (located: Located) => courseOwner(db, located.params.id as number);
  const authorReaders = anyOf([{ system: 1017 }, { community: 2004, scope: ownedScope }]);
  // Live courses (type 8) are nowhere on the participant's side while the feature is off.
  hideCourseTypes(db, deps.features.liveCourses ? [] : [LIVE_COURSE_TYPE]);
  const config = { readModels: READ_MODELS };

  app.get(
    '/api/user-courses',
    {
      config: { ...config, access: anyOf(COURSE_READERS) },
      schema: {
        tags,
        summary: "The caller's courses: public ones and those targeted at them (filters new, completed, archived; search)",
        querystring: z.object({ filter: z.enum(['new', 'completed', 'archived']).optional(), search: z.string().max(200).optional() }),
        response: { 200: z.object({ items: z.array(userCourse) }), ...errorResponses },
      },
    },
    async (request) => {
      const now = deps.now();
      const filter = request.query.filter;
      // Type 7 (powerclass certificate) is hidden from the lists (spec §3): its academy leads there; once completed it is one's record.
      const items = (await listUserCourses(db, requireAuth(request).userId, { search: request.query.search }))
        .filter((c) => c.type !== HIDDEN_COURSE_TYPE || (filter === 'completed' && c.enrollment === 'completed'))
        .map((c) => withStatus(c, now));
      return { items: filter ? items.filter(FILTERS[filter]) : items };
    },
  );

  app.get(
    '/api/user-courses/:id',
    {
      config: { ...config, access: anyOf(COURSE_READERS) },
      schema: {
        tags,
        summary: "A course with the caller's progress (404 when not theirs to see)",
        params: z.object({ id: idParam }),
        response: {
          200: userCourse.extend({
            zoomUrl: z.string().nullable(),
            interactrHtml: z.string().nullable(),
            attachments: z.array(courseAttachment),
            live: liveDetail.nullable(),
            /** The code of the approved content the course was published under (issue 36); null: not under approval. */
            approvalCode: z.string().nullable(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const found = await getUserCourseDetail(db, requireAuth(request).userId, request.params.id);
      if (!found) throw notFound();
      return {
        ...withStatus(found.item, deps.now()),
        zoomUrl: deps.features.zoom ? found.zoomUrl : null,
        interactrHtml: deps.features.interactr ? found.interactrHtml : null,
        attachments: [...found.attachments],
        live: deps.features.liveCourses && found.live ? liveView(found.live, found.presence, found.recordingVimeoId, deps.now()) : null,
        approvalCode: found.approvalCode,
      };
    },
  );

  app.get(
    '/api/courses',
    {
      config: { ...config, access: anyOf([{ system: 1017 }, { communityAnywhere: 2004 }]) },
      schema: {
        tags,
        summary:
          "The admins' course list (1017; a client's: the courses its units own, 2004): a page with search, filters and sort; each course with its status and what it lacks for publishing",
        querystring: adminCourseListQuery,
        response: { 200: z.object({ items: z.array(adminCourseListItem), total: z.number() }), ...errorResponses },
      },
    },
    async (request) => {
      const { subject } = requireAuth(request);
      const owners = can(subject, 1017, { kind: 'system' }) ? undefined : communityReach(subject, 2004);
      return listAdminCoursePage(db, { ...request.query, owners });
    },
  );

  // The participants tab (issue 15): who a draft audience would reach, before it is saved, and who took the course.
  app.post(
    '/api/courses/audience-count',
    {
      config: { ...config, access: anyOf([{ system: 1017 }, { communityAnywhere: 2005 }]) },
      bodyLimit: 64 * 1024,
      schema: {
        tags,
        summary:
          'How many active users a course with this audience would be for (1017, or a client within its companies, 2005): the live count of the participants tab',
        body: audiencePreviewRule,
        response: { 200: z.object({ count: z.number() }), ...errorResponses },
      },
    },
    async (request) => {
      const { subject } = requireAuth(request);
      if (!can(subject, 1017, { kind: 'system' })) {
        // A client counts only within the companies it authors for: no probing of other companies' people.
        const reach = communityReach(subject, 2005);
        const own = new Set([...reach.companyIds, ...(await audienceCompanies(db, reach.unitIds, []))]);
        const a = request.body.audience;
        const reached = [...a.companyIds, ...(await audienceCompanies(db, a.unitIds, a.groupIds))];
        if (request.body.public || reached.some((id) => !own.has(id)))
          throw new DomainError('403', 'Izobraževanje skupnosti je lahko le za ljudi njenega podjetja.', { status: 403 });
      }
      // A client's course reaches only its company's people (decision 0047): so does the count.
      const companies = can(subject, 1017, { kind: 'system' }) ? null : companiesWith(subject, 2005);
      const prescriptionOnly = request.body.type !== undefined && isPrescriptionOnly(request.body.type);
      return { count: await countAudience(db, { public: request.body.public, ...request.body.audience, prescriptionOnly }, companies) };
    },
  );

  app.get(
    '/api/courses/:id/participants',
    {
      config: { ...config, access: authorReaders },
      schema: {
        tags,
        summary: "Who took the course (1017, or 2004 on a course its unit owns): each participant's status, dates and blocks done",
        params: z.object({ id: idParam }),
        response: { 200: z.object({ items: z.array(courseParticipant) }), ...errorResponses },
      },
    },
    async (request) => {
      if (!(await getAdminCourse(db, request.params.id))) throw notFound();
      // A community's viewer sees its own companies' people only, never a stranger who took the course.
      const { subject } = requireAuth(request);
      const companies = can(subject, 1017, { kind: 'system' }) ? null : companiesWith(subject, 2004);
      return { items: [...(await listCourseParticipants(db, request.params.id, companies))] };
    },
  );

  app.get(
    '/api/courses/:id/notifications',
    {
      config: { ...config, readModels: [...READ_MODELS, 'course_notifications', 'mail'], access: authorReaders },
      schema: {
        tags,
        summary: "A course's notifications, newest first, each with how many were sent, failed and skipped (and why)",
        params: z.object({ id: idParam }),
        response: { 200: z.object({ items: z.array(courseNotificationItem) }), ...errorResponses },
      },
    },
    async (request) => {
      if (!(await getAdminCourse(db, request.params.id))) throw notFound();
      return { items: [...(await listCourseNotifications(db, request.params.id))] };
    },
  );

  app.get(
    '/api/courses/:id',
    {
      config: { ...config, access: authorReaders },
      schema: {
        tags,
        summary: 'A course as authored (admin or editor; a client, 2004, the courses its unit owns)',
        params: z.object({ id: idParam }),
        response: { 200: adminCourse, ...errorResponses },
      },
    },
    async (request) => {
      const course = await getAdminCourse(db, request.params.id);
      if (!course) throw notFound();
      return { ...course, fields: visibleFeatureFields(course.fields, deps.features) };
    },
  );

  app.get(
    '/api/block',
    {
      config: { ...config, access: anyOf(BLOCK_READERS) },
      schema: {
        tags,
        summary: "spec §7 GET /block?course_id=: the course's blocks in order (participants do not see the correct answers)",
        querystring: z.object({ course_id: idParam }),
        response: { 200: z.object({ items: z.array(blockItem) }), ...errorResponses },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const courseId = request.query.course_id;
      if (can(auth.subject, 1023, { kind: 'system' })) return { items: await listBlocks(db, courseId, { participantId: null }) };
      // A client sees the blocks of the courses its unit owns as authored (1027), correct answers included.
      const owned = await courseOwner(db, courseId);
      if (owned && can(auth.subject, 1027, { kind: 'community', ...owned })) return { items: await listBlocks(db, courseId, { participantId: null }) };
      if (!(await getUserCourse(db, auth.userId, courseId))) throw notFound();
      return { items: await listBlocks(db, courseId, { participantId: auth.userId }) };
    },
  );

  app.get(
    '/api/record',
    {
      config: { ...config, access: anyOf(COURSE_READERS) },
      schema: {
        tags,
        summary: "spec §7 GET /record?course_id=: the caller's records of the course",
        querystring: z.object({ course_id: idParam }),
        response: { 200: z.object({ items: z.array(recordItem) }), ...errorResponses },
      },
    },
    async (request) => {
      // One round trip: the course's visibility to the caller and their records (read and dropped when not theirs).
      const found = await getUserCourseDetail(db, requireAuth(request).userId, request.query.course_id, { records: true });
      if (!found) throw notFound();
      return { items: [...found.records] };
    },
  );

  app.get(
    '/api/user-courses/:id/certificate',
    {
      config: { ...config, access: anyOf(COURSE_READERS), expensive: 'render' },
      schema: { tags, summary: "The caller's certificate of a completed course (PDF)", params: z.object({ id: idParam }) },
    },
    async (request, reply) => {
      const { userId } = requireAuth(request);
      const data = await certificateData(db, userId, request.params.id);
      if (!data) throw new DomainError('404', 'Certifikat ne obstaja.', { status: 404 });
      const pdf = await deps.certificates.render(await certificateDocument(data, deps), `user-${userId}`);
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `attachment; filename="${certificateFileName(data.number)}"`)
        .header('Cache-Control', 'private, no-store')
        .send(pdf);
    },
  );

  registerAcademyReadRoutes(app, deps);
  registerPostReadRoutes(app, deps);
};
