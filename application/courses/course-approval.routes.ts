import { z } from 'zod';
import { approvalScopeParam, approvalSettingsRule } from '../../domain/courses/approval-settings.rules.ts';
import { systemPermissionsOf } from '../../domain/permissions/role-permissions.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { idParam } from '../../domain/shared/id.rules.ts';
import { anyOf, commandMetadata, errorResponses, type HttpApp, requireAuth, system, withPosition } from '../../infrastructure/http/http.port.ts';
import { approvalCandidates, approvalInbox, inboxItem } from '../../projections/courses/course-approvals.queries.ts';
import { courseOwner } from '../../projections/courses/courses.queries.ts';
import { organisationReferences } from '../../projections/organisation/organisation.queries.ts';
import type { AttemptLimits } from '../shared/attempt-limits.ts';
import { guardAttempts } from '../shared/attempt-limits.ts';
import {
  type ApprovalDeps,
  approvalSettingsView,
  approvalVersionContent,
  courseApprovalView,
  requestSignatureCode,
  setApprovalSettings,
  signApproval,
  submitForApproval,
  withdrawApproval,
} from './course-approval.ts';

const tags = ['course approval'];
const config = { readModels: ['courses', 'users', 'organisation', 'course_approvals'] as const };
const idParams = z.object({ id: idParam });
const hash = z.string().regex(/^[0-9a-f]{64}$/, { error: 'Neveljavna zgoščena vrednost vsebine.' });
const comment = z.string().max(2000, { error: 'Vnos je predolg' }).nullish();
const okResponse = z.object({ id: z.number() }).passthrough();

/** The roles whose holders hold 1071: the admin and the approver (decision 0063). */
const APPROVING_ROLES = Object.values(ROLE).filter((roleId) => systemPermissionsOf([roleId]).includes(1071));

const stepView = z.object({
  key: z.string(),
  label: z.string(),
  decision: z.enum(['approved', 'rejected']).nullable(),
  signerName: z.string().nullable(),
  signedAt: z.string().nullable(),
  comment: z.string().nullable(),
  meaning: z.string().nullable(),
  meaningToSign: z.object({ approved: z.string(), rejected: z.string() }).nullable(),
  mayISign: z.boolean(),
});
const approvalView = z.object({
  required: z.boolean(),
  scope: z.union([z.literal('platform'), z.number()]),
  enabled: z.boolean(),
  codePrefix: z.string(),
  steps: z.array(z.object({ key: z.string(), label: z.string() })),
  contentHash: z.string(),
  current: z
    .object({
      approvalVersion: z.number(),
      status: z.enum(['pending', 'approved', 'rejected', 'withdrawn']),
      contentHash: z.string(),
      contentVersion: z.number(),
      submittedBy: z.object({ id: z.number(), name: z.string() }).nullable(),
      submittedAt: z.string(),
      comment: z.string().nullable(),
      code: z.string().nullable(),
      grantedAt: z.string().nullable(),
      steps: z.array(stepView),
    })
    .nullable(),
  lastApproved: z.object({ approvalVersion: z.number(), contentHash: z.string(), code: z.string(), grantedAt: z.string() }).nullable(),
  published: z.object({ contentHash: z.string().nullable(), approvalCode: z.string().nullable() }).nullable(),
  isPublished: z.boolean(),
  upToDate: z.boolean(),
  missing: z.array(z.string()),
  versions: z.array(z.object({ approvalVersion: z.number(), status: z.string(), contentHash: z.string(), code: z.string().nullable() })),
  /** For a caller holding 1071: whether they have a password to sign with, and whether signing asks for the second factor's code. */
  signing: z.object({ passwordSet: z.boolean(), secondFactor: z.boolean() }).nullable(),
});

/**
 * Approval before publishing (issue 36, decision 0063; the shared contract of the session). Settings
 * per scope (read with 1011, changed only by admins: 1073); a course's approval read by its editors, the scope's approvers and the
 * auditor (1072); submitted and withdrawn by its editors (1019, or 2006 on its community's own
 * course); signed by approvers (1071) named on the step, re-entering their password.
 */
