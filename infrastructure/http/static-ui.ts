import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { toErrorResponse } from './errors.ts';
import type { HttpApp } from './http.port.ts';

/**
 * Serves the built UI from the API's origin. Files under /assets are cached for good (their names
 * carry a content hash); every other path that is not an API call gets index.html and the client
 * router decides. Unknown /api paths answer 404 in the API's error shape.
 */
export const registerStaticUi = async (app: HttpApp, options: { distDir: string; isClientRoute?: (path: string) => boolean }) => {
  const root = resolve(options.distDir);
  const hasUi = existsSync(join(root, 'index.html'));
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
  const indexHtml = hasUi ? await readFile(join(root, 'index.html'), 'utf8') : null;

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] as string;
    if (path === '/api' || path.startsWith('/api/') || !indexHtml || (request.method !== 'GET' && request.method !== 'HEAD')) {
      const response = toErrorResponse(new DomainError('404', 'Vir ne obstaja.', { status: 404 }));
      return reply.status(404).send(response.body);
    }
    const known = options.isClientRoute ? options.isClientRoute(path) : true;
    return reply
      .status(known ? 200 : 404)
      .header('Cache-Control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(indexHtml);
  });
};
