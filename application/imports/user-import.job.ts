import { z } from 'zod';
import { importDecider } from '../../domain/imports/user-import.decide.ts';
import { IMPORT_MESSAGES } from '../../domain/imports/user-import.rules.ts';
import { type ImportEvent, type ImportState, importStream, type RowResult } from '../../domain/imports/user-import.ts';
import { precheckRows } from '../../domain/imports/user-import-precheck.ts';
import { fold } from '../../domain/shared/decider.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import type { JobHandler, Jobs } from '../../infrastructure/jobs/jobs.port.ts';
import type { Projection } from '../../infrastructure/projections/projection.port.ts';
import { existingUsers, importReferences } from '../../projections/imports/imports.queries.ts';
import { messageIdFor } from '../shared/deliver-mail.ts';
import { handleCommand } from '../shared/handle-command.ts';
import type { ImportDeps } from './imports.deps.ts';
import { readImportFile } from './user-import.ts';
import { importRow } from './user-import-row.ts';

export const IMPORT_QUEUE = 'imports.users';
/** Attempts after the first; the last one that fails records the import as failed (spec §8 "import failed"). */
export const IMPORT_RETRY_LIMIT = 5;
/** Rows recorded per event: the progress bar moves and a resumed run repeats at most this many. */
export const IMPORT_BATCH = 250;
/** Rows worked on at once within a batch (different users: no two touch one stream). */
export const IMPORT_CONCURRENCY = 64;

/**
 * A started import queues its job (DESIGN §10: a side effect follows an event). The job's id is made
 * from the start event, so a replayed event queues nothing new.
 */
export const importJobsReactor = (jobs: Pick<Jobs, 'send'>): Projection => ({
  name: 'import_jobs',
  version: 1,
  tables: [],
  setup: () => [],
  handles: ['UserImportStarted'],
  apply: async (_context, events) => {
    for (const event of events) {
      await jobs.send(IMPORT_QUEUE, { importId: Number(event.streamName.slice('import-'.length)) }, { id: messageIdFor(event.eventId, 'import') });
    }
  },
});

const jobData = z.object({ importId: z.number().int().positive() });

/** The import as its stream says, and who started it (the users it makes are theirs to answer for). */
const loadImport = async (deps: Pick<ImportDeps, 'store'>, importId: number): Promise<{ state: ImportState; startedBy: number | null }> => {
  const { events } = await deps.store.readStream(importStream(importId));
  const state = fold(
    importDecider,
    events.map((e) => ({ type: e.type, data: e.data }) as ImportEvent),
  );
  return { state, startedBy: events.findLast((e) => e.type === 'UserImportStarted')?.metadata.actorId ?? null };
};

/** Runs `work` over `items` with at most `limit` at once; results in the items' order. */
const pooled = async <T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> => {
  const results = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index] as T);
      }
    }),
  );
  return results;
};

/**
 * The import job (issue 17 item 1): reads the stored file again, checks each row as the precheck
 * did, and works through the rows from the first one not yet recorded, a batch at a time; each
 * batch's outcomes are one event on the import's stream, appended at the revision read, so the
 * progress bar moves and a run that dies (a killed process, a crash) and runs again goes on after
 * the last recorded batch. The rows of the batch that was cut short are done again; each row is
 * idempotent (user-import-row.ts), so nobody is created twice and nobody is lost.
 */
export const runImport =
  (deps: ImportDeps): JobHandler =>
  async (data, meta) => {
    const { importId } = jobData.parse(data);
    const { state, startedBy } = await loadImport(deps, importId);
    // A completed import's file is removed (again, if a crash came between the completion and the removal).
    if (state.status === 'completed' && state.fileId !== null) await deps.files.remove(state.fileId);
    if (state.status !== 'running') return;
    const stream = importStream(importId);
    const metadata: EventMetadata = { actorId: startedBy, correlationId: `import-${importId}` };
    try {
      const file = state.fileId === null ? null : await deps.files.get(state.fileId);
      if (!file) throw new Error(`import ${importId}: file ${state.fileId} is missing`);
      const { header, rows } = await readImportFile(deps, file.bytes);
      if (rows.length !== state.rows) throw new Error(`import ${importId}: the file has ${rows.length} rows, the import ${state.rows}`);
      const { rows: checked } = precheckRows(rows, header, await importReferences(deps.db));
      for (let from = state.processed; from < checked.length; from += IMPORT_BATCH) {
        const batch = checked.slice(from, from + IMPORT_BATCH);
        // Rows whose username and e-mail are someone's already go straight to the comparison.
        const known = await existingUsers(
          deps.db,
          batch.flatMap((r) => (r.fields ? [r.fields.username] : [])),
          batch.flatMap((r) => (r.fields ? [r.fields.email] : [])),
        );
        const taken = new Set(known.flatMap((u) => [`u:${u.username.toLowerCase()}`, `e:${u.email.toLowerCase()}`]));
        const results: RowResult[] = await pooled(batch, IMPORT_CONCURRENCY, (row) =>
          importRow(deps, {
            importId,
            row,
            sendWelcome: state.sendWelcome,
            metadata,
            exists: row.fields !== null && (taken.has(`u:${row.fields.username.toLowerCase()}`) || taken.has(`e:${row.fields.email}`)),
          }),
        );
        await handleCommand(deps.store, { streamName: stream, decider: importDecider, command: { type: 'RecordRows', from, results }, metadata });
      }
      await handleCommand(deps.store, { streamName: stream, decider: importDecider, command: { type: 'Complete' }, metadata });
    } catch (error) {
      deps.log.error({ err: error, importId, attempt: meta.retryCount }, 'users import failed');
      if (meta.retryCount >= IMPORT_RETRY_LIMIT) {
        await handleCommand(deps.store, {
          streamName: stream,
          decider: importDecider,
          command: { type: 'Fail', message: IMPORT_MESSAGES.importFailed },
          metadata,
        });
      }
      throw error;
    }
    // Done: the file, with everyone's data in it, is not kept (the result names users by id).
    if (state.fileId !== null) await deps.files.remove(state.fileId);
  };
