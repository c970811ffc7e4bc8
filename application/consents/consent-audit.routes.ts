import { z } from 'zod';
import { CONTACT_CHANNELS } from '../../domain/consents/consent.rules.ts';
import { consentsAsOf } from '../../domain/consents/consent.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { idParam } from '../../domain/shared/id.rules.ts';
import { errorResponses, type HttpApp, requireAuth, system } from '../../infrastructure/http/http.port.ts';
import type { ConsentReport, ConsentReportRenderer } from '../../infrastructure/reports/consent-report.port.ts';
import { auditUserItem, findAuditSubject, type findCurrentUser, searchUsersForAudit } from '../../projections/users/users.queries.ts';
import { type ConsentProofDeps, checkConsentStream, consentReceipt, takeConsentCheckpoint } from './consent-checkpoints.ts';
import { standingSchema, timelineRowSchema, toStanding, toTimeline, toVerification, verificationSchema } from './consent-views.ts';
import { type ConsentsDeps, consentHashes, consentHistory, contactAllowed, verifyHistory } from './consents.ts';

type UsersDb = Parameters<typeof findCurrentUser>[0];

export type ConsentAuditDeps = ConsentsDeps & {
  readonly db: UsersDb;
  /** The signed checkpoints the log is verified against (decision 0052). */
  readonly proof: ConsentProofDeps;
  readonly reports: ConsentReportRenderer;
  readonly userNames: (ids: readonly number[]) => Promise<Map<number, string>>;
};

/** Permission 1070 (decision 0013): admins and auditors. Everything here is replayed from the user's consent events. */
const AUDIT = system(1070);
const tags = ['consents'];
const idParams = z.object({ id: idParam });
const asOfQuery = z.object({ asOf: z.iso.datetime({ offset: true, error: 'Vnesite veljaven datum in čas.' }).optional() });

const historyResponse = z.object({
  user: auditUserItem,
  asOf: z.string().nullable(),
  standing: z.array(standingSchema),
  timeline: z.array(timelineRowSchema),
  verification: verificationSchema,
});

/** The auditor's view of one user, shared by the page and the exports. */
const auditReport = async (deps: ConsentAuditDeps, userId: number, asOf: Date | null) => {
  const user = await findAuditSubject(deps.db, userId);
  if (!user) throw new DomainError('404', 'Uporabnik ne obstaja.', { status: 404 });
  const history = await consentHistory(deps.store, userId);
  const events = history.map((h) => h.event);
  const verification = await verified(deps, userId, history);
  return {
    user: { id: user.id, fullName: user.fullName, username: user.username, email: user.email },
    asOf: asOf ? asOf.toISOString() : null,
    standing: toStanding(consentsAsOf(events, asOf ?? deps.now())),
    timeline: await toTimeline(history, deps.userNames),
    verification,
  };
};

/** The chain as stored, then the stream against the latest signed checkpoint: both must hold (decision 0052). */
const verified = async (deps: ConsentAuditDeps, userId: number, history: Awaited<ReturnType<typeof consentHistory>>) => {
  const chain = toVerification(verifyHistory(userId, history));
  const checkpoint = await checkConsentStream(deps.proof, userId, consentHashes(history));
  return { ...chain, valid: chain.valid && (checkpoint?.valid ?? true), checkpoint };
};

const anchoredSchema = z.object({
  checkpoint: z.object({ sequence: z.number(), at: z.string(), count: z.number(), root: z.string(), previous: z.string().nullable() }),
  signature: z.string(),
  publicKey: z.string(),
});

const toReport = async (deps: ConsentAuditDeps, report: Awaited<ReturnType<typeof auditReport>>, now: Date): Promise<ConsentReport> => {
  const receipt = await consentReceipt(deps.proof, report.user.id);
  return {
    ...report,
    generatedAt: now,
    asOf: report.asOf ? new Date(report.asOf) : null,
    receipt: receipt
      ? {
          root: receipt.checkpoint.root,
          signature: receipt.signature,
          publicKey: receipt.publicKey,
          path: receipt.proof?.path.map((step) => `${step.side === 'left' ? 'L' : 'D'}:${step.hash}`) ?? [],
        }
      : null,
  };
};

