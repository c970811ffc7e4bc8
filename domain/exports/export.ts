import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';
import { EXPORT_KINDS, type ExportKind, type ExportParameters } from './export.rules.ts';

/**
 * An export (spec §3 Export record: createdAt, parameters, report, status, user; §4 statuses): asked
 * for, computed by a job (which may run again after a crash: each run is an attempt), with its
 * progress, and finished with the produced file or failed with a Slovenian reason. The record's
 * createdAt is the time of `ExportRequested`; its user is `requestedBy`; its report is the file.
 * The events hold ids, dates and counts only: nothing here is a person's data.
 */
export const exportStream = (exportId: number) => `export-${exportId}`;

const count = z.number().int().nonnegative();

export const exportEvents = [
  defineEvent(
    'ExportRequested',
    z.object({
      exportId: z.number().int().positive(),
      kind: z.enum(EXPORT_KINDS),
      // Validated by export.rules.ts when asked for; stored as asked.
      parameters: z.record(z.string(), z.union([z.number(), z.string()])),
      requestedBy: z.number().int().positive(),
    }),
  ),
  defineEvent('ExportStarted', z.object({ attempt: z.number().int().positive() })),
  defineEvent('ExportProgressed', z.object({ done: count, total: count })),
  defineEvent('ExportFinished', z.object({ fileId: z.number().int().positive(), rows: count, bytes: count })),
  defineEvent('ExportFailed', z.object({ reason: z.string().min(1).max(500) })),
  /** The produced file is gone (a person named in it was erased, decision 0019); the record stays finished. */
  defineEvent('ExportFileDiscarded', z.object({ fileId: z.number().int().positive(), reason: z.string().min(1).max(500) })),
] as const;

export type ExportEvent = EventsOf<typeof exportEvents>;

type Asked = { readonly id: number; readonly kind: ExportKind; readonly parameters: ExportParameters; readonly requestedBy: number };

export type ExportState =
  | { readonly status: 'none' }
  | (Asked & { readonly status: 'initiated' })
  | (Asked & { readonly status: 'computing'; readonly attempt: number; readonly done: number; readonly total: number })
  | (Asked & { readonly status: 'finished'; readonly fileId: number | null; readonly rows: number })
  | (Asked & { readonly status: 'error'; readonly reason: string });

export type ExportCommand =
  | { type: 'RequestExport'; exportId: number; kind: ExportKind; parameters: ExportParameters; requestedBy: number }
  | { type: 'StartExport'; attempt: number }
  | { type: 'ReportExportProgress'; done: number; total: number }
  | { type: 'FinishExport'; fileId: number; rows: number; bytes: number }
  | { type: 'FailExport'; reason: string }
  | { type: 'DiscardExportFile'; reason: string };

export const exportNotFound = () => new DomainError('404', 'Izvoz ne obstaja.', { status: 404 });

const askedOf = (state: ExportState): Asked | null =>
  state.status === 'none' ? null : { id: state.id, kind: state.kind, parameters: state.parameters, requestedBy: state.requestedBy };

export const evolveExport = (state: ExportState, event: ExportEvent): ExportState => {
  if (event.type === 'ExportRequested') {
    const d = event.data;
    return { status: 'initiated', id: d.exportId, kind: d.kind, parameters: d.parameters as ExportParameters, requestedBy: d.requestedBy };
  }
  const asked = askedOf(state);
  if (!asked) return state;
  switch (event.type) {
    case 'ExportStarted':
      return { ...asked, status: 'computing', attempt: event.data.attempt, done: 0, total: 0 };
    case 'ExportProgressed':
      return state.status === 'computing' ? { ...state, done: event.data.done, total: event.data.total } : state;
    case 'ExportFinished':
      return { ...asked, status: 'finished', fileId: event.data.fileId, rows: event.data.rows };
    case 'ExportFailed':
      return { ...asked, status: 'error', reason: event.data.reason };
    case 'ExportFileDiscarded':
      return state.status === 'finished' ? { ...state, fileId: null } : state;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};

/**
 * A job's steps are decided on the record as it stands: a run that finds the export finished or
 * failed (a second run after a crash, a job sent twice) changes nothing, so it is safe to repeat.
 */
export const decideExport = (command: ExportCommand, state: ExportState): ExportEvent[] => {
  if (command.type === 'RequestExport') {
    if (state.status !== 'none') throw new DomainError('409', 'Izvoz že obstaja.', { status: 409 });
    const { exportId, kind, parameters, requestedBy } = command;
    return [{ type: 'ExportRequested', data: { exportId, kind, parameters: { ...parameters }, requestedBy } }];
  }
  if (state.status === 'none') throw exportNotFound();
  switch (command.type) {
    case 'StartExport':
      return state.status === 'initiated' || state.status === 'computing' ? [{ type: 'ExportStarted', data: { attempt: command.attempt } }] : [];
    case 'ReportExportProgress':
      return state.status === 'computing' && (command.done !== state.done || command.total !== state.total)
        ? [{ type: 'ExportProgressed', data: { done: command.done, total: command.total } }]
        : [];
    case 'FinishExport':
      return state.status === 'computing' ? [{ type: 'ExportFinished', data: { fileId: command.fileId, rows: command.rows, bytes: command.bytes } }] : [];
    case 'FailExport':
      return state.status === 'initiated' || state.status === 'computing' ? [{ type: 'ExportFailed', data: { reason: command.reason } }] : [];
    case 'DiscardExportFile':
      return state.status === 'finished' && state.fileId !== null
        ? [{ type: 'ExportFileDiscarded', data: { fileId: state.fileId, reason: command.reason } }]
        : [];
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
};

export const exportDecider: Decider<ExportCommand, ExportEvent, ExportState> = {
  initialState: { status: 'none' },
  evolve: evolveExport,
  decide: decideExport,
};

/**
 * Progress is recorded in tenths (at most ten events a run), so a long export shows it moving
 * without writing an event per row: the step to record after `done` of `total`, or null.
 */
export const progressStep = (done: number, total: number, recorded: number): number | null => {
  if (total <= 0) return null;
  const step = Math.floor((Math.min(done, total) / total) * 10);
  return step > recorded ? step : null;
};
