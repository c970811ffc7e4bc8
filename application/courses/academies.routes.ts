import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { academyRule } from '../../domain/courses/academy.rules.ts';
import { idParam } from '../../domain/shared/id.rules.ts';
import type { AllPosition } from '../../infrastructure/event-store/event-store.port.ts';
import { commandMetadata, errorResponses, type HttpApp, system, withPosition } from '../../infrastructure/http/http.port.ts';
import { type AcademiesDeps, changeAcademy, createAcademy } from './academies.ts';

const idParams = z.object({ id: idParam });
const idResponse = z.object({ id: z.number() });
const config = { readModels: ['academies', 'courses'] as const };

const sent = (reply: FastifyReply, status: number, result: { id: number; position: AllPosition | null }) =>
  withPosition(reply, result.position).status(status).send({ id: result.id });

/**
 * Academy authoring. An academy is a series of courses, so it takes the system course
 * permissions (1018 create, 1019 update, 1020 delete; decision 0012).
 */
export const registerAcademyRoutes = (app: HttpApp, deps: AcademiesDeps) => {
  const tags = ['academies'];
  app.post(
    '/api/academies',
    { config: { ...config, access: system(1018) }, schema: { tags, body: academyRule, response: { 201: idResponse, ...errorResponses } } },
    async (request, reply) => sent(reply, 201, await createAcademy(deps, request.body, commandMetadata(request))),
  );
  app.put(
    '/api/academies/:id',
    { config: { ...config, access: system(1019) }, schema: { tags, params: idParams, body: academyRule, response: { 200: idResponse, ...errorResponses } } },
    async (request, reply) =>
      sent(reply, 200, await changeAcademy(deps, request.params.id, { type: 'UpdateAcademy', fields: request.body }, commandMetadata(request))),
  );
  for (const [path, type] of [
    ['publish', 'PublishAcademy'],
    ['unpublish', 'UnpublishAcademy'],
  ] as const) {
    app.post(
      `/api/academies/:id/${path}`,
      { config: { ...config, access: system(1019) }, schema: { tags, params: idParams, response: { 200: idResponse, ...errorResponses } } },
      async (request, reply) => sent(reply, 200, await changeAcademy(deps, request.params.id, { type }, commandMetadata(request))),
    );
  }
  app.delete(
    '/api/academies/:id',
    { config: { ...config, access: system(1020) }, schema: { tags, params: idParams, response: { 200: idResponse, ...errorResponses } } },
    async (request, reply) => sent(reply, 200, await changeAcademy(deps, request.params.id, { type: 'DeleteAcademy' }, commandMetadata(request))),
  );
};
