import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { agentKey, LEARNER_PREFERENCES_PROFILE_ID } from '../../domain/lrs/xapi.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { type HttpApp, PUBLIC, withPosition } from '../../infrastructure/http/http.port.ts';
import { type LrsDeps, launchFacts } from './lrs.ts';
import { callerAmong, callerOf, metadataOf } from './lrs-callers.ts';
import { readStatements } from './read-statements.ts';
import { deleteStateDocuments, etagOf, parseJsonParameter, readStateDocuments, saveStateDocument } from './state-documents.ts';
import { storeStatements } from './store-statements.ts';

const tags = ['xapi'];
const VERSION = '1.0.3';
/** State documents are small (a bookmark, a few answers): this much at most. */
const DOCUMENT_MAX_BYTES = 1024 * 1024;
/** What a script on the content origin may send (cmi5 AUs use these; DELETE is not offered to them). */
const CORS_METHODS = 'GET, POST, PUT';
const CORS_HEADERS = 'Authorization, Content-Type, X-Experience-API-Version';

const text = z.string().max(4000).optional();
const statementsQuery = z.object({
  statementId: text,
  voidedStatementId: text,
  agent: text,
  verb: text,
  activity: text,
  registration: text,
  since: text,
  until: text,
  limit: text,
  ascending: text,
  more: text,
  format: text,
  attachments: text,
  related_activities: text,
  related_agents: text,
});
const stateQuery = z.object({
  activityId: z.string().min(1).max(4000),
  agent: z.string().min(1).max(4000),
  registration: text,
  stateId: text,
  since: text,
});
const profileQuery = z.object({ agent: z.string().min(1).max(4000), profileId: text, since: text });

/** The learner preferences the platform gives every AU (cmi5 §11): its people learn in Slovenian. */
const LEARNER_PREFERENCES = { languagePreference: 'sl-SI' };

const documentBody = (request: FastifyRequest) => {
  const body = request.body;
  if (body === undefined || body === null || body === '') throw new DomainError('400', 'Dokument je prazen.', { status: 400 });
  const contentType = (request.headers['content-type'] ?? 'application/octet-stream').split(';')[0]?.trim().toLowerCase() || 'application/octet-stream';
  return { contentType, content: typeof body === 'string' ? body : JSON.stringify(body) };
};

/**
 * The platform's LRS (issue 35 item 4, xAPI 1.0.3): statements, the State resource and the agent
 * profile as far as cmi5 uses them, and the cmi5 fetch URL. Outside `/api` (it is the xAPI endpoint
 * AUs and LRS clients know), its callers authenticate as lrs-callers.ts says; every request but
 * `about`, the fetch URL and a preflight names the xAPI version it speaks. Scripts of the content
 * origin, and no other, may call it from a browser (CORS without credentials: the token travels in
 * the Authorization header).
 */
