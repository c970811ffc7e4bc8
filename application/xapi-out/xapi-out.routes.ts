import { z } from 'zod';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { ljubljanaDayStart } from '../../domain/shared/ljubljana-time.ts';
import { backfillRule } from '../../domain/xapi-out/xapi-out.rules.ts';
import { formatPosition, parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { errorResponses, type HttpApp, requireAuth, system } from '../../infrastructure/http/http.port.ts';
import { ensureDestination, startBackfill, XAPI_OUT_PERMISSION, type XapiOutDb } from '../../projections/xapi-out/xapi-out.queries.ts';

export type XapiOutRouteDeps = {
  readonly db: XapiOutDb;
  /** Whether an LRS is set (XAPI_LRS_URL): without one there is nothing to send again. */
  readonly configured: boolean;
  readonly destination: string;
  /** Wakes the forwarding now, where this process runs jobs (elsewhere its next minute's run does). */
  readonly wake: () => Promise<void>;
};

/**
 * "Pošlji znova od …" (issue 35 item 5): a backfill replays the log from a day or an event position
 * and queues the statements of its learning events again, delivered ones too: each goes with its own
 * id again, which the LRS answers 204 or 409 and keeps once. One backfill at a time.
 */
export const registerXapiOutRoutes = (app: HttpApp, deps: XapiOutRouteDeps) => {
  app.post(
    '/api/xapi-out/backfill',
    {
      config: { access: system(XAPI_OUT_PERMISSION) },
      schema: {
        tags: ['xapi-out'],
        summary: 'Send the statements again from a day (Ljubljana) or an event position on (1064); 409 while one runs or with no LRS set',
        body: backfillRule,
        response: { 202: z.object({ from: z.string(), until: z.string() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      if (!deps.configured) throw new DomainError('409', 'Zunanji LRS ni nastavljen (XAPI_LRS_URL), zato ni česa poslati znova.', { status: 409 });
      const body = request.body;
      const position = body.position === undefined ? null : parsePosition(body.position);
      if (body.position !== undefined && position === null)
        throw new DomainError('400', 'Položaj dogodka je oblike 123-456', { status: 400, field: 'position' });
      await ensureDestination(deps.db, deps.destination);
      const started = await startBackfill(
        deps.db,
        deps.destination,
        position ? { position } : { at: ljubljanaDayStart(body.from as string) },
        requireAuth(request).userId,
      );
      if (started === 'running' || started === null) {
        throw new DomainError('409', 'Ponovno pošiljanje že poteka: počakajte, da se konča.', { status: 409 });
      }
      await deps.wake();
      return reply.status(202).send({ from: formatPosition(started.from), until: formatPosition(started.until) });
    },
  );
};
