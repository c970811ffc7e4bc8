import { randomUUID } from 'node:crypto';
import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZodType } from 'zod';
import type { Subject } from '../../domain/permissions/can.ts';
import { can, canSomewhere } from '../../domain/permissions/can.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { FeatureFlags } from '../../domain/shared/features.ts';
import { configureValidationMessages } from '../../domain/shared/validation-messages.rules.ts';
import type { AttemptLimiter } from '../auth/attempt-limiter.port.ts';
import type { SessionClaims, SessionTokens } from '../auth/tokens.port.ts';
import { parsePosition } from '../event-store/event-store.port.ts';
import type { ReadModelFreshness } from '../projections/projection.port.ts';
import { clientErrorAnswer, toErrorResponse } from './errors.ts';
import {
  type AuthContext,
  type ExpensiveWork,
  type HttpApp,
  type Located,
  type ReferenceResolvers,
  type RouteAccess,
  type RouteEntry,
  readMediaToken,
  unauthorized,
} from './http.port.ts';
import { parseQueryString } from './query-string.ts';
import { checkReferences } from './references.ts';
import { securityHeaders } from './security-headers.ts';
import { refuseUnstorableText } from './text-guard.ts';
import { refuseFieldsNotSent } from './whole-record.ts';

export type HttpAppOptions = {
  readonly logger: FastifyBaseLogger;
  readonly bodyLimitBytes: number;
  /** Whose X-Forwarded-For names the client (request.ip): the balancers only (TRUST_PROXY). */
  readonly trustProxy?: false | number | string[];
  readonly tokens: SessionTokens;
  /** The user behind a valid token, or null when the account or the session no longer counts. */
  readonly loadSubject: (claims: SessionClaims) => Promise<{ readonly subject: Subject; readonly missingConsents: readonly number[] } | null>;
  /**
   * Read models that know who a user is (account, roles, consents): a brand-new session, and a
   * request sent after a write (`X-Min-Position`), wait for them before the user is looked up.
   */
  readonly subjectReadModels: readonly string[];
  /** Asked only before a 422086 refusal: the required consents the user still lacks, from the source of truth. */
  readonly confirmMissingConsents: (userId: number) => Promise<readonly number[]>;
  readonly freshness: ReadModelFreshness;
  readonly readWaitMs: number;
  readonly version: string;
  readonly features: FeatureFlags;
  /** How each kind of id a body names is resolved for the caller (references.ts, decision 0047). */
  readonly references: ReferenceResolvers;
  /** Waits until the read models hold every write so far: a reference missing once is asked again after it. */
  readonly catchUp: () => Promise<void>;
  /** Counts costly requests per person across processes (routes marked `expensive`). */
  readonly limiter: AttemptLimiter;
  /** How many requests of each costly kind one person may make in an hour. */
  readonly expensivePerHour: Readonly<Record<ExpensiveWork, number>>;
  /** How many requests of a costly kind one person may have in this process at once: the rest are refused before any work. */
  readonly expensiveAtOnce: Readonly<Partial<Record<ExpensiveWork, number>>>;
  /** Other origins the platform's pages may frame: the content origin SCORM and cmi5 packages play from (issue 35). */
  readonly frameOrigins?: readonly string[];
  /** Read replicas (decision 0067): every hook and the handler of a request run in its scope, which names its database pool. */
  readonly requestScope?: {
    readonly enter: (request: FastifyRequest, next: () => void) => void;
    readonly resume: (request: FastifyRequest, next: () => void) => void;
  };
};

const TOKEN_INVALID = () => new DomainError('401', 'Seja je neveljavna ali je potekla. Prijavite se znova.', { status: 401 });
const FORBIDDEN = () => new DomainError('403', 'Nimate pravic za to dejanje.', { status: 403 });
/** spec §6: 403 with code 422086 sends the user to the consents page. */
const CONSENTS_MISSING = () =>
  new DomainError('422086', 'Za uporabo platforme potrebujemo vaše privolitve. Preberite in potrdite pogoje uporabe.', { status: 403 });

