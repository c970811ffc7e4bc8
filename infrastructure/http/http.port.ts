import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Subject } from '../../domain/permissions/can.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { FeatureFlags } from '../../domain/shared/features.ts';
import type { ReferenceKind } from '../../domain/shared/id.rules.ts';
import { type AllPosition, type EventMetadata, formatPosition } from '../event-store/event-store.port.ts';

/** The Fastify instance route files register on (zod type provider). */
export type HttpApp = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;

/** The signed-in user of a request. */
export type AuthContext = {
  readonly userId: number;
  readonly sessionId: string;
  /** The admin behind a "log in as" session, else null. */
  readonly realUserId: number | null;
  readonly subject: Subject;
  /** Required consent types the user does not hold (current texts); non-empty means 403 `422086` on most routes. */
  readonly missingConsents: readonly number[];
};

/**
 * Who may call a route. Every route declares one (the app refuses to start otherwise):
 * - `public`: anyone; a valid token is still read, so the route may use it;
 * - `authenticated`: any signed-in user;
 * - `permission`: a signed-in user holding at least one of the listed permissions (spec §6 ids),
 *   system-wide, or in the community scope the route derives from the request.
 */
export type CommunityScope = { companyId: number | null; unitId?: number };

export type PermissionCheck =
  | { readonly system: number }
  /** A community permission in at least one unit (lists then show only what it reaches). */
  | { readonly communityAnywhere: number }
  /** A participant's permission in at least one unit they belong to (taking courses: 1045). */
  | { readonly membershipAnywhere: number }
  /** A profile permission (1001 to 1048): on the caller's own account; the handler acts on nothing else. */
  | { readonly profile: number }
  /**
   * The scope may need a lookup (the company of a unit); null means the resource does not exist
   * (404). Several scopes mean "in any of them" (a course reaches several companies). The path and
   * query are validated before the lookup runs.
   */
  | {
      readonly community: number;
      readonly scope: (
        located: Located,
        request: FastifyRequest,
      ) => CommunityScope | readonly CommunityScope[] | null | Promise<CommunityScope | readonly CommunityScope[] | null>;
    };

/** The path and query of a request as the route's schema parses them (numbers are numbers). */
export type Located = { readonly params: Readonly<Record<string, unknown>>; readonly query: Readonly<Record<string, unknown>> };

export type RouteAccess =
  | { readonly kind: 'public' }
  | { readonly kind: 'authenticated' }
  | { readonly kind: 'permission'; readonly anyOf: readonly PermissionCheck[]; readonly forbiddenMessage?: string };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** Read models the route reads: an `X-Min-Position` header waits for them (read-your-writes). */
    readModels?: readonly string[];
    /** Open to a signed-in user who lacks required consents (`/users/me`, logout, the consent routes). */
    withoutConsents?: boolean;
    /** A feature flag of spec §1 the route belongs to: while it is off, the route answers 404 as if it did not exist. */
    feature?: keyof FeatureFlags;
    /** The route takes raw bytes (an upload) rather than JSON. */
    uploads?: boolean;
    /**
     * A file the browser fetches by itself (an <img>, <video> or link cannot send the Authorization
     * header): the session may come from the media cookie instead (decision 0020).
     */
    mediaCookie?: boolean;
    /** Error codes of spec §8 for validation errors by field (registration: e-mail 422004, username 422014, ...). */
    fieldCodes?: Readonly<Record<string, string>>;
    /**
     * A PUT that replaces a whole record whose body rule has optional fields: every field must be
     * sent (null for none), since a field left out would be stored empty (whole-record.ts).
     */
    wholeRecord?: boolean;
    /**
     * The ids the record this route changes already names (decision 0047): a body naming them again
     * is not refused for them, so a unit or a course deleted since does not block saving the rest.
     */
    namedBefore?: (request: FastifyRequest) => Promise<Partial<Record<ReferenceKind, readonly number[]>>>;
    /**
     * Costly work one person could flood (decision 0049): each caller (an account, or an address
     * without one) has an hourly budget of such requests, counted in PostgreSQL across processes.
     */
    expensive?: ExpensiveWork;
    /**
     * A GET that writes (opens a session, appends an event) and reads what it wrote: with read
     * replicas (DATABASE_READ_URL) it runs on the primary whole instead of a replica (decision 0067).
     */
    onPrimary?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    /** Every API route with who may call it: the authorization matrix and the permission accounting read it. */
    routeCatalogue(): RouteEntry[];
  }
}

/**
 * Kinds of costly work with a budget per person per hour: drawing a document, starting an export,
 * writing a comment, sending mail to an address the caller names (a registration, an e-mail change).
 */
export type ExpensiveWork = 'render' | 'export' | 'comment' | 'mail' | 'package';

