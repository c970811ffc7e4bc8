import { z } from 'zod';
import { type EXPORT_KINDS, exportFileName, exportRequestRule } from '../../domain/exports/export.rules.ts';
import { type ExportEvent, type ExportState, exportDecider, exportStream, progressStep } from '../../domain/exports/export.ts';
import { fold } from '../../domain/shared/decider.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { FileStore } from '../../infrastructure/files/file-store.port.ts';
import type { JobHandler, Jobs } from '../../infrastructure/jobs/jobs.port.ts';
import type { Log } from '../../infrastructure/logging/log.port.ts';
import type { Projection } from '../../infrastructure/projections/projection.port.ts';
import type { Spreadsheet } from '../../infrastructure/reports/spreadsheet.port.ts';
import { userNamesForExport } from '../../projections/exports/export-rows.queries.ts';
import { type ExportsDb, exportsNamingPeopleStartedBefore, exportsNamingPerson } from '../../projections/exports/exports.queries.ts';
import { messageIdFor } from '../shared/deliver-mail.ts';
import { handleCommand } from '../shared/handle-command.ts';
import { buildExportTable } from './export-tables.ts';

export const EXPORT_QUEUE = 'exports.run';
export const EXPORT_DISCARD_QUEUE = 'exports.discard';
/** Attempts after the first: a run that throws (a lost connection) or whose process died runs again. */
export const EXPORT_RETRY_LIMIT = 2;
/** A running export tells the queue it is alive this often; one whose process died is run again soon after. */
export const EXPORT_HEARTBEAT_SECONDS = 30;

/** The reason recorded when an export cannot be produced for a cause the person cannot act on. */
export const EXPORT_FAILED_REASON = 'Izvoza ni bilo mogoče pripraviti zaradi napake na strežniku. Poskusite znova.';
export const DISCARDED_REASON = 'Datoteka je bila odstranjena, ker so bili izbrisani osebni podatki osebe, ki jo je lahko vsebovala.';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export type ExportJobDeps = {
  readonly store: EventStore;
  readonly db: ExportsDb;
  readonly files: FileStore;
  readonly spreadsheet: Spreadsheet;
  readonly log: Log;
  readonly now: () => Date;
  /** The queue's retry limit: the last attempt records the failure instead of leaving it to a retry. */
  readonly retryLimit: number;
};

/**
 * Exports asked for, and people erased, followed like a read model (DESIGN §10): each export queues
 * one job, each erasure one discard job; job ids are made from the event, so a batch applied again
 * queues nothing new, and a restart that replays from the checkpoint sends only what was not sent.
 */
export const exportsReactor = (jobs: Pick<Jobs, 'send'>): Projection => ({
  name: 'export_jobs',
  version: 1,
  tables: [],
  setup: () => [],
  handles: ['ExportRequested', 'UserErased'],
  apply: async (_context, events) => {
    for (const event of events) {
      if (event.type === 'ExportRequested') {
        await jobs.send(EXPORT_QUEUE, { exportId: (event.data as { exportId: number }).exportId }, { id: messageIdFor(event.eventId, 'export') });
      } else {
        const userId = Number(event.streamName.slice('user-'.length));
        await jobs.send(EXPORT_DISCARD_QUEUE, { erasedAt: event.createdAt.toISOString(), userId }, { id: messageIdFor(event.eventId, 'export-discard') });
      }
    }
  },
});

const load = async (store: EventStore, exportId: number): Promise<ExportState> =>
  fold(
    exportDecider,
    (await store.readStream(exportStream(exportId))).events.map((e) => ({ type: e.type, data: e.data }) as ExportEvent),
  );

const step = (deps: Pick<ExportJobDeps, 'store'>, exportId: number, command: Parameters<typeof exportDecider.decide>[0]) =>
  handleCommand(deps.store, { streamName: exportStream(exportId), decider: exportDecider, command, metadata: { actorId: null } });

const KIND_NAMES: Readonly<Record<(typeof EXPORT_KINDS)[number], string>> = {
  users: 'Uporabniki',
  participants: 'Udeleženci izobraževanja in napredek',
  nps: 'Odgovori NPS',
  costs: 'Stroški',
  consents: 'Privolitve (za revizorja)',
  chambers: 'Kreditne točke za zbornico',
};
const PARAMETER_NAMES: Readonly<Record<string, string>> = {
  companyId: 'Podjetje (ID; 0 = vsa)',
  courseId: 'Izobraževanje (ID)',
  intervalId: 'Termin (0 = ves čas)',
  status: 'Stanje uporabnikov',
  from: 'Od dne',
  to: 'Do dne',
  chamber: 'Zbornica',
};