export const registerConsentAuditRoutes = (app: HttpApp, deps: ConsentAuditDeps) => {
  const config = { access: AUDIT, readModels: ['users'] } as const;

  app.get(
    '/api/consents/users',
    {
      config,
      schema: {
        tags,
        summary: 'Find a user to audit by name, username, e-mail or id',
        querystring: z.object({ search: z.string().trim().min(2, { error: 'Vnesite vsaj 2 znaka.' }).max(200) }),
        response: { 200: z.object({ items: z.array(auditUserItem) }), ...errorResponses },
      },
    },
    async (request) => ({ items: await searchUsersForAudit(deps.db, request.query.search) }),
  );

  app.get(
    '/api/users/:id/consents/history',
    {
      config,
      schema: {
        tags,
        summary: "A user's consent timeline, where each consent stood as of a date and time (default now), and the chain check",
        params: idParams,
        querystring: asOfQuery,
        response: { 200: historyResponse, ...errorResponses },
      },
    },
    async (request) => auditReport(deps, request.params.id, request.query.asOf ? new Date(request.query.asOf) : null),
  );

  app.get(
    '/api/users/:id/consents/verify',
    {
      config,
      schema: {
        tags,
        summary: "Recompute the hash chain of a user's consent events as stored",
        params: idParams,
        response: { 200: verificationSchema, ...errorResponses },
      },
    },
    async (request) => {
      if (!(await findAuditSubject(deps.db, request.params.id))) throw new DomainError('404', 'Uporabnik ne obstaja.', { status: 404 });
      return verified(deps, request.params.id, await consentHistory(deps.store, request.params.id));
    },
  );

  app.post(
    '/api/consents/checkpoints',
    {
      config: { access: AUDIT },
      schema: {
        tags,
        summary:
          'Sign a checkpoint of every consent stream now (also taken every 5 minutes while consents change): its Merkle root, anchored outside the database',
        response: { 201: anchoredSchema, ...errorResponses },
      },
    },
    async (_request, reply) => reply.status(201).send(await takeConsentCheckpoint(deps.proof)),
  );

  app.get(
    '/api/users/:id/consents/receipt',
    {
      config,
      schema: {
        tags,
        summary: "A receipt of the user's consent stream: the latest signed checkpoint and the stream's inclusion proof (verify it with the public key)",
        params: idParams,
        response: { 200: anchoredSchema.extend({ proof: z.unknown() }), ...errorResponses },
      },
    },
    async (request) => {
      if (!(await findAuditSubject(deps.db, request.params.id))) throw new DomainError('404', 'Uporabnik ne obstaja.', { status: 404 });
      const receipt = await consentReceipt(deps.proof, request.params.id);
      if (!receipt) throw new DomainError('404', 'Podpisane kontrolne točke še ni.', { status: 404 });
      return receipt;
    },
  );

  for (const format of ['xlsx', 'pdf'] as const) {
    app.get(
      `/api/users/:id/consents/history.${format}`,
      {
        config: { ...config, expensive: 'render' },
        schema: { tags, summary: `The consent history as ${format.toUpperCase()}`, params: idParams, querystring: asOfQuery },
      },
      async (request, reply) => {
        const report = await toReport(deps, await auditReport(deps, request.params.id, request.query.asOf ? new Date(request.query.asOf) : null), deps.now());
        const owner = `user-${requireAuth(request).userId}`;
        const body = format === 'xlsx' ? await deps.reports.xlsx(report, owner) : await deps.reports.pdf(report, owner);
        const type = format === 'xlsx' ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'application/pdf';
        return reply
          .header('content-type', type)
          .header('content-disposition', `attachment; filename="privolitve-${request.params.id}.${format}"`)
          .header('cache-control', 'no-store')
          .send(body);
      },
    );
  }

  app.get(
    '/api/users/:id/consents/contact',
    {
      config,
      schema: {
        tags,
        summary: 'May this user be contacted on this channel at this time (default now)? From the consent history',
        params: idParams,
        querystring: z.object({ channel: z.enum(CONTACT_CHANNELS), at: z.iso.datetime({ offset: true }).optional() }),
        response: { 200: z.object({ allowed: z.boolean(), missing: z.array(z.number()) }), ...errorResponses },
      },
    },
    async (request) => {
      const answer = await contactAllowed(deps.store, request.params.id, request.query.channel, request.query.at ? new Date(request.query.at) : deps.now());
      return { allowed: answer.allowed, missing: [...answer.missing] };
    },
  );
};
