import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { BackfillRequest, DeliveryStatus } from '../../../../../domain/xapi-out/xapi-out.rules.ts';
import { api } from '../../../lib/api-client.ts';

export type XapiOutOverview = {
  /** The LRS statements go to (no credentials); null when none is set. */
  endpoint: string | null;
  /** The newest event of the log. */
  head: string | null;
  destination: {
    readUpTo: string;
    counts: Record<DeliveryStatus, number>;
    backfill: { until: string; from: string | null; requestedAt: string | null } | null;
  } | null;
};

export type Delivery = {
  statementId: string;
  eventType: string;
  verb: string;
  courseId: number | null;
  courseTitle: string | null;
  position: string;
  eventAt: string;
  status: DeliveryStatus;
  attempts: number;
  lastError: string | null;
  lastStatus: number | null;
  sentAt: string | null;
  nextAttemptAt: string | null;
  accepted: number;
};

export const XAPI_OUT_KEY = ['xapi-out'] as const;
export const DELIVERIES_PAGE_SIZE = 25;

/** GET /api/xapi-out (1064): where statements go and how far; read again every few seconds while statements wait. */
export const xapiOutOverviewQuery = queryOptions({
  queryKey: [...XAPI_OUT_KEY, 'overview'],
  queryFn: () => api<XapiOutOverview>('GET', '/xapi-out'),
  refetchInterval: (query) => {
    const destination = query.state.data?.destination;
    return destination && (destination.counts.pending > 0 || destination.backfill) ? 3000 : false;
  },
});

/** GET /api/xapi-out/deliveries (1064): a page of the delivery log, newest events first. */
export const deliveriesQuery = (status: DeliveryStatus | null, page: number, live: boolean) =>
  queryOptions({
    queryKey: [...XAPI_OUT_KEY, 'deliveries', status, page],
    queryFn: () =>
      api<{ items: Delivery[]; total: number }>('GET', '/xapi-out/deliveries', {
        query: { status: status ?? undefined, page, pageSize: DELIVERIES_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
    refetchInterval: live ? 3000 : false,
  });

/** POST /api/xapi-out/backfill: send the statements again from a day or an event position on. */
export const startBackfill = (request: BackfillRequest) => api<{ from: string; until: string }>('POST', '/xapi-out/backfill', { body: request });
