import type { FeatureModule } from '../../infrastructure/main/feature-module.port.ts';
import { statsProjection } from './stats.projection.ts';
import type { StatsDb } from './stats.queries.ts';
import { registerStatsReadRoutes } from './stats.routes.ts';

/** Statistics (NPS, success rates, costs, views) as of any moment: a read model and its routes, no commands. */
export const statsModule: FeatureModule<{ readonly db: StatsDb }> = {
  name: 'stats',
  projections: [statsProjection],
  wire: (needs) => ({ routes: (app) => registerStatsReadRoutes(app, { db: needs.db }) }),
};
