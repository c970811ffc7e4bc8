import { z } from 'zod';
import { COURSE_TAKERS } from '../../domain/courses/course-access.ts';
import { mayUsePackage } from '../../domain/packages/package-launch.ts';
import { can } from '../../domain/permissions/can.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { idParam } from '../../domain/shared/id.rules.ts';
import { anyOf, commandMetadata, errorResponses, type HttpApp, requireAuth, withPosition } from '../../infrastructure/http/http.port.ts';
import type { StoredPackage } from '../../infrastructure/packages/package-store.port.ts';
import type { PackagesDeps } from './packages.deps.ts';
import { commitScorm, launchPackageItem } from './play-package.ts';
import { uploadPackage } from './upload-package.ts';

const tags = ['packages'];
const config = { readModels: ['courses', 'users', 'organisation'] as const };
const safeName = (name: string) => name.replace(/[^\p{L}\p{N} ._-]/gu, '_');

const itemSchema = z.object({ id: z.string(), title: z.string(), masteryScore: z.number().nullable(), moveOn: z.string().nullable() });
const packageSchema = z.object({
  id: z.number(),
  standard: z.enum(['scorm12', 'scorm2004', 'cmi5']),
  version: z.string(),
  title: z.string(),
  items: z.array(itemSchema),
  entries: z.number(),
  size: z.number(),
});
const described = (p: StoredPackage) => ({
  id: p.id,
  standard: p.structure.standard,
  version: p.structure.version,
  title: p.structure.title,
  items: p.structure.items.map((i) => ({ id: i.id, title: i.title, masteryScore: i.masteryScore, moveOn: i.moveOn })),
  entries: p.entries,
  size: p.size,
});

/** Who adds (1024) or edits (1025) blocks, platform-wide or in a community (1028, 1029), uploads packages, as videos. */
const PACKAGE_AUTHORS = anyOf([{ system: 1024 }, { system: 1025 }, { communityAnywhere: 1028 }, { communityAnywhere: 1029 }]);
const blockParams = z.object({ id: idParam, blockId: idParam });
const STEP_BODY_LIMIT = 256 * 1024;

/**
 * SCORM and cmi5 packages (issue 35): authors upload one (the zip as the body, `?name=`), and see
 * what it holds; a participant launches an item of a package block and the player forwards the
 * SCORM package's commits. cmi5 AUs report to the platform's LRS (/xapi) instead.
 */
export const registerPackageRoutes = (app: HttpApp, deps: PackagesDeps) => {
  app.post(
    '/api/packages',
    {
      config: { access: PACKAGE_AUTHORS, uploads: true, expensive: 'package' },
      bodyLimit: deps.settings.packages.maxBytes,
      schema: {
        tags,
        summary: 'Upload a SCORM 1.2/2004 or cmi5 package (the zip as the raw body, Content-Type application/zip; name in ?name=)',
        querystring: z.object({ name: z.string().trim().min(1).max(200).default('paket.zip') }),
        response: { 201: packageSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const contentType = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
      if (contentType !== 'application/zip' || !Buffer.isBuffer(request.body))
        throw new DomainError('400', 'Paket naložite kot datoteko ZIP.', { status: 400, field: 'file' });
      const stored = await uploadPackage(deps, { name: safeName(request.query.name), zip: request.body, createdBy: requireAuth(request).userId });
      return reply.status(201).send(described(stored));
    },
  );

  app.get(
    '/api/packages/:id',
    {
      config: { access: PACKAGE_AUTHORS },
      schema: {
        tags,
        summary: 'What a package holds (its uploader, or who edits blocks platform-wide)',
        params: z.object({ id: idParam }),
        response: { 200: packageSchema, ...errorResponses },
      },
    },
    async (request) => {
      const stored = await deps.packages.describe(request.params.id);
      const subject = requireAuth(request).subject;
      if (!stored || !mayUsePackage(can(subject, 1025, { kind: 'system' }), subject.userId, stored.createdBy))
        throw new DomainError('404', 'Paket ne obstaja.', { status: 404 });
      return described(stored);
    },
  );

  const takeCourse = { ...config, access: anyOf(COURSE_TAKERS, 'Izobraževanja lahko opravljajo le udeleženci.') };
  app.post(
    '/api/user-courses/:id/blocks/:blockId/package/launch',
    {
      config: takeCourse,
      bodyLimit: STEP_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Launch an item (SCO or AU) of a package block: the URL on the content origin and the saved state to resume from',
        params: blockParams,
        body: z.object({ itemId: z.string().min(1).max(2000) }).strict(),
        response: {
          200: z.object({
            standard: z.enum(['scorm12', 'scorm2004', 'cmi5']),
            registration: z.string(),
            session: z.string(),
            itemId: z.string(),
            url: z.string(),
            contentOrigin: z.string(),
            resume: z.object({
              completion: z.string().nullable(),
              success: z.string().nullable(),
              score: z.number().nullable(),
              location: z.string().nullable(),
              suspendData: z.string().nullable(),
              totalSeconds: z.number(),
            }),
          }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { position, ...launched } = await launchPackageItem(
        deps,
        { userId: requireAuth(request).userId, courseId: request.params.id, blockId: request.params.blockId, itemId: request.body.itemId },
        commandMetadata(request),
      );
      return withPosition(reply, position).send(launched);
    },
  );

  app.post(
    '/api/user-courses/:id/blocks/:blockId/package/commit',
    {
      config: takeCourse,
      bodyLimit: STEP_BODY_LIMIT,
      schema: {
        tags,
        summary: "A SCORM package's commit, forwarded by the player: the CMI data once per commit, idempotent by reportId",
        params: blockParams,
        body: z
          .object({
            registration: z.string().max(40),
            session: z.string().max(40),
            reportId: z.string().min(8).max(100),
            cmi: z.record(z.string(), z.unknown()),
          })
          .strict(),
        response: { 200: z.object({ events: z.array(z.string()), completed: z.boolean() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await commitScorm(
        deps,
        { userId: requireAuth(request).userId, courseId: request.params.id, blockId: request.params.blockId, ...request.body },
        commandMetadata(request),
      );
      return withPosition(reply, result.position).send({ events: result.events.map((e) => e.type), completed: result.completed });
    },
  );
};