export type RouteEntry = {
  readonly method: string;
  readonly url: string;
  readonly access: RouteAccess;
  readonly feature: keyof FeatureFlags | null;
  /** The route's body rule (a zod schema), if it takes a JSON body: the cross-tenant suite reads its declared references. */
  readonly body: unknown;
  /** The route's query rule, if any: the cross-tenant suite fills the keys that name records. */
  readonly query: unknown;
};

/** Who names ids in a request body (decision 0047), and the path of the request, and the path of the request (a survey's questions are those of the survey in the path). */
export type ReferenceCaller = { readonly subject: Subject | null; readonly params: Readonly<Record<string, unknown>> };

/** The ids of `ids` (of one kind) that exist and that the caller may name; the rest are refused. */
export type ReferenceResolver = (ids: readonly number[], caller: ReferenceCaller) => Promise<ReadonlySet<number>>;

export type ReferenceResolvers = Readonly<Record<ReferenceKind, ReferenceResolver>>;

export const PUBLIC: RouteAccess = { kind: 'public' };
export const AUTHENTICATED: RouteAccess = { kind: 'authenticated' };
export const system = (...ids: number[]): RouteAccess => ({ kind: 'permission', anyOf: ids.map((id) => ({ system: id })) });

/** Allowed with any of the checks; the message replaces the generic 403 text (e.g. the tags' "Nimate pravic ..."). */
export const anyOf = (checks: readonly PermissionCheck[], forbiddenMessage?: string): RouteAccess => ({
  kind: 'permission',
  anyOf: checks,
  ...(forbiddenMessage ? { forbiddenMessage } : {}),
});

export const unauthorized = () => new DomainError('401', 'Prijava je potrebna.', { status: 401 });

export const requireAuth = (request: FastifyRequest): AuthContext => {
  if (!request.auth) throw unauthorized();
  return request.auth;
};

/** Metadata every event a request causes carries: who (and who really), correlation, origin. */
export const commandMetadata = (request: FastifyRequest): EventMetadata => ({
  actorId: request.auth?.userId ?? null,
  realActorId: request.auth?.realUserId ?? null,
  correlationId: request.id,
  ip: request.ip,
  ...(request.headers['user-agent'] ? { userAgent: String(request.headers['user-agent']).slice(0, 300) } : {}),
});

/** Tells the client where its write landed, so its next read can wait for it. */
export const withPosition = (reply: FastifyReply, position: AllPosition | null) => {
  if (position) reply.header('X-Event-Position', formatPosition(position));
  return reply;
};

export const errorBody = z.object({
  errors: z.array(z.object({ code: z.string(), message: z.string(), field: z.string().nullable() })),
});

/** Error responses every route may give, for the OpenAPI document. */
export const errorResponses = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 422: errorBody, 429: errorBody } as const;

/**
 * A query parameter that is a list: `a[]=1&a[]=2`, `a=1&a=2` and `a=1` all arrive as an array
 * (the query parser folds `a[]` into `a`).
 */
export const queryArray = <T extends z.ZodType>(item: T) =>
  z.preprocess((value) => (value === undefined ? undefined : Array.isArray(value) ? value : [value]), z.array(item));

/**
 * The trusted-device cookie of the second factor ("remember me", spec §2 /prijava/2fa): an opaque
 * secret, HttpOnly (no script reads it), sent only to the sign-in routes, SameSite=Strict, Secure
 * behind https. Its hash is kept on the user; the cookie alone signs nobody in.
 */
const NAME = 'medilearn_device';

const readCookie = (request: FastifyRequest, name: string): string | null => {
  const header = request.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return null;
};

export const readDeviceSecret = (request: FastifyRequest): string | null => {
  const value = readCookie(request, NAME);
  return value !== null && /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null;
};

/**
 * The session token the UI copies into a cookie scoped to `/api/files` (SameSite=Strict), read only
 * by routes marked `mediaCookie`: stored files shown by the browser itself (decision 0020).
 */
export const MEDIA_COOKIE = 'medilearn_media';
export const readMediaToken = (request: FastifyRequest): string | null => {
  const value = readCookie(request, MEDIA_COOKIE);
  return value !== null && /^[A-Za-z0-9._-]{10,4000}$/.test(value) ? value : null;
};

export const writeDeviceSecret = (request: FastifyRequest, reply: FastifyReply, secret: string, until: Date) => {
  const secure = request.protocol === 'https' || request.headers['x-forwarded-proto'] === 'https';
  const maxAge = Math.max(0, Math.floor((until.getTime() - Date.now()) / 1000));
  reply.header('Set-Cookie', `${NAME}=${secret}; Path=/api/auth; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`);
};
