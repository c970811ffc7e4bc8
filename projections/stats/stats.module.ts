import type { FeatureModule } from '../../infrastructure/main/feature-module.port.ts';
import { packageAnswersProjection } from './package-answers.projection.ts';
import { registerPackageAnswerRoutes } from './package-answers.routes.ts';
import { statsProjection } from './stats.projection.ts';
import type { StatsDb } from './stats.queries.ts';
import { registerStatsReadRoutes } from './stats.routes.ts';

/** Statistics (NPS, success rates, costs, views) as of any moment: a read model and its routes, no commands. */
export const statsModule: FeatureModule<{ readonly db: StatsDb }> = {
  name: 'stats',
  projections: [statsProjection, packageAnswersProjection],
  wire: (needs) => ({
    routes: (app) => {
      registerStatsReadRoutes(app, { db: needs.db });
      // The per-question view of package blocks (issue 35).
      registerPackageAnswerRoutes(app, { db: needs.db });
    },
  }),
};
