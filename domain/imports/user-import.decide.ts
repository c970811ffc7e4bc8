import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { IMPORT_MESSAGES, type ImportProblem } from './user-import.rules.ts';
import { evolveImport, type ImportEvent, type ImportState, initialImportState, type RowResult } from './user-import.ts';

export type ImportCommand =
  | {
      type: 'Upload';
      importId: number;
      fileId: number | null;
      fileName: string;
      rows: number;
      problems: readonly ImportProblem[];
      problemCount: number;
      existing: number;
    }
  | { type: 'Start'; sendWelcome: boolean }
  | { type: 'RecordRows'; from: number; results: readonly RowResult[] }
  | { type: 'Complete' }
  | { type: 'Fail'; message: string };

const notFound = () => new DomainError('404', 'Uvoz ne obstaja.', { status: 404 });

export const decideImport = (command: ImportCommand, state: ImportState): ImportEvent[] => {
  switch (command.type) {
    case 'Upload': {
      if (state.status !== 'none') return [];
      const { type: _type, ...data } = command;
      return [{ type: 'UserImportUploaded', data: { ...data, problems: [...data.problems] } }];
    }
    case 'Start':
      if (state.status === 'none') throw notFound();
      // spec §8: the import is blocked until the errors are fixed (a corrected file is a new upload).
      if (state.problemCount > 0) throw new DomainError('422', IMPORT_MESSAGES.blocked, { status: 422 });
      if (state.status === 'uploaded') return [{ type: 'UserImportStarted', data: { sendWelcome: command.sendWelcome } }];
      // Failed: started again, it goes on where it stopped, with the choice it was started with.
      if (state.status === 'failed') return [{ type: 'UserImportStarted', data: { sendWelcome: state.sendWelcome } }];
      return [];
    case 'RecordRows':
      if (state.status !== 'running') return [];
      // A batch recorded already (a job that ran again after a crash) is not recorded twice.
      if (command.from < state.processed) return [];
      if (command.from > state.processed || command.from + command.results.length > state.rows) {
        throw new DomainError('409', 'Vrstice uvoza morajo biti zapisane po vrsti.', { status: 409 });
      }
      return command.results.length === 0 ? [] : [{ type: 'UserImportRowsProcessed', data: { from: command.from, results: [...command.results] } }];
    case 'Complete':
      if (state.status !== 'running') return [];
      if (state.processed < state.rows) throw new DomainError('409', 'Uvoz še ni obdelal vseh vrstic.', { status: 409 });
      return [{ type: 'UserImportCompleted', data: state.counts }];
    case 'Fail':
      return state.status === 'running' ? [{ type: 'UserImportFailed', data: { message: command.message } }] : [];
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
};

export const importDecider: Decider<ImportCommand, ImportEvent, ImportState> = {
  initialState: initialImportState,
  evolve: evolveImport,
  decide: decideImport,
};
