import { z } from 'zod';
import { defineEvent, type EventsOf } from '../shared/event.ts';
import { importProblemRule } from './user-import.rules.ts';

/**
 * A users import (issue 17 item 1): the uploaded file and its precheck, the start, the rows the
 * job has worked through (in order, a batch at a time) and the outcome. The events hold no one's
 * personal data (decision 0019): a row is its number, its outcome and the user's id; the problems
 * name a row, a column and a message, never the value.
 */
export const importStream = (importId: number) => `import-${importId}`;

export const ROW_OUTCOMES = ['created', 'updated', 'skipped', 'failed'] as const;
export type RowOutcome = (typeof ROW_OUTCOMES)[number];

const rowResult = z.object({
  row: z.number().int().positive(),
  outcome: z.enum(ROW_OUTCOMES),
  userId: z.number().int().positive().nullable(),
  /** Why a row failed (a Slovenian message), else null. */
  message: z.string().nullable(),
});
export type RowResult = z.infer<typeof rowResult>;

const counts = z.object({ created: z.number().int(), updated: z.number().int(), skipped: z.number().int(), failed: z.number().int() });
export type ImportCounts = z.infer<typeof counts>;

export const importEvents = [
  defineEvent(
    'UserImportUploaded',
    z.object({
      importId: z.number().int().positive(),
      /** The stored file, for the job; a blocked import keeps none (it will never run). */
      fileId: z.number().int().positive().nullable(),
      fileName: z.string(),
      /** Data rows of the file. */
      rows: z.number().int().nonnegative(),
      problems: z.array(importProblemRule),
      problemCount: z.number().int().nonnegative(),
      existing: z.number().int().nonnegative(),
    }),
  ),
  defineEvent('UserImportStarted', z.object({ sendWelcome: z.boolean() })),
  /** Rows `from` (0-based index among the data rows) onwards, in order, as the job finished them. */
  defineEvent('UserImportRowsProcessed', z.object({ from: z.number().int().nonnegative(), results: z.array(rowResult) })),
  defineEvent('UserImportCompleted', counts),
  defineEvent('UserImportFailed', z.object({ message: z.string() })),
] as const;

export type ImportEvent = EventsOf<typeof importEvents>;

type Uploaded = { readonly importId: number; readonly fileId: number | null; readonly rows: number; readonly problemCount: number };

export type ImportState =
  | { readonly status: 'none' }
  | (Uploaded & { readonly status: 'uploaded' })
  | (Uploaded & { readonly status: 'running'; readonly sendWelcome: boolean; readonly processed: number; readonly counts: ImportCounts })
  | (Uploaded & { readonly status: 'completed'; readonly sendWelcome: boolean; readonly processed: number; readonly counts: ImportCounts })
  | (Uploaded & { readonly status: 'failed'; readonly sendWelcome: boolean; readonly processed: number; readonly counts: ImportCounts });

export const initialImportState: ImportState = { status: 'none' };

export const ZERO_COUNTS: ImportCounts = { created: 0, updated: 0, skipped: 0, failed: 0 };

export const evolveImport = (state: ImportState, event: ImportEvent): ImportState => {
  switch (event.type) {
    case 'UserImportUploaded':
      return { status: 'uploaded', importId: event.data.importId, fileId: event.data.fileId, rows: event.data.rows, problemCount: event.data.problemCount };
    case 'UserImportStarted':
      if (state.status === 'uploaded') return { ...state, status: 'running', sendWelcome: event.data.sendWelcome, processed: 0, counts: ZERO_COUNTS };
      // A failed import started again goes on from the rows it had finished.
      return state.status === 'failed' ? { ...state, status: 'running' } : state;
    case 'UserImportRowsProcessed': {
      if (state.status !== 'running') return state;
      const next = { ...state.counts };
      for (const result of event.data.results) next[result.outcome] += 1;
      return { ...state, processed: event.data.from + event.data.results.length, counts: next };
    }
    case 'UserImportCompleted':
      return state.status === 'running' ? { ...state, status: 'completed' } : state;
    case 'UserImportFailed':
      return state.status === 'running' ? { ...state, status: 'failed' } : state;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};
