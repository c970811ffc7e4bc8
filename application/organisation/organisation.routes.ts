import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import {
  type CompanyFields,
  communityGroupRule,
  companyRule,
  professionGroupRule,
  professionRule,
  signatureRule,
  tagKindRule,
  tagRule,
  unitRule,
} from '../../domain/organisation/organisation.rules.ts';
import { can } from '../../domain/permissions/can.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { FEATURE_OFF_MESSAGE, type FeatureFlags } from '../../domain/shared/features.ts';
import { idParam, refId } from '../../domain/shared/id.rules.ts';
import type { AllPosition } from '../../infrastructure/event-store/event-store.port.ts';
import type { FileStore } from '../../infrastructure/files/file-store.port.ts';
import { anyOf, commandMetadata, errorResponses, type HttpApp, requireAuth, system, withPosition } from '../../infrastructure/http/http.port.ts';
import { getTag, unitPublished, unitScope } from '../../projections/organisation/organisation.queries.ts';
import { createCommunityGroup, deleteCommunityGroup, updateCommunityGroup } from './community-groups.ts';
import { changeCompanySignature, createCompany, deleteCompany, updateCompany } from './companies.ts';
import { changeMembership } from './members.ts';
import type { OrganisationDeps } from './organisation.deps.ts';
import { createProfession, createProfessionGroup, deleteProfession, renameProfessionGroup, updateProfession } from './professions.ts';
import { createTag, deleteTag, updateTag } from './tags.ts';
import { changeUnit, createUnit, deleteUnit } from './units.ts';

const TAGS_FORBIDDEN = 'Nimate pravic za upravljanje z značkami.';
const idParams = z.object({ id: idParam });
const idResponse = z.object({ id: z.number() });
/** Commands whose references are checked in the organisation read model wait for the writer's last write first. */
const config = { readModels: ['organisation'] as const };

const created = (reply: FastifyReply, result: { id: number; position: AllPosition | null }) =>
  withPosition(reply, result.position).status(201).send({ id: result.id });
const done = (reply: FastifyReply, result: { id: number; position: AllPosition | null }) => withPosition(reply, result.position).send({ id: result.id });

/**
 * The organisation's commands: companies (1010, 1011), units (1010; 1011 or 2001 in the unit, where a
 * manager or director with unit_id 0 reaches every unit of the company), community groups (1063),
 * professions and profession groups (1010, 1011), tags (1062), members (1049, 1050) and joining or
 * leaving a unit (1047, 1048). docs/decisions/0009-organisation-permissions.md.
 */
/** A company's (and a unit's) external id and chamber sync belong to the "external id" feature of spec §1: refused while it is off. */
const companyFieldsFor = <T extends Pick<CompanyFields, 'externalId' | 'syncDestination'>>(fields: T, features: FeatureFlags): T => {
  if (!features.externalId && fields.externalId) throw new DomainError('400', FEATURE_OFF_MESSAGE.externalId, { status: 400, field: 'externalId' });
  if (!features.externalId && fields.syncDestination !== null) {
    throw new DomainError('400', FEATURE_OFF_MESSAGE.externalId, { status: 400, field: 'syncDestination' });
  }
  return fields;
};

