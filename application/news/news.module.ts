import type { FeatureModule } from '../../infrastructure/main/feature-module.port.ts';
import { newsProjection } from '../../projections/news/news.projection.ts';
import { registerNewsRoutes } from './news.routes.ts';
import type { NewsDeps } from './news.ts';
import { registerRxCourseLinkRoutes } from './rx-course-links.routes.ts';

/** News pop-ups: written for an audience, shown once to each person in it. */
export const newsModule: FeatureModule<NewsDeps> = {
  name: 'news',
  projections: [newsProjection],
  wire: (needs) => ({
    routes: (app) => {
      registerNewsRoutes(app, { store: needs.store, ids: needs.ids, db: needs.db, now: needs.now });
      // The editors' warning of RX links (issue 36); the newsletter editor asks it too.
      registerRxCourseLinkRoutes(app, { db: needs.db });
    },
  }),
};