/**
 * Runs one export: records the attempt (computing), reads its rows page by page while recording
 * progress in tenths, writes the xlsx through the spreadsheet port, stores it through the file port
 * and records it finished. A refusal with a reason a person can act on (the course was deleted
 * meanwhile, too many rows) is recorded at once as the export's error; anything else is left to
 * the queue's retry, and the last attempt records a general reason. A run that finds the export
 * finished or failed does nothing, so a job run twice (after a crash) writes one result.
 */
export const runExport =
  (deps: ExportJobDeps): JobHandler =>
  async (data, meta) => {
    const { exportId } = z.object({ exportId: z.number().int().positive() }).parse(data);
    const state = await load(deps.store, exportId);
    if (state.status !== 'initiated' && state.status !== 'computing') return;
    const attempt = (state.status === 'computing' ? state.attempt : 0) + 1;
    await step(deps, exportId, { type: 'StartExport', attempt });
    try {
      const request = exportRequestRule.parse({ kind: state.kind, parameters: state.parameters });
      let recorded = 0;
      const table = await buildExportTable({ db: deps.db, store: deps.store, now: deps.now }, request, async (done, total) => {
        const next = progressStep(done, total, recorded);
        if (next === null) return;
        recorded = next;
        await step(deps, exportId, { type: 'ReportExportProgress', done, total });
      });
      const requester = (await userNamesForExport(deps.db, [state.requestedBy])).get(state.requestedBy) ?? `#${state.requestedBy}`;
      const bytes = await deps.spreadsheet.table({
        sheet: table.sheet,
        header: table.columns.map((c) => c.header),
        formats: table.columns.map((c) => c.format),
        widths: table.columns.map((c) => c.width ?? 20),
        rows: table.rows,
        about: {
          sheet: 'O izvozu',
          rows: [
            ['Izvoz', KIND_NAMES[request.kind]],
            ['Številka izvoza', exportId],
            ...Object.entries(request.parameters).map(([key, value]): [string, string | number] => [PARAMETER_NAMES[key] ?? key, value]),
            ['Pripravil', requester],
            ['Pripravljeno', deps.now()],
            ['Število vrstic', table.rows.length],
          ],
        },
      });
      const file = await deps.files.put({ name: exportFileName(exportId, request.kind), contentType: XLSX_TYPE, bytes, createdBy: null });
      await step(deps, exportId, { type: 'FinishExport', fileId: file.id, rows: table.rows.length, bytes: bytes.length });
    } catch (error) {
      if (error instanceof DomainError) {
        await step(deps, exportId, { type: 'FailExport', reason: error.message });
        return;
      }
      deps.log.error({ err: error, exportId, attempt }, 'export failed');
      if (meta.retryCount < deps.retryLimit) throw error;
      await step(deps, exportId, { type: 'FailExport', reason: EXPORT_FAILED_REASON });
    }
  };

/**
 * An erasure (decision 0019) reaches the export files read before it that may name the erased person
 * (issue 32 item 3: her companies' users and consents, the courses she took or answered, the chambers
 * of her credits; other people's exports stay): each such file is discarded (recorded, then its bytes
 * removed). The record stays, finished, with no file to
 * download; asked for again, the export reads "izbrisan uporabnik". A run still computing from rows
 * read before the erasure is waited for (the job fails and the queue tries again later).
 */
export const discardExportFiles =
  (deps: Pick<ExportJobDeps, 'store' | 'db' | 'files'>): JobHandler =>
  async (data) => {
    const { erasedAt, userId } = z.object({ erasedAt: z.iso.datetime(), userId: z.number().int().positive().optional() }).parse(data);
    // Only the files that may name her (issue 32 item 3); a job queued before it knew whom (no userId) discards every file naming people.
    const reached =
      userId === undefined
        ? await exportsNamingPeopleStartedBefore(deps.db, new Date(erasedAt))
        : await exportsNamingPerson(deps.db, userId, new Date(erasedAt));
    for (const found of reached) {
      if (found.status !== 'finished' || found.fileId === null) continue;
      await step(deps, found.id, { type: 'DiscardExportFile', reason: DISCARDED_REASON });
      await deps.files.remove(found.fileId);
    }
    if (reached.some((found) => found.status === 'computing')) throw new Error('an export read before the erasure is still running');
  };