export const registerCourseApprovalRoutes = (app: HttpApp, deps: ApprovalDeps & { readonly attempts?: AttemptLimits }) => {
  const owner = (located: { params: Readonly<Record<string, unknown>> }) => courseOwner(deps.db, located.params.id as number);
  const editors = { ...config, access: anyOf([{ system: 1019 }, { community: 2006, scope: owner }]) };
  const readers = { ...config, access: anyOf([{ system: 1019 }, { community: 2006, scope: owner }, { system: 1071 }, { system: 1072 }]) };

  // ---------------------------------------------------------------- settings
  const scopeParams = z.object({ scope: approvalScopeParam });
  const checkScope = async (scope: 'platform' | number) => {
    if (scope !== 'platform' && (await organisationReferences(deps.db, 'company', [scope])).length === 0)
      throw new DomainError('404', 'Podjetje ne obstaja.', { status: 404 });
  };
  app.get(
    '/api/approval-settings/:scope',
    {
      config: { ...config, access: system(1011) },
      schema: {
        tags,
        summary:
          "A scope's approval settings ('platform' or a company id): on or off, the code prefix, the steps with their approvers; and who may be named (holders of 1071)",
        params: scopeParams,
      },
    },
    async (request) => {
      await checkScope(request.params.scope);
      return { ...(await approvalSettingsView(deps, request.params.scope)), candidates: await approvalCandidates(deps.db, APPROVING_ROLES) };
    },
  );
  // Decision 0063: 1073 (admins only): an editor (1011) who could switch approval off could publish unapproved content.
  app.put(
    '/api/approval-settings/:scope',
    {
      config: { ...config, access: system(1073) },
      schema: {
        tags,
        summary:
          "Set a scope's approval settings (1073, admins); every approver must hold 1071 (the approver role); `warnings` name a person who is a step's only approver in several steps",
        params: scopeParams,
        body: approvalSettingsRule,
        response: { 200: z.object({ scope: z.union([z.literal('platform'), z.number()]), warnings: z.array(z.string()) }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await checkScope(request.params.scope);
      const result = await setApprovalSettings(deps, request.params.scope, request.body, commandMetadata(request));
      return withPosition(reply, result.position).send({ scope: request.params.scope, warnings: result.warnings });
    },
  );

  // ---------------------------------------------------------------- a course's approval
  app.get(
    '/api/courses/:id/approval',
    {
      config: readers,
      schema: {
        tags,
        summary:
          "A course's approval: whether required, the steps, the content hash now, the current version with its signatures, the last approved, what was published",
        params: idParams,
        response: { 200: approvalView, ...errorResponses },
      },
    },
    async (request) => courseApprovalView(deps, requireAuth(request).subject, request.params.id),
  );
  app.get(
    '/api/courses/:id/approval/versions/:approvalVersion/content',
    {
      config: readers,
      schema: {
        tags,
        summary: 'The content a version was submitted with (course fields that are content, blocks, attachments), for the review and the diff',
        params: idParams.extend({ approvalVersion: idParam }),
      },
    },
    async (request) => approvalVersionContent(deps, requireAuth(request).subject, request.params.id, request.params.approvalVersion),
  );
  app.post(
    '/api/courses/:id/approval/submit',
    {
      config: editors,
      schema: {
        tags,
        summary: 'Submit the course’s content as it is (its hash) for approval',
        params: idParams,
        body: z.object({ contentHash: hash, comment }).strict(),
        response: { 200: okResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await submitForApproval(
        deps,
        request.params.id,
        { contentHash: request.body.contentHash, comment: request.body.comment ?? null },
        { userId: requireAuth(request).userId },
        commandMetadata(request),
      );
      return withPosition(reply, result.position).send({ id: result.id, approvalVersion: result.approvalVersion });
    },
  );
  app.post(
    '/api/courses/:id/approval/withdraw',
    {
      config: editors,
      schema: {
        tags,
        summary: 'Withdraw the version waiting for approval',
        params: idParams,
        body: z.object({ approvalVersion: z.number().int().positive(), comment }).strict(),
        response: { 200: okResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await withdrawApproval(
        deps,
        request.params.id,
        { approvalVersion: request.body.approvalVersion, comment: request.body.comment ?? null },
        requireAuth(request).userId,
        commandMetadata(request),
      );
      return withPosition(reply, result.position).send({ id: result.id });
    },
  );
  app.post(
    '/api/courses/:id/approval/sign',
    {
      config: { ...config, access: system(1071) },
      schema: {
        tags,
        summary:
          'Sign a step of the pending version (1071, named on the step), re-entering the password: approve or reject (with a reason); 409 for another version or content (a replayed or forged signature)',
        params: idParams,
        body: z
          .object({
            approvalVersion: z.number().int().positive(),
            step: z.string().min(1).max(40),
            decision: z.enum(['approved', 'rejected']),
            comment,
            contentHash: hash,
            password: z.string().min(1, { error: 'Vpišite geslo.' }).max(200),
            // Where the signer has the second factor on (decision 0063): the challenge of POST .../approval/sign/code and the mailed code.
            secondFactorChallenge: z.uuid({ error: 'Zahtevajte kodo za podpis.' }).nullish(),
            secondFactorCode: z
              .string()
              .trim()
              .regex(/^\d{6}$/, { error: 'Koda ima 6 številk.' })
              .nullish(),
          })
          .strict(),
        response: { 200: okResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      // A password guessed from a session left open: the budget of a password change.
      if (deps.attempts) await guardAttempts(deps.attempts, reply, 'password-change', { account: String(auth.userId), address: request.ip });
      const { password, secondFactorChallenge, secondFactorCode, ...rest } = request.body;
      const result = await signApproval(
        deps,
        request.params.id,
        { ...rest, comment: rest.comment ?? null, password, secondFactorChallenge: secondFactorChallenge ?? null, secondFactorCode: secondFactorCode ?? null },
        auth.subject,
        commandMetadata(request),
      );
      return withPosition(reply, result.position).send({ id: result.id, code: result.code });
    },
  );
  app.post(
    '/api/courses/:id/approval/sign/code',
    {
      config: { ...config, access: system(1071) },
      schema: {
        tags,
        summary:
          "The second factor's code for a signature, by mail (1071; only for a signer who has the second factor on); answers the challenge the signature names",
        params: idParams,
        response: { 200: z.object({ challengeId: z.string(), expiresAt: z.string() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      // Each code is a mail: the budget of a login's "send a new code".
      if (deps.attempts) await guardAttempts(deps.attempts, reply, 'second-factor-resend', { account: String(auth.userId), address: request.ip });
      const result = await requestSignatureCode(deps, request.params.id, auth.subject, commandMetadata(request));
      return withPosition(reply, result.position).send({ challengeId: result.challengeId, expiresAt: result.expiresAt });
    },
  );

  // ---------------------------------------------------------------- what waits for me
  app.get(
    '/api/approvals/inbox',
    {
      config: { ...config, access: system(1071) },
      schema: {
        tags,
        summary: 'The steps waiting for the caller’s signature (1071): courses of the scopes that name them; `total` is the admin home’s count',
        response: { 200: z.object({ items: z.array(inboxItem), total: z.number() }), ...errorResponses },
      },
    },
    async (request) => {
      const items = await approvalInbox(deps.db, requireAuth(request).userId);
      return { items, total: items.length };
    },
  );
};
