import { queryOptions } from '@tanstack/react-query';
import type { ExportKind, ExportRequest, ExportStatus } from '../../../../../domain/exports/export.rules.ts';
import { api } from '../../../lib/api-client.ts';

export type ExportItem = {
  id: number;
  kind: ExportKind;
  parameters: Record<string, number | string>;
  courseTitle: string | null;
  companyName: string | null;
  status: ExportStatus;
  progress: { done: number; total: number };
  attempts: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  user: { id: number; name: string };
  rows: number | null;
  bytes: number | null;
  fileAvailable: boolean;
  fileDiscarded: boolean;
  error: string | null;
};

export type ExportOptions = {
  kinds: ExportKind[];
  courses: { id: number; title: string; intervals: { startsAt: string; stopsAt: string }[] }[];
  companies: { id: number; name: string }[];
  costCompanies: { id: number; name: string }[];
};

export const EXPORTS_KEY = ['exports'] as const;

/** GET /api/exports: the exports one may read, newest first; read again every second while one is in queue or computing. */
export const exportsQuery = queryOptions({
  queryKey: [...EXPORTS_KEY, 'list'],
  queryFn: () => api<{ items: ExportItem[] }>('GET', '/exports'),
  refetchInterval: (query) => (query.state.data?.items.some((i) => i.status === 'initiated' || i.status === 'computing') ? 1000 : false),
});

/** GET /api/exports/options: the kinds one may export and the choices of their parameters. */
export const exportOptionsQuery = queryOptions({
  queryKey: [...EXPORTS_KEY, 'options'],
  queryFn: () => api<ExportOptions>('GET', '/exports/options'),
});

/** POST /api/exports: ask for an export; a job computes it. */
export const requestExport = (request: ExportRequest) => api<{ id: number }>('POST', '/exports', { body: request });
