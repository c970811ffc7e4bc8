import type { PackageLaunch, PackageLaunches, RecordCmi5Outcome } from '../../domain/packages/package-launch.ts';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { Log } from '../../infrastructure/logging/log.port.ts';
import type { FeatureModule } from '../../infrastructure/main/feature-module.port.ts';
import type { ReadModels } from '../../infrastructure/projections/projection.port.ts';
import { lrsProjection } from '../../projections/lrs/lrs.projection.ts';
import type { LrsReadDb } from '../../projections/lrs/lrs.queries.ts';
import { registerLrsRoutes } from './lrs.routes.ts';
import type { LrsDeps } from './lrs.ts';
import { type Cmi5LaunchPrepared, type PrepareCmi5LaunchOptions, prepareCmi5Launch } from './prepare-cmi5-launch.ts';

/** What the LRS takes from the platform: the launches (the lead's store) and the outcome port of the courses feature. */
type LrsNeeds = {
  readonly store: EventStore;
  readonly db: LrsReadDb;
  readonly readModels: Pick<ReadModels, 'catchUp'>;
  readonly now: () => Date;
  readonly settings: {
    readonly publicUrl: string;
    readonly packages: { readonly contentOrigin: string };
    readonly lrsClient: { readonly key: string; readonly secret: string } | null;
  };
  readonly packageLaunches: PackageLaunches;
  readonly recordCmi5Outcome: RecordCmi5Outcome;
  readonly log: Log;
};

const depsOf = (needs: LrsNeeds): LrsDeps => ({
  store: needs.store,
  db: needs.db,
  readModels: needs.readModels,
  now: needs.now,
  publicUrl: needs.settings.publicUrl,
  contentOrigin: needs.settings.packages.contentOrigin,
  lrsClient: needs.settings.lrsClient,
  packageLaunches: needs.packageLaunches,
  recordCmi5Outcome: needs.recordCmi5Outcome,
  log: needs.log,
});

/**
 * The platform as the LRS of cmi5 AUs (issue 35 item 4): statements stored as events and read from
 * the `lrs` read model at `GET /xapi/statements`, the State resource, the learner preferences, the
 * cmi5 fetch URL.
 */
export const lrsModule: FeatureModule<LrsNeeds> = {
  name: 'lrs',
  projections: [lrsProjection],
  wire: (needs) => ({ routes: (app) => registerLrsRoutes(app, depsOf(needs)) }),
};

/** What the LRS offers the package player (connected in the composition root, decision 0058). */
export type LrsPorts = {
  /** Before opening a cmi5 AU: LaunchData and "launched" stored; answers what the launch URL carries (cmi5 §8.1). */
  readonly prepareCmi5Launch: (launch: PackageLaunch, options?: PrepareCmi5LaunchOptions) => Promise<Cmi5LaunchPrepared>;
};

export const lrsPorts = (needs: LrsNeeds): LrsPorts => {
  const deps = depsOf(needs);
  return { prepareCmi5Launch: (launch, options) => prepareCmi5Launch(deps, launch, options) };
};
