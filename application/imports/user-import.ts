import { importDecider } from '../../domain/imports/user-import.decide.ts';
import { IMPORT_COLUMNS, IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, IMPORT_MESSAGES } from '../../domain/imports/user-import.rules.ts';
import { importStream } from '../../domain/imports/user-import.ts';
import { dataRows, type HeaderMap, mapHeader, precheckRows, type SheetRow } from '../../domain/imports/user-import-precheck.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { type WorkbookKind, WorkbookRejected } from '../../infrastructure/xlsx/workbook-reader.port.ts';
import { existingUsers, importReferences } from '../../projections/imports/imports.queries.ts';
import { handleCommand } from '../shared/handle-command.ts';
import type { ImportDeps } from './imports.deps.ts';

export const WORKBOOK_TYPES: Readonly<Record<WorkbookKind, string>> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xls: 'application/vnd.ms-excel',
};

const refused = (message: string, status = 400) => new DomainError(String(status), message, { status, field: 'file' });

/** The sheet's rows and where each column is, or the reason (in the user's words) the file cannot be imported. */
export const readImportFile = async (
  deps: Pick<ImportDeps, 'workbooks'>,
  bytes: Buffer,
): Promise<{ kind: WorkbookKind; header: HeaderMap; rows: SheetRow[] }> => {
  let read: Awaited<ReturnType<ImportDeps['workbooks']['read']>>;
  try {
    read = await deps.workbooks.read(bytes, { maxBytes: IMPORT_MAX_BYTES, maxRows: IMPORT_MAX_ROWS });
  } catch (error) {
    if (!(error instanceof WorkbookRejected)) throw error;
    if (error.reason === 'tooLarge') throw refused(IMPORT_MESSAGES.tooLarge, 413);
    if (error.reason === 'tooManyRows') throw refused(IMPORT_MESSAGES.tooManyRows);
    if (error.reason === 'unreadable') throw refused(`${IMPORT_MESSAGES.precheckFailed} ${IMPORT_MESSAGES.notWorkbook}`);
    throw refused(IMPORT_MESSAGES.notWorkbook);
  }
  const [first] = read.rows;
  if (!first) throw refused(IMPORT_MESSAGES.noRows);
  const header = mapHeader(first.cells);
  if (header.missing.length > 0) throw refused(`${IMPORT_MESSAGES.precheckFailed} ${IMPORT_MESSAGES.missingColumns(header.missing)}`);
  const rows = dataRows(read.rows);
  if (rows.length === 0) throw refused(IMPORT_MESSAGES.noRows);
  return { kind: read.kind, header, rows };
};

/**
 * An uploaded file (1005): recognised by its content, read whole and prechecked (every row and
 * column, every problem of spec §8) before anything else is written; then the file goes to the
 * file store and the import with its precheck is recorded. Nothing about users is written here.
 */
export const uploadImport = async (deps: ImportDeps, input: { bytes: Buffer; fileName: string; actorId: number }, metadata: EventMetadata) => {
  const { kind, header, rows } = await readImportFile(deps, input.bytes);
  await deps.catchUp?.();
  const [references, existing] = await Promise.all([
    importReferences(deps.db),
    (async () => {
      const at = (key: 'username' | 'email') => header.columns.get(key) as number;
      return existingUsers(
        deps.db,
        rows.map((r) => (r.cells[at('username')] ?? '').trim()),
        rows.map((r) => (r.cells[at('email')] ?? '').trim()),
      );
    })(),
  ]);
  const precheck = precheckRows(rows, header, references, existing);
  // Only a clean file is kept, for the job (it holds people's data: decision 0025); a blocked one never runs.
  const fileId =
    precheck.problemCount > 0
      ? null
      : (await deps.files.put({ name: input.fileName, contentType: WORKBOOK_TYPES[kind], bytes: input.bytes, createdBy: input.actorId })).id;
  const importId = await deps.ids.next('import');
  const result = await handleCommand(deps.store, {
    streamName: importStream(importId),
    decider: importDecider,
    command: {
      type: 'Upload',
      importId,
      fileId,
      fileName: input.fileName,
      rows: rows.length,
      problems: precheck.problems,
      problemCount: precheck.problemCount,
      existing: precheck.existing,
    },
    metadata,
  });
  return {
    id: importId,
    rows: rows.length,
    status: precheck.problemCount > 0 ? ('blocked' as const) : ('ready' as const),
    problemCount: precheck.problemCount,
    problems: precheck.problems,
    existing: precheck.existing,
    position: result.position,
  };
};

/** Starts a clean import (1005): recorded, and a reactor queues the job (DESIGN §10). A blocked one is refused (spec §8). */
export const startImport = async (deps: Pick<ImportDeps, 'store'>, importId: number, sendWelcome: boolean, metadata: EventMetadata) => {
  const result = await handleCommand(deps.store, {
    streamName: importStream(importId),
    decider: importDecider,
    command: { type: 'Start', sendWelcome },
    metadata,
  });
  return { id: importId, status: result.state.status, position: result.position };
};

/** The template: the columns' Slovenian headers (required ones marked with *), ready to fill in. */
export const importTemplate = (deps: Pick<ImportDeps, 'spreadsheet'>) =>
  deps.spreadsheet.table({
    sheet: 'Uporabniki',
    header: IMPORT_COLUMNS.map((c) => (c.required ? `${c.header} *` : c.header)),
    rows: [],
    widths: IMPORT_COLUMNS.map((c) => Math.max(16, c.header.length + 4)),
  });
