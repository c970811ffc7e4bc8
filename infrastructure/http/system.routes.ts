import { z } from 'zod';
import type { FeatureFlags } from '../../domain/shared/features.ts';
import { type HttpApp, PUBLIC } from './http.port.ts';

/** Health, metrics, feature flags and version: served by the platform itself, not by a feature. */
export const registerSystemRoutes = (
  app: HttpApp,
  deps: { checkDatabase: () => Promise<boolean>; metrics: () => Promise<string>; features: FeatureFlags; version: string },
) => {
  app.get(
    '/api/health',
    {
      // Asked by the balancer every second: never a replica's read (decision 0067), whose pools it would not test.
      config: { access: PUBLIC, onPrimary: true },
      schema: {
        tags: ['system'],
        response: {
          200: z.object({ status: z.literal('ok'), database: z.literal('ok') }),
          503: z.object({ status: z.literal('unavailable'), database: z.literal('unavailable') }),
        },
      },
    },
    async (_request, reply) => {
      const ok = await deps.checkDatabase().catch(() => false);
      return ok ? reply.send({ status: 'ok', database: 'ok' }) : reply.status(503).send({ status: 'unavailable', database: 'unavailable' });
    },
  );

  app.get('/api/metrics', { config: { access: PUBLIC, onPrimary: true }, schema: { tags: ['system'], hide: true } }, async (_request, reply) =>
    reply.type('text/plain; version=0.0.4; charset=utf-8').send(await deps.metrics()),
  );

  app.get(
    '/api/features',
    {
      config: { access: PUBLIC },
      schema: {
        tags: ['system'],
        response: {
          200: z.object({
            vimeoUpload: z.boolean(),
            s3Upload: z.boolean(),
            zoom: z.boolean(),
            interactr: z.boolean(),
            liveCourses: z.boolean(),
            newsletters: z.boolean(),
            deleteAccount: z.boolean(),
            externalId: z.boolean(),
          }),
        },
      },
    },
    async () => deps.features,
  );

  app.get(
    '/api/version',
    { config: { access: PUBLIC, onPrimary: true }, schema: { tags: ['system'], response: { 200: z.object({ version: z.string() }) } } },
    async () => ({
      version: deps.version,
    }),
  );
};