const bearer = (request: FastifyRequest): string | null => {
  const header = request.headers.authorization;
  if (!header) return request.routeOptions.config.mediaCookie ? readMediaToken(request) : null;
  const match = /^(?:JWT|Bearer)\s+(\S+)$/i.exec(header.trim());
  return match ? (match[1] as string) : '';
};

/**
 * A scope check looks the resource up (the company of a unit): the path and query must be valid
 * first, so a malformed id is a 400 and never reaches SQL.
 */
const validateLocators = (request: FastifyRequest): Located => {
  const schema = request.routeOptions.schema as { params?: unknown; querystring?: unknown } | undefined;
  const parse = (part: unknown, value: unknown) => {
    if (!(part instanceof ZodType)) return (value ?? {}) as Record<string, unknown>;
    const parsed = part.safeParse(value ?? {});
    if (!parsed.success) throw parsed.error;
    return parsed.data as Record<string, unknown>;
  };
  return { params: parse(schema?.params, request.params), query: parse(schema?.querystring, request.query) };
};

const allowed = async (access: RouteAccess, auth: AuthContext | null, request: FastifyRequest): Promise<boolean> => {
  if (access.kind === 'public') return true;
  if (!auth) throw unauthorized();
  if (access.kind === 'authenticated') return true;
  let located: Located | null = null;
  let hidden = false;
  for (const check of access.anyOf) {
    if ('system' in check) {
      if (can(auth.subject, check.system, { kind: 'system' })) return true;
      continue;
    }
    if ('communityAnywhere' in check) {
      if (canSomewhere(auth.subject, check.communityAnywhere)) return true;
      continue;
    }
    if ('profile' in check) {
      if (can(auth.subject, check.profile, { kind: 'profile', userId: auth.userId })) return true;
      continue;
    }
    if ('membershipAnywhere' in check) {
      if (can(auth.subject, check.membershipAnywhere, { kind: 'membership' })) return true;
      continue;
    }
    // Without the permission in any unit, the answer is 403 whatever the id: no lookup, nothing learnt.
    if (!canSomewhere(auth.subject, check.community)) continue;
    located ??= validateLocators(request);
    const scopes = await check.scope(located, request);
    if (scopes !== null && (Array.isArray(scopes) ? scopes : [scopes]).some((scope) => can(auth.subject, check.community, { kind: 'community', ...scope }))) {
      return true;
    }
    // A caller who holds the permission elsewhere learns nothing either: a record outside their reach is as missing as one that does not exist.
    hidden = true;
  }
  if (hidden) throw new DomainError('404', 'Vir ne obstaja.', { status: 404 });
  return false;
};

/**
 * The Fastify app every route is registered on: zod validation and serialisation, the one error
 * shape, query lists in both styles, authentication and the access check of each route in one
 * place, read-your-writes waits, security headers, rate limits for the auth routes, OpenAPI.
 */
/** The first `hops` proxies in front are believed (proxy-addr's hop index). */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