export const registerOrganisationRoutes = (app: HttpApp, deps: OrganisationDeps, uploads: { files: FileStore; features: FeatureFlags }) => {
  const unitScopeOf = async (located: { params: Readonly<Record<string, unknown>> }) => unitScope(deps.db, located.params.id as number);
  const tags = ['organisation'];

  app.post(
    '/api/companies',
    { config: { ...config, access: system(1010) }, schema: { tags, body: companyRule, response: { 201: idResponse, ...errorResponses } } },
    async (request, reply) => created(reply, await createCompany(deps, companyFieldsFor(request.body, uploads.features), commandMetadata(request))),
  );
  app.put(
    '/api/companies/:id',
    {
      config: { ...config, access: system(1011), wholeRecord: true },
      schema: { tags, params: idParams, body: companyRule, response: { 200: idResponse, ...errorResponses } },
    },
    async (request, reply) =>
      done(reply, await updateCompany(deps, request.params.id, companyFieldsFor(request.body, uploads.features), commandMetadata(request))),
  );
  app.put(
    '/api/companies/:id/signature',
    { config: { ...config, access: system(1011) }, schema: { tags, params: idParams, body: signatureRule, response: { 200: idResponse, ...errorResponses } } },
    async (request, reply) => {
      // The certificate draws the signature image: it must be an uploaded PNG (spec §3 "png image").
      const imageId = request.body.imageFileId;
      if (imageId !== null && (await uploads.files.get(imageId))?.contentType !== 'image/png') {
        throw new DomainError('400', 'Slika podpisa mora biti naložena datoteka PNG.', { status: 400, field: 'imageFileId' });
      }
      return done(reply, await changeCompanySignature(deps, request.params.id, request.body, commandMetadata(request)));
    },
  );

  app.delete(
    '/api/companies/:id',
    {
      config: { ...config, access: system(1012) },
      schema: { tags, summary: 'Delete a company without units or people (1012)', params: idParams, response: { 200: idResponse, ...errorResponses } },
    },
    async (request, reply) => done(reply, await deleteCompany(deps, request.params.id, commandMetadata(request))),
  );

  app.post(
    '/api/units',
    { config: { ...config, access: system(1010) }, schema: { tags, body: unitRule, response: { 201: idResponse, ...errorResponses } } },
    async (request, reply) => created(reply, await createUnit(deps, companyFieldsFor(request.body, uploads.features), commandMetadata(request))),
  );
  app.put(
    '/api/units/:id',
    {
      config: { ...config, access: anyOf([{ system: 1011 }, { community: 2001, scope: unitScopeOf }]), wholeRecord: true },
      schema: { tags, params: idParams, body: unitRule, response: { 200: idResponse, ...errorResponses } },
    },
    async (request, reply) => {
      // Moving a unit to another company is an admin's change (1011), not a unit manager's.
      const auth = requireAuth(request);
      const scope = await unitScope(deps.db, request.params.id);
      if (scope && scope.companyId !== request.body.companyId && !can(auth.subject, 1011, { kind: 'system' })) {
        throw new DomainError('403', 'Enote ne morete prestaviti v drugo podjetje.', { status: 403, field: 'companyId' });
      }
      return done(
        reply,
        await changeUnit(deps, request.params.id, { type: 'UpdateUnit', fields: companyFieldsFor(request.body, uploads.features) }, commandMetadata(request)),
      );
    },
  );
  app.put(
    '/api/units/:id/signature',
    {
      config: { ...config, access: anyOf([{ system: 1011 }, { community: 2001, scope: unitScopeOf }]) },
      schema: {
        tags,
        summary: "The unit's own certificate signature (issue 18): it signs its people's certificates instead of its company",
        params: idParams,
        body: signatureRule,
        response: { 200: idResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const imageId = request.body.imageFileId;
      if (imageId !== null && (await uploads.files.get(imageId))?.contentType !== 'image/png') {
        throw new DomainError('400', 'Slika podpisa mora biti naložena datoteka PNG.', { status: 400, field: 'imageFileId' });
      }
      return done(reply, await changeUnit(deps, request.params.id, { type: 'ChangeUnitSignature', signature: request.body }, commandMetadata(request)));
    },
  );
  app.delete(
    '/api/units/:id/signature',
    {
      config: { ...config, access: anyOf([{ system: 1011 }, { community: 2001, scope: unitScopeOf }]) },
      schema: {
        tags,
        summary: "Remove the unit's own certificate signature: its company's signs again",
        params: idParams,
        response: { 200: idResponse, ...errorResponses },
      },
    },
    async (request, reply) =>
      done(reply, await changeUnit(deps, request.params.id, { type: 'ChangeUnitSignature', signature: null }, commandMetadata(request))),
  );
  for (const [path, type] of [
    ['publish', 'PublishUnit'],
    ['unpublish', 'UnpublishUnit'],
  ] as const) {
    app.post(
      `/api/units/:id/${path}`,
      {
        config: { ...config, access: anyOf([{ system: 1011 }, { community: 2001, scope: unitScopeOf }]) },
        schema: { tags, params: idParams, response: { 200: idResponse, ...errorResponses } },
      },
      async (request, reply) => done(reply, await changeUnit(deps, request.params.id, { type }, commandMetadata(request))),
    );
  }

  app.delete(
    '/api/units/:id',
    {
      config: { ...config, access: anyOf([{ system: 1012 }, { community: 2002, scope: unitScopeOf }]) },
      schema: {
        tags,
        summary: 'Delete a unit nobody holds a role in (1012, or 2002 in the unit)',
        params: idParams,
        response: { 200: idResponse, ...errorResponses },
      },
    },
    async (request, reply) => done(reply, await deleteUnit(deps, request.params.id, commandMetadata(request))),
  );

  app.post(
    '/api/units/:id/members',
    {
      config: { ...config, access: anyOf([{ system: 1006 }, { community: 1049, scope: unitScopeOf }]) },
      schema: { tags, params: idParams, body: z.object({ userId: refId('user') }).strict(), response: { 200: idResponse, ...errorResponses } },
    },
    async (request, reply) => {
      const by = can(requireAuth(request).subject, 1006, { kind: 'system' }) ? 'admin' : 'team';
      return done(reply, await changeMembership(deps, request.params.id, request.body.userId, 'join', commandMetadata(request), by));
    },
  );
  app.delete(
    '/api/units/:id/members/:userId',
    {
      config: { ...config, access: anyOf([{ system: 1006 }, { community: 1050, scope: unitScopeOf }]) },
      schema: { tags, params: idParams.extend({ userId: idParam }), response: { 200: idResponse, ...errorResponses } },
    },
    async (request, reply) => done(reply, await changeMembership(deps, request.params.id, request.params.userId, 'leave', commandMetadata(request))),
  );
  for (const change of ['join', 'leave'] as const) {
    app.post(
      `/api/units/:id/${change}`,
      {
        config: { ...config, access: anyOf([{ profile: change === 'join' ? 1047 : 1048 }]) },
        schema: {
          tags,
          summary:
            change === 'join'
              ? 'Join a published unit yourself (1047): only a unit of a company you already belong to (decision 0009)'
              : 'Leave a unit yourself (1048)',
          params: idParams,
          response: { 200: idResponse, ...errorResponses },
        },
      },
      async (request, reply) => {
        const auth = requireAuth(request);
        const unit = await unitPublished(deps.db, request.params.id);
        if (unit === null) throw new DomainError('404', 'Enota ne obstaja.', { status: 404 });
        if (change === 'join' && unit !== true) throw new DomainError('403', 'Tej enoti se ni mogoče pridružiti.', { status: 403 });
        return done(reply, await changeMembership(deps, request.params.id, auth.userId, change, commandMetadata(request), 'self'));
      },
    );
  }

  app.post(
    '/api/community-groups',
    { config: { ...config, access: system(1063) }, schema: { tags, body: communityGroupRule, response: { 201: idResponse, ...errorResponses } } },
    async (request, reply) => created(reply, await createCommunityGroup(deps, request.body, commandMetadata(request))),
  );
  app.put(
    '/api/community-groups/:id',
    {
      config: { ...config, access: system(1063) },
      schema: { tags, params: idParams, body: communityGroupRule, response: { 200: idResponse, ...errorResponses } },
    },
    async (request, reply) => done(reply, await updateCommunityGroup(deps, request.params.id, request.body, commandMetadata(request))),
  );

  app.delete(
    '/api/community-groups/:id',
    {
      config: { ...config, access: system(1063) },
      schema: { tags, summary: 'Delete a community group (1063); its name is free again', params: idParams, response: { 200: idResponse, ...errorResponses } },
    },
    async (request, reply) => done(reply, await deleteCommunityGroup(deps, request.params.id, commandMetadata(request))),
  );

  app.post(
    '/api/professions',
    { config: { ...config, access: system(1010) }, schema: { tags, body: professionRule, response: { 201: idResponse, ...errorResponses } } },
    async (request, reply) => created(reply, await createProfession(deps, request.body, commandMetadata(request))),
  );
  app.put(
    '/api/professions/:id',
    { config: { ...config, access: system(1011) }, schema: { tags, params: idParams, body: professionRule, response: { 200: idResponse, ...errorResponses } } },
    async (request, reply) => done(reply, await updateProfession(deps, request.params.id, request.body, commandMetadata(request))),
  );
  app.delete(
    '/api/professions/:id',
    { config: { ...config, access: system(1012) }, schema: { tags, params: idParams, response: { 200: idResponse, ...errorResponses } } },
    async (request, reply) => done(reply, await deleteProfession(deps, request.params.id, commandMetadata(request))),
  );
  app.post(
    '/api/profession-groups',
    { config: { ...config, access: system(1010) }, schema: { tags, body: professionGroupRule, response: { 201: idResponse, ...errorResponses } } },
    async (request, reply) => created(reply, await createProfessionGroup(deps, request.body.name, commandMetadata(request))),
  );
  app.put(
    '/api/profession-groups/:id',
    {
      config: { ...config, access: system(1011) },
      schema: { tags, params: idParams, body: professionGroupRule, response: { 200: idResponse, ...errorResponses } },
    },
    async (request, reply) => done(reply, await renameProfessionGroup(deps, request.params.id, request.body.name, commandMetadata(request))),
  );

  const manageTags = anyOf([{ system: 1062 }], TAGS_FORBIDDEN);
  app.post(
    '/api/tags',
    {
      config: { ...config, access: manageTags },
      schema: { tags, body: tagRule.extend({ kind: tagKindRule }), response: { 201: idResponse, ...errorResponses } },
    },
    async (request, reply) => {
      const { kind, ...input } = request.body;
      return created(reply, await createTag(deps, kind, input, commandMetadata(request)));
    },
  );
  app.put(
    '/api/tags/:id',
    { config: { ...config, access: manageTags }, schema: { tags, params: idParams, body: tagRule, response: { 200: idResponse, ...errorResponses } } },
    async (request, reply) => done(reply, await updateTag(deps, request.params.id, request.body, commandMetadata(request))),
  );
  app.delete(
    '/api/tags/:id',
    { config: { ...config, access: manageTags }, schema: { tags, params: idParams, response: { 200: idResponse, ...errorResponses } } },
    async (request, reply) => {
      if (!(await getTag(deps.db, request.params.id))) throw new DomainError('404', 'Značka ne obstaja.', { status: 404 });
      return done(reply, await deleteTag(deps, request.params.id, commandMetadata(request)));
    },
  );
};
