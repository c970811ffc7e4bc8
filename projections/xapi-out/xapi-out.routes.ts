import { z } from 'zod';
import { DELIVERY_STATUSES } from '../../domain/xapi-out/xapi-out.rules.ts';
import { type AllPosition, formatPosition } from '../../infrastructure/event-store/event-store.port.ts';
import { errorResponses, type HttpApp, system } from '../../infrastructure/http/http.port.ts';
import { deliveryItem, destinationSummary, listDeliveries, summariseDestination, XAPI_OUT_PERMISSION, type XapiOutDb } from './xapi-out.queries.ts';

const tags = ['xapi-out'];

export type XapiOutReadDeps = {
  readonly db: XapiOutDb;
  /** The LRS statements go to, as shown (no credentials); null when none is set. */
  readonly endpoint: string | null;
  readonly destination: string;
  readonly head: () => Promise<AllPosition | null>;
};

/** The xAPI delivery log (issue 35 item 5, decision 0061), read with XAPI_OUT_PERMISSION (1064). */
export const registerXapiOutReadRoutes = (app: HttpApp, deps: XapiOutReadDeps) => {
  app.get(
    '/api/xapi-out',
    {
      config: { access: system(XAPI_OUT_PERMISSION) },
      schema: {
        tags,
        summary:
          'Where xAPI statements go and how far (1064): the LRS address (never its credentials), the log read so far, counts by status, a backfill running',
        response: {
          200: z.object({ endpoint: z.string().nullable(), head: z.string().nullable(), destination: destinationSummary.nullable() }),
          ...errorResponses,
        },
      },
    },
    async () => {
      const head = await deps.head();
      return {
        endpoint: deps.endpoint,
        head: head ? formatPosition(head) : null,
        destination: deps.endpoint ? await summariseDestination(deps.db, deps.destination) : null,
      };
    },
  );

  app.get(
    '/api/xapi-out/deliveries',
    {
      config: { access: system(XAPI_OUT_PERMISSION), readModels: ['courses'] },
      schema: {
        tags,
        summary: 'The delivery log (1064): one row per statement, newest events first, paged, by status (pending, sent, failed)',
        querystring: z.object({
          status: z.enum(DELIVERY_STATUSES).optional(),
          page: z.coerce.number().int().min(1).max(100_000).default(1),
          pageSize: z.coerce.number().int().min(1).max(100).default(25),
        }),
        response: { 200: z.object({ items: z.array(deliveryItem), total: z.number() }), ...errorResponses },
      },
    },
    async (request) => listDeliveries(deps.db, deps.destination, request.query),
  );
};
