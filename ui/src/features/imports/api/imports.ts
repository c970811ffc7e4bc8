import type { ImportColumn, ImportProblem } from '../../../../../domain/imports/user-import.rules.ts';
import { api } from '../../../lib/api-client.ts';
import { downloadFile } from '../../../lib/download.ts';

export type ImportStatus = 'blocked' | 'ready' | 'running' | 'completed' | 'failed';
export type RowOutcome = 'created' | 'updated' | 'skipped' | 'failed';
type Counts = { created: number; updated: number; skipped: number; failed: number };
type Person = { id: number; name: string } | null;

export type ImportListItem = Counts & {
  id: number;
  fileName: string;
  uploadedBy: Person;
  uploadedAt: string;
  rows: number;
  status: ImportStatus;
  problemCount: number;
  processed: number;
  startedAt: string | null;
  finishedAt: string | null;
};

export type ImportDetail = ImportListItem & {
  existing: number;
  sendWelcome: boolean | null;
  startedBy: Person;
  problems: ImportProblem[];
  error: string | null;
};

export type ImportRow = { row: number; outcome: RowOutcome; message: string | null; user: { id: number; username: string; name: string } | null };

export type { ImportColumn, ImportProblem };

/** POST /api/imports (1005): the file as it is; the server recognises it by its content and prechecks every row. */
export const uploadImport = (file: File) =>
  api<{ id: number; rows: number; status: 'blocked' | 'ready'; problemCount: number; problems: ImportProblem[]; existing: number }>('POST', '/imports', {
    query: { name: file.name },
    body: file,
  });

export const startImport = (id: number, sendWelcome: boolean) => api<{ id: number; status: string }>('POST', `/imports/${id}/start`, { body: { sendWelcome } });

export const listImports = (page: number) => api<{ items: ImportListItem[]; total: number }>('GET', '/imports', { query: { page, pageSize: 10 } });

export const getImport = (id: number) => api<ImportDetail>('GET', `/imports/${id}`);

export const listImportRows = (id: number, outcome: RowOutcome | null, page: number) =>
  api<{ items: ImportRow[]; total: number }>('GET', `/imports/${id}/rows`, { query: { outcome: outcome ?? undefined, page, pageSize: 20 } });

export const downloadTemplate = () => downloadFile('/api/imports/template', 'predloga-uvoza-uporabnikov.xlsx');
