import type { ExportRequest } from '../../domain/exports/export.rules.ts';
import { chamberCreditsTable } from './chamber-credits.export-table.ts';
import { consentsTable } from './consents.export-table.ts';
import { costsTable } from './costs.export-table.ts';
import type { ExportTable, ExportTableDeps, Progress } from './export-table.ts';
import { npsTable } from './nps.export-table.ts';
import { participantsTable } from './participants.export-table.ts';
import { usersTable } from './users.export-table.ts';

/** The table of one export: each kind builds its own (decision 0026). */
export const buildExportTable = (deps: ExportTableDeps, request: ExportRequest, progress: Progress): Promise<ExportTable> => {
  switch (request.kind) {
    case 'users':
      return usersTable(deps, request.parameters, progress);
    case 'participants':
      return participantsTable(deps, request.parameters, progress);
    case 'nps':
      return npsTable(deps, request.parameters, progress);
    case 'costs':
      return costsTable(deps, request.parameters, progress);
    case 'consents':
      return consentsTable(deps, request.parameters, progress);
    case 'chambers':
      return chamberCreditsTable(deps, request.parameters, progress);
    default: {
      const unreachable: never = request;
      return unreachable;
    }
  }
};
