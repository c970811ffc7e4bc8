import type { FeatureModule } from '../../infrastructure/main/feature-module.port.ts';
import type { ReadModels } from '../../infrastructure/projections/projection.port.ts';
import { importsProjection } from '../../projections/imports/imports.projection.ts';
import { registerImportReadRoutes } from '../../projections/imports/imports.routes.ts';
import type { ImportDeps, ImportUsers } from './imports.deps.ts';
import { registerImportRoutes } from './imports.routes.ts';
import { IMPORT_QUEUE, IMPORT_RETRY_LIMIT, importJobsReactor, runImport } from './user-import.job.ts';

type ImportsNeeds = Omit<ImportDeps, 'users' | 'catchUp'> & {
  /** The users feature's own slices that make and change users (wired by the composition root). */
  readonly userAccounts: ImportUsers;
  readonly readModels: ReadModels;
};

/** Users imports (issue 17, decision 0025): a precheck, then a job that makes and changes users, resumed after a crash. */
export const importsModule: FeatureModule<ImportsNeeds> = {
  name: 'imports',
  projections: [importsProjection],
  reactors: (jobs) => [importJobsReactor(jobs)],
  wire: (needs) => {
    const imports: ImportDeps = {
      store: needs.store,
      ids: needs.ids,
      db: needs.db,
      files: needs.files,
      workbooks: needs.workbooks,
      spreadsheet: needs.spreadsheet,
      log: needs.log,
      users: needs.userAccounts,
      // A precheck right after an import sees the users it made: a large import may keep the read models busy for longer.
      catchUp: () => needs.readModels.catchUp(['users', 'organisation'], Math.max(needs.readModels.waitMs, 10_000)),
    };
    return {
      routes: async (app) => {
        await registerImportRoutes(app, imports);
        registerImportReadRoutes(app, { db: needs.db });
      },
      // A killed or crashed run falls silent and is taken up again by another worker (or this one after a restart).
      jobs: () => [
        { queue: IMPORT_QUEUE, handler: runImport(imports), options: { retryLimit: IMPORT_RETRY_LIMIT, retryDelaySeconds: 5, heartbeatSeconds: 10 } },
      ],
    };
  },
};