export const createHttpApp = async (options: HttpAppOptions): Promise<HttpApp> => {
  configureValidationMessages();
  const app = Fastify({
    loggerInstance: options.logger,
    bodyLimit: options.bodyLimitBytes,
    // A hop count trusts that many balancers in front; a list, only those addresses.
    trustProxy: typeof options.trustProxy === 'number' ? trustHops(options.trustProxy) : (options.trustProxy ?? false),
    routerOptions: { querystringParser: parseQueryString },
    genReqId: () => randomUUID(),
    // Requests are logged once, in onResponse, without query strings (they may carry login tokens).
    logController: new LogController({ disableRequestLogging: true }),
    // Errors Fastify answers before a route runs (a bad percent-encoding, an over-long path
    // parameter) get the platform's one error shape too.
    frameworkErrors: (error, _request, reply) => {
      const response = toErrorResponse(error);
      void (reply as unknown as FastifyReply).code(response.status).send(response.body);
    },
    // Requests Node's HTTP parser refuses (malformed, header block too large) never reach Fastify.
    clientErrorHandler: (error, socket) => {
      if (socket.writable) socket.end(clientErrorAnswer(error));
      else socket.destroy(error);
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('auth', null);
  const scope = options.requestScope;
  if (scope) {
    // First of all hooks, so authentication already reads where the request's queries go.
    app.addHook('onRequest', (request, _reply, done) => scope.enter(request, done));
    app.addHook('preValidation', (request, _reply, done) => scope.resume(request, done));
  }

  // First of the other hooks, so every answer has them, refusals included. Set on the raw response, as
  // helmet does: a route may still change one (static-ui.ts lets /glp be framed).
  const headers = securityHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // blob: for previews of an image chosen in a form (a certificate signature) before it is saved.
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'"],
        frameSrc: ["'self'", 'https://player.vimeo.com', 'https://form.typeform.com', ...(options.frameOrigins ?? [])],
        upgradeInsecureRequests: null,
      },
    },
  });
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
  await app.register(compress, { global: true, threshold: 1024, encodings: ['gzip', 'deflate'] });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Medilearn API', description: 'E-learning for healthcare professionals', version: options.version },
      components: { securitySchemes: { jwt: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'JWT <token>' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  // Every API route says who may call it; forgetting is a start-up error, not an open door.
  const catalogue: RouteEntry[] = [];
  app.decorate('routeCatalogue', () => [...catalogue]);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    const access = route.config?.access;
    if (!access) throw new Error(`Route ${route.method} ${route.url} declares no access`);
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD')
        catalogue.push({ method, url: route.url, access, feature: route.config?.feature ?? null, body: route.schema?.body, query: route.schema?.querystring });
    }
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    if (!access) return;
    const feature = request.routeOptions.config.feature;
    if (feature && !options.features[feature]) throw new DomainError('404', 'Vir ne obstaja.', { status: 404 });
    const token = bearer(request);
    if (token !== null) {
      const claims = token ? await options.tokens.verify(token) : null;
      const minPosition = typeof request.headers['x-min-position'] === 'string' ? parsePosition(request.headers['x-min-position']) : null;
      // After a write, who the user is (roles, consents given or withdrawn) is read once the read models have it,
      // and so are the route's own: a permission scoped to a record (the course a client's unit owns) is
      // decided below from them, before the handler's wait.
      if (claims && minPosition) {
        const routeReadModels = request.routeOptions.config.readModels ?? [];
        await options.freshness.waitFor([...new Set([...options.subjectReadModels, ...routeReadModels])], minPosition, options.readWaitMs);
      }
      let loaded = claims ? await options.loadSubject(claims) : null;
      if (claims && !loaded && claims.position) {
        // A session opened a moment ago may be ahead of the read model that knows its user.
        await options.freshness.waitFor(options.subjectReadModels, claims.position, options.readWaitMs);
        loaded = await options.loadSubject(claims);
      }
      if (claims && loaded) {
        request.auth = {
          userId: claims.userId,
          sessionId: claims.sessionId,
          realUserId: claims.realUserId,
          subject: loaded.subject,
          missingConsents: loaded.missingConsents,
        };
      } else if (access.kind !== 'public') {
        throw TOKEN_INVALID();
      }
    }
    // Required consents (spec §5 types 1 to 4) gate every signed-in route except those that let a user give them.
    if (access.kind !== 'public' && request.auth && request.auth.missingConsents.length > 0 && !request.routeOptions.config.withoutConsents) {
      const missing = await options.confirmMissingConsents(request.auth.userId);
      if (missing.length > 0) throw CONSENTS_MISSING();
      request.auth = { ...request.auth, missingConsents: missing };
    }
    if (!(await allowed(access, request.auth, request))) {
      throw access.kind === 'permission' && access.forbiddenMessage ? new DomainError('403', access.forbiddenMessage, { status: 403 }) : FORBIDDEN();
    }
  });

  // Permission was decided before the body was read (onRequest); now no text that cannot be stored gets further.
  app.addHook('preValidation', async (request) => {
    // Raw bytes (an image, a video) are for the upload routes; a JSON route sent them answers 415.
    if (Buffer.isBuffer(request.body) && !request.routeOptions.config.uploads) {
      throw new DomainError('415', 'Vrsta vsebine ni podprta.', { status: 415 });
    }
    refuseUnstorableText({ body: request.body, query: request.query, params: request.params });
    if (request.routeOptions.config.wholeRecord) refuseFieldsNotSent(request.routeOptions.schema?.body, request.body);
  });

  app.addHook('preHandler', async (request, reply) => {
    const readModels = request.routeOptions.config.readModels;
    const header = request.headers['x-min-position'];
    if (!readModels || readModels.length === 0 || typeof header !== 'string') return;
    const position = parsePosition(header);
    if (!position) return;
    const fresh = await options.freshness.waitFor(readModels, position, options.readWaitMs);
    if (!fresh) reply.header('X-Read-Stale', 'true');
  });

  // Costly work (a PDF drawn, an export started): so much at once per person here, then within their hourly budget (decision 0049).
  const inFlight = new Map<string, number>();
  const holding = new WeakMap<FastifyRequest, string>();
  const release = (request: FastifyRequest) => {
    const key = holding.get(request);
    if (key === undefined) return;
    holding.delete(request);
    const left = (inFlight.get(key) ?? 1) - 1;
    if (left > 0) inFlight.set(key, left);
    else inFlight.delete(key);
  };
  app.addHook('onResponse', async (request) => release(request));
  app.addHook('onRequestAbort', async (request) => release(request));
  app.addHook('preHandler', async (request) => {
    const kind = request.routeOptions.config.expensive;
    if (!kind) return;
    const who = request.auth ? `user-${request.auth.realUserId ?? request.auth.userId}` : `address-${request.ip}`;
    const atOnce = options.expensiveAtOnce[kind];
    if (atOnce !== undefined) {
      const key = `${kind}|${who}`;
      if ((inFlight.get(key) ?? 0) >= atOnce) {
        throw new DomainError('429', 'Vaše prejšnje zahteve se še pripravljajo. Počakajte, da se končajo, in poskusite znova.', {
          status: 429,
          retryAfterSeconds: 5,
        });
      }
      inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
      holding.set(request, key);
    }
    const verdict = await options.limiter.hit([{ key: `${kind}|hour|${who}`, limit: options.expensivePerHour[kind] }], 3600);
    if (!verdict.allowed) {
      throw new DomainError('429', `Dosegli ste omejitev za to uro. Poskusite znova čez ${Math.ceil(verdict.retryAfterSeconds / 60)} min.`, {
        status: 429,
        retryAfterSeconds: verdict.retryAfterSeconds,
      });
    }
  });

  // Every id the body names, resolved for the caller before the handler runs (issue 31 item 1).
  app.addHook('preHandler', async (request) => {
    if (!request.routeOptions.config.access || request.body === undefined || Buffer.isBuffer(request.body)) return;
    const caller = { subject: request.auth?.subject ?? null, params: (request.params ?? {}) as Record<string, unknown> };
    const namedBefore = request.routeOptions.config.namedBefore;
    await checkReferences(
      request.routeOptions.schema?.body,
      request.body,
      caller,
      options.references,
      options.catchUp,
      namedBefore && (() => namedBefore(request)),
    );
  });

  app.addHook('onResponse', async (request, reply) => {
    // No query string in the log: it may carry a login token.
    request.log.info({ method: request.method, path: request.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  });

  app.setErrorHandler((error, request, reply) => {
    const response = toErrorResponse(error, request.routeOptions?.config?.fieldCodes);
    if (response.logAsError) request.log.error({ err: error, path: request.url.split('?')[0] }, 'request failed');
    if (error instanceof DomainError && error.retryAfterSeconds !== undefined) reply.header('Retry-After', String(error.retryAfterSeconds));
    reply.status(response.status).send(response.body);
  });

  return app;
};
