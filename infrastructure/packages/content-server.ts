import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import type { PackageLaunches } from '../../domain/packages/package-launch.ts';
import type { PackageStructure } from '../../domain/packages/package-structure.ts';
import { scormFrameHtml } from './scorm-frame.ts';

/**
 * The content origin (issue 35, decision 0059): package code is served from here, a different origin
 * than the platform's, so it runs without the platform's privileges: it cannot read the platform's
 * storage (where the session token is), its pages, or call its API as the participant. Every path is
 * `/p/<content token>/<path in the package>`: the token names one launch, and so one package. No
 * session, no cookies are read here. The SCORM API reaches the player by postMessage through
 * scorm-again's cross-frame bridge (`/p/<token>/__scorm/frame.html` hosts it).
 */
export type ContentServerDeps = {
  readonly launches: Pick<PackageLaunches, 'byContentToken'>;
  readonly packages: {
    describe(id: number): Promise<{ structure: PackageStructure } | null>;
    file(packageId: number, path: string): Promise<{ contentType: string; bytes: Buffer } | null>;
  };
  /** The platform's origin: the only one that may frame package pages and receive their messages. */
  readonly platformOrigin: string;
  readonly logger: FastifyBaseLogger;
};

const require = createRequire(import.meta.url);
/** scorm-again's content-frame half of the bridge, as its package ships it. */
const crossFrameApi = () => readFile(require.resolve('scorm-again/cross-frame-api'), 'utf8');

/** What package pages may do: their own scripts, styles and media from this origin; talk to the platform's LRS; be framed only by the platform. */
export const contentSecurityPolicy = (platformOrigin: string) =>
  [
    "default-src 'self' data: blob:",
    // Authoring tools' output relies on inline scripts and eval; the origin, not the policy, is the wall.
    "script-src 'self' 'unsafe-inline' 'unsafe-eval' blob:",
    "style-src 'self' 'unsafe-inline' data:",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "font-src 'self' data:",
    // cmi5 AUs send statements to the platform's LRS (/xapi/, CORS for this origin only).
    `connect-src 'self' ${platformOrigin}`,
    `frame-ancestors 'self' ${platformOrigin}`,
    "form-action 'self'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ');

const notFound = (reply: FastifyReply) => reply.status(404).type('text/plain; charset=utf-8').send('Vsebina ne obstaja ali je povezava potekla.');

/** The path inside the package a request names (Fastify has decoded it once), or null when it would leave the package. */
export const packagePath = (path: string): string | null => {
  if (path.includes('\0') || path.includes('\\')) return null;
  const parts = path.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.some((part) => part === '..')) return null;
  return parts.join('/');
};

export const createContentServer = async (deps: ContentServerDeps): Promise<FastifyInstance> => {
  // Only warnings and errors: a request line per package file (hundreds per launch) says nothing worth keeping.
  const app = Fastify({ loggerInstance: deps.logger.child({ origin: 'content' }, { level: 'warn' }), trustProxy: true });
  const csp = contentSecurityPolicy(deps.platformOrigin);
  const bridge = await crossFrameApi();
  app.addHook('onSend', async (_request, reply) => {
    reply
      .header('Content-Security-Policy', csp)
      .header('X-Content-Type-Options', 'nosniff')
      // Package pages' requests name no platform page to anyone.
      .header('Referrer-Policy', 'no-referrer')
      .header('Cross-Origin-Resource-Policy', 'same-site');
  });
  app.get('/health', async () => ({ status: 'ok' }));
  app.get<{ Params: { token: string; '*': string } }>('/p/:token/*', async (request, reply) => {
    const launch = await deps.launches.byContentToken(request.params.token);
    if (!launch) return notFound(reply);
    const path = packagePath(request.params['*']);
    if (path === null) return notFound(reply);
    if (path === '__scorm/cross-frame-api.js')
      return reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'private, max-age=3600').send(bridge);
    if (path === '__scorm/frame.html') {
      const pack = await deps.packages.describe(launch.packageId);
      const item = pack?.structure.items.find((i) => i.id === launch.itemId);
      if (!pack || !item || launch.standard === 'cmi5') return notFound(reply);
      return reply
        .type('text/html; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .send(scormFrameHtml({ platformOrigin: deps.platformOrigin, standard: launch.standard, launch: item.launch }));
    }
    const file = await deps.packages.file(launch.packageId, path);
    if (!file) return notFound(reply);
    return reply.type(file.contentType).header('Cache-Control', 'private, max-age=3600').send(file.bytes);
  });
  return app;
};