export const registerLrsRoutes = async (app: HttpApp, deps: LrsDeps) => {
  await app.register(async (scope) => {
    const xapi = scope.withTypeProvider<ZodTypeProvider>();
    // Documents may be any text (cmi5 AUs keep JSON, others plain text); statements are JSON, refused otherwise by their handler.
    xapi.addContentTypeParser('*', { parseAs: 'string', bodyLimit: DOCUMENT_MAX_BYTES }, (_request, body, done) => done(null, body));

    xapi.addHook('onRequest', async (request) => {
      const path = request.url.split('?')[0] ?? '';
      if (request.method === 'OPTIONS' || path === '/xapi/about' || path.startsWith('/xapi/cmi5/fetch/')) return;
      const version = request.headers['x-experience-api-version'];
      if (typeof version !== 'string' || !/^1\.0(\.\d{1,3})?$/.test(version.trim())) {
        throw new DomainError('400', 'Glava X-Experience-API-Version mora navesti različico xAPI 1.0.x.', { status: 400, field: 'X-Experience-API-Version' });
      }
    });
    xapi.addHook('onSend', async (request, reply, payload) => {
      reply.header('X-Experience-API-Version', VERSION);
      reply.header('Vary', 'Origin');
      if (request.headers.origin === deps.contentOrigin) {
        reply.header('Access-Control-Allow-Origin', deps.contentOrigin);
        reply.header('Access-Control-Expose-Headers', 'ETag, X-Experience-API-Version, X-Experience-API-Consistent-Through');
      }
      return payload;
    });

    xapi.options('/xapi/*', { config: { access: PUBLIC }, schema: { hide: true } }, async (request, reply) => {
      if (request.headers.origin !== deps.contentOrigin) throw new DomainError('403', 'Izvor ne sme klicati LRS.', { status: 403 });
      return reply
        .header('Access-Control-Allow-Methods', CORS_METHODS)
        .header('Access-Control-Allow-Headers', CORS_HEADERS)
        .header('Access-Control-Max-Age', '600')
        .status(204)
        .send();
    });

    xapi.get('/xapi/about', { config: { access: PUBLIC }, schema: { tags, summary: 'xAPI about: the versions this LRS speaks' } }, async () => ({
      version: [VERSION],
    }));

    xapi.post(
      '/xapi/cmi5/fetch/:fetchToken',
      {
        config: { access: PUBLIC },
        schema: {
          tags,
          summary: 'cmi5 §8.2: the one-time fetch URL answers the auth token once; later (or for an unknown token) the cmi5 error JSON, still 200',
          params: z.object({ fetchToken: z.string().max(200) }),
        },
      },
      async (request, reply) => {
        const token = await deps.packageLaunches.redeemFetchToken(request.params.fetchToken);
        reply.header('Cache-Control', 'no-store');
        if (token !== null) return { 'auth-token': token };
        return { 'error-code': '1', 'error-text': 'Žeton za ta zagon je že bil prevzet ali je potekel.' };
      },
    );

    xapi.get(
      '/xapi/statements',
      {
        config: { access: PUBLIC, readModels: ['lrs'] },
        schema: {
          tags,
          summary: 'Statements: one by statementId/voidedStatementId, or a page with agent, verb, activity, registration, since, until, limit, ascending, more',
          querystring: statementsQuery,
        },
      },
      async (request, reply) => {
        const caller = callerAmong(await callerOf(deps, request), ['launch', 'client', 'reader']);
        const reader =
          caller.kind === 'launch' ? caller : caller.kind === 'client' ? { kind: 'client' as const } : { kind: 'reader' as const, subject: caller.subject };
        const answer = await readStatements(deps, reader, request.query);
        reply.header('X-Experience-API-Consistent-Through', deps.now().toISOString());
        if (answer.kind === 'one') {
          if (!answer.statement) throw new DomainError('404', 'Izjava ne obstaja.', { status: 404 });
          return answer.statement;
        }
        return { statements: answer.statements, more: answer.more };
      },
    );

    const store = async (request: FastifyRequest, reply: FastifyReply, statementId: string | null) => {
      const caller = callerAmong(await callerOf(deps, request), ['launch', 'client']);
      const result = await storeStatements(deps, caller, request.body, { statementId, metadata: metadataOf(request, caller) });
      withPosition(reply, result.position);
      return result.ids;
    };
    xapi.put(
      '/xapi/statements',
      {
        config: { access: PUBLIC },
        schema: {
          tags,
          summary: 'Store one statement under the id the query names (204; the same again: 204, other content: 409)',
          querystring: z.object({ statementId: z.string().max(100) }),
        },
      },
      async (request, reply) => {
        await store(request, reply, request.query.statementId);
        return reply.status(204).send();
      },
    );
    xapi.post(
      '/xapi/statements',
      { config: { access: PUBLIC }, schema: { tags, summary: 'Store a statement or a list of them, all or none; answers their ids' } },
      async (request, reply) => reply.status(200).send(await store(request, reply, null)),
    );

    const launchOf = async (request: FastifyRequest) => callerAmong(await callerOf(deps, request), ['launch']);

    xapi.get(
      '/xapi/activities/state',
      {
        config: { access: PUBLIC },
        schema: { tags, summary: "A launch's state document (cmi5 §10 LMS.LaunchData and the AU's own), or their ids", querystring: stateQuery },
      },
      async (request, reply) => {
        const caller = await launchOf(request);
        const answer = await readStateDocuments(deps, caller.launch, request.query);
        if (answer.kind === 'ids') return answer.ids;
        if (!answer.document) throw new DomainError('404', 'Dokument ne obstaja.', { status: 404 });
        return reply
          .header('Content-Type', answer.document.contentType)
          .header('ETag', etagOf(answer.document))
          .header('Last-Modified', new Date(answer.document.updatedAt).toUTCString())
          .send(answer.document.content);
      },
    );
    for (const method of ['PUT', 'POST'] as const) {
      xapi.route({
        method,
        url: '/xapi/activities/state',
        config: { access: PUBLIC },
        schema: { tags, summary: method === 'PUT' ? 'Store a state document' : 'Merge into a JSON state document', querystring: stateQuery },
        handler: async (request, reply) => {
          const caller = await launchOf(request);
          const position = await saveStateDocument(deps, caller.launch, request.query, documentBody(request), {
            merge: method === 'POST',
            metadata: metadataOf(request, caller),
          });
          return withPosition(reply, position).status(204).send();
        },
      });
    }
    xapi.delete(
      '/xapi/activities/state',
      {
        config: { access: PUBLIC },
        schema: { tags, summary: 'Delete a state document, or all of an activity (never LMS.LaunchData)', querystring: stateQuery },
      },
      async (request, reply) => {
        const caller = await launchOf(request);
        const position = await deleteStateDocuments(deps, caller.launch, request.query, metadataOf(request, caller));
        return withPosition(reply, position).status(204).send();
      },
    );

    xapi.get(
      '/xapi/agents/profile',
      {
        config: { access: PUBLIC },
        schema: { tags, summary: 'cmi5 §11: the learner preferences (cmi5LearnerPreferences) of the launch’s learner', querystring: profileQuery },
      },
      async (request, reply) => {
        const caller = await launchOf(request);
        const { facts } = await launchFacts(deps, caller.launch);
        if (agentKey(parseJsonParameter(request.query.agent, 'agent')) !== facts.actorKey) {
          throw new DomainError('403', 'Zagon dosega le profil svojega udeleženca.', { status: 403, field: 'agent' });
        }
        if (request.query.profileId === undefined) return [LEARNER_PREFERENCES_PROFILE_ID];
        if (request.query.profileId !== LEARNER_PREFERENCES_PROFILE_ID) throw new DomainError('404', 'Profil ne obstaja.', { status: 404 });
        return reply.header('ETag', '"sl-SI"').send(LEARNER_PREFERENCES);
      },
    );
    // cmi5 §11: the LMS may keep the learner preferences to itself and answer 403; the AU must take that calmly.
    for (const method of ['PUT', 'POST', 'DELETE'] as const) {
      xapi.route({
        method,
        url: '/xapi/agents/profile',
        config: { access: PUBLIC },
        schema: { tags, summary: 'The learner preferences are the platform’s: refused (cmi5 §11 allows 403)', querystring: profileQuery },
        handler: async (request) => {
          await launchOf(request);
          throw new DomainError('403', 'Nastavitve udeleženca določa platforma.', { status: 403 });
        },
      });
    }
  });
};
