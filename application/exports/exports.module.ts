import type { FeatureModule } from '../../infrastructure/main/feature-module.port.ts';
import type { ReadModels } from '../../infrastructure/projections/projection.port.ts';
import { exportsProjection } from '../../projections/exports/exports.projection.ts';
import { registerExportReadRoutes } from '../../projections/exports/exports.routes.ts';
import {
  discardExportFiles,
  EXPORT_DISCARD_QUEUE,
  EXPORT_HEARTBEAT_SECONDS,
  EXPORT_QUEUE,
  EXPORT_RETRY_LIMIT,
  type ExportJobDeps,
  exportsReactor,
  runExport,
} from './export.job.ts';
import { registerExportRoutes } from './exports.routes.ts';
import type { ExportsDeps } from './exports.ts';

type ExportsNeeds = Omit<ExportJobDeps, 'retryLimit'> &
  Pick<ExportsDeps, 'ids'> & {
    readonly readModels: ReadModels;
    readonly settings: { readonly exportsPerPerson: { readonly running: number } };
  };

/** Exports (issue 17 item 2, decision 0026): a job per export, resumed by pg-boss after a crash; files through the file port. */
export const exportsModule: FeatureModule<ExportsNeeds> = {
  name: 'exports',
  projections: [exportsProjection],
  reactors: (jobs) => [exportsReactor(jobs)],
  wire: (needs) => {
    const job: ExportJobDeps = { ...needs, retryLimit: EXPORT_RETRY_LIMIT };
    return {
      routes: (app) => {
        registerExportRoutes(app, {
          store: needs.store,
          ids: needs.ids,
          db: needs.db,
          files: needs.files,
          runningPerPerson: needs.settings.exportsPerPerson.running,
          catchUp: () => needs.readModels.catchUp(),
        });
        registerExportReadRoutes(app, { db: needs.db });
      },
      jobs: () => [
        {
          queue: EXPORT_QUEUE,
          handler: runExport(job),
          options: { retryLimit: EXPORT_RETRY_LIMIT, retryDelaySeconds: 5, heartbeatSeconds: EXPORT_HEARTBEAT_SECONDS },
        },
        { queue: EXPORT_DISCARD_QUEUE, handler: discardExportFiles(job), options: { retryLimit: 10, retryDelaySeconds: 10 } },
      ],
    };
  },
};
