import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { toErrorResponse } from './errors.ts';
import type { HttpApp } from './http.port.ts';

/**
 * Serves the built UI from the API's origin. Files under /assets are cached for good (their names
 * carry a content hash); every other path that is not an API call gets index.html and the client
 * router decides. Unknown /api paths answer 404 in the API's error shape.
 */
export const registerStaticUi = async (app: HttpApp, options: { distDir: string }) => {
  const root = resolve(options.distDir);
  const hasUi = existsSync(join(root, 'index.html'));
  const isClientRoute = await loadRouteMatcher(join(root, 'routes.json'));
  if (hasUi) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      setHeaders: (res, path) => {
        res.header('Cache-Control', path.includes(`${join(root, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  const indexHtml = hasUi ? currentFile(join(root, 'index.html')) : null;

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] as string;
    if (path === '/api' || path.startsWith('/api/') || !indexHtml || (request.method !== 'GET' && request.method !== 'HEAD')) {
      const response = toErrorResponse(new DomainError('404', 'Vir ne obstaja.', { status: 404 }));
      return reply.status(404).send(response.body);
    }
    const known = isClientRoute(path);
    if (known && isEmbeddable(path)) allowFraming(reply);
    return reply
      .status(known ? 200 : 404)
      .header('Cache-Control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(await indexHtml());
  });
};

/**
 * A file read again whenever it changes on disk (one stat per call). index.html names the hashed
 * entry script of its build: kept from start-up, a UI rebuilt while the server runs would be
 * answered with the old page, whose script no longer exists (a blank page for everyone).
 */
export const currentFile = (file: string) => {
  let cached: { mtimeMs: number; size: number; text: string } | null = null;
  return async (): Promise<string> => {
    const { mtimeMs, size } = await stat(file);
    if (!cached || cached.mtimeMs !== mtimeMs || cached.size !== size) cached = { mtimeMs, size, text: await readFile(file, 'utf8') };
    return cached.text;
  };
};

/** Pages other sites may show in a frame (decision 0031): the public course list at /glp, nothing else. */
const EMBEDDABLE_PATHS = new Set(['/glp']);
export const isEmbeddable = (path: string) => EMBEDDABLE_PATHS.has(path.replace(/\/+$/, '') || '/');

/**
 * Lets any site frame this response: helmet's X-Frame-Options (SAMEORIGIN) goes and the policy's
 * `frame-ancestors 'self'` becomes `*`; the resource policy lets a cross-origin embedder load it.
 * Everything else in the policy stays (scripts and connections of our own origin only).
 */
const allowFraming = (reply: FastifyReply) => {
  reply.raw.removeHeader('X-Frame-Options');
  const policy = reply.raw.getHeader('Content-Security-Policy');
  if (typeof policy === 'string') {
    const directives = policy.split(';').filter((d) => d.trim() !== '' && !d.trim().startsWith('frame-ancestors'));
    reply.raw.setHeader('Content-Security-Policy', [...directives, 'frame-ancestors *'].join(';'));
  }
  reply.raw.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
};

/**
 * The UI build writes its route patterns (spec §2) to routes.json; a path none of them matches is
 * answered with 404 while the app shows its not-found page. (The UI's own matcher is the same
 * rule: `:name` stands for one path segment.)
 */
const loadRouteMatcher = async (file: string): Promise<(path: string) => boolean> => {
  if (!existsSync(file)) return () => true;
  const patterns = (JSON.parse(await readFile(file, 'utf8')) as string[]).map((pattern) => pattern.split('/').filter(Boolean));
  return (path) => {
    let segments: string[];
    try {
      segments = decodeURI(path).replace(/\/+$/, '').split('/').filter(Boolean);
    } catch {
      return false;
    }
    return patterns.some((pattern) => pattern.length === segments.length && pattern.every((part, i) => part.startsWith(':') || part === segments[i]));
  };
};
