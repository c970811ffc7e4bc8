import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ConsentOrigin } from '../../domain/consents/consent.decide.ts';
import { CONSENT_TEXTS, consentTypeRule, onBehalfRule } from '../../domain/consents/consent.rules.ts';
import { type ConsentEvent, consentsAsOf, holds } from '../../domain/consents/consent.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { idParam } from '../../domain/shared/id.rules.ts';
import { AUTHENTICATED, commandMetadata, errorResponses, type HttpApp, requireAuth, system, withPosition } from '../../infrastructure/http/http.port.ts';
import { findCurrentUser } from '../../projections/users/users.queries.ts';
import { type ConsentAuditDeps, registerConsentAuditRoutes } from './consent-audit.routes.ts';
import { standingSchema, timelineRowSchema, toStanding, toTimeline } from './consent-views.ts';
import { type ConsentsDeps, consentHistory, giveConsents, withdrawConsent } from './consents.ts';

const tags = ['consents'];
const typeParams = z.object({ type: z.coerce.number().pipe(consentTypeRule) });
const idParams = z.object({ id: idParam });
const changedResponse = z.object({ changed: z.array(z.number()) });

const originOf = (request: FastifyRequest, channel: 'web' | 'mobile' | 'admin', onBehalfOf: ConsentOrigin['onBehalfOf'] = null): ConsentOrigin => ({
  channel,
  ip: request.ip ?? null,
  userAgent: request.headers['user-agent'] ? String(request.headers['user-agent']).slice(0, 300) : null,
  onBehalfOf,
});

/** A consent is personal: an admin inside a "log in as" session records it through the on-behalf route, with a note. */
const ownSession = (request: FastifyRequest) => {
  const auth = requireAuth(request);
  if (auth.realUserId !== null) {
    throw new DomainError('403', 'Privolitev lahko da ali prekliče le uporabnik sam. Skrbnik jo vnese v imenu uporabnika z opombo.', { status: 403 });
  }
  return auth;
};

const myConsents = z.object({
  texts: z.array(z.object({ type: z.number(), title: z.string(), text: z.string(), version: z.string(), required: z.boolean() })),
  standings: z.array(standingSchema),
  missing: z.array(z.number()),
  history: z.array(timelineRowSchema),
});

/**
 * Consents (issue 6): the user's own (open to a user who lacks them, so they can give them), and
 * an admin's entry on a user's behalf (1006 user update) with a mandatory note.
 */
export const registerConsentRoutes = (app: HttpApp, deps: ConsentsDeps & ConsentAuditDeps) => {
  const own = { access: AUTHENTICATED, withoutConsents: true, readModels: ['consents'] } as const;

  app.get(
    '/api/users/me/consents',
    {
      config: own,
      schema: {
        tags,
        summary: 'The consent texts, where the caller stands, what is missing, and their own history',
        response: { 200: myConsents, ...errorResponses },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const history = await consentHistory(deps.store, auth.userId);
      const events = history.map((h) => h.event);
      const state = consentsAsOf(events, deps.now());
      return {
        texts: [...CONSENT_TEXTS],
        standings: toStanding(state),
        missing: CONSENT_TEXTS.filter((t) => t.required && !holds(state, t.type, t.version)).map((t) => t.type),
        history: await toTimeline(history, deps.userNames),
      };
    },
  );

  app.post(
    '/api/users/me/consents',
    {
      config: own,
      schema: {
        tags,
        summary: 'Give consents to the texts of the versions shown',
        body: z
          .object({
            consents: z
              .array(z.object({ type: consentTypeRule, textVersion: z.string().trim().min(1).max(40) }).strict())
              .min(1, { error: 'Izberite vsaj eno privolitev.' })
              .max(4),
            channel: z.enum(['web', 'mobile']).default('web'),
          })
          .strict(),
        response: { 200: changedResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const auth = ownSession(request);
      const result = await giveConsents(
        deps,
        auth.userId,
        request.body.consents.map((c) => ({ consentType: c.type, textVersion: c.textVersion })),
        originOf(request, request.body.channel),
        commandMetadata(request),
      );
      return withPosition(reply, result.position).send({ changed: result.events.map((e) => e.data.consentType) });
    },
  );

  app.post(
    '/api/users/me/consents/:type/withdraw',
    { config: own, schema: { tags, summary: 'Withdraw one consent', params: typeParams, response: { 200: changedResponse, ...errorResponses } } },
    async (request, reply) => {
      const auth = ownSession(request);
      const result = await withdrawConsent(deps, auth.userId, request.params.type, originOf(request, 'web'), commandMetadata(request));
      return withPosition(reply, result.position).send({ changed: result.events.map((e: ConsentEvent) => e.data.consentType) });
    },
  );

  app.post(
    '/api/users/:id/consents',
    {
      config: { access: system(1006), readModels: ['consents', 'users'] },
      schema: {
        tags,
        summary: "An admin records a consent given or withdrawn on the user's behalf (e.g. on paper), with a note",
        params: idParams,
        body: onBehalfRule,
        response: { 200: changedResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      if (!(await findCurrentUser(deps.db, request.params.id))) throw new DomainError('404', 'Uporabnik ne obstaja.', { status: 404 });
      const origin = originOf(request, 'admin', { adminId: auth.realUserId ?? auth.userId, note: request.body.note });
      const { type } = request.body;
      const text = CONSENT_TEXTS.find((t) => t.type === type);
      const result =
        request.body.action === 'give'
          ? await giveConsents(deps, request.params.id, [{ consentType: type, textVersion: text?.version ?? '' }], origin, commandMetadata(request))
          : await withdrawConsent(deps, request.params.id, type, origin, commandMetadata(request));
      return withPosition(reply, result.position).send({ changed: result.events.map((e: ConsentEvent) => e.data.consentType) });
    },
  );

  registerConsentAuditRoutes(app, deps);
};
