import type { FeatureModule } from '../../infrastructure/main/feature-module.port.ts';
import { newslettersProjection } from '../../projections/newsletters/newsletters.projection.ts';
import { registerNewsletterRoutes } from './newsletters.routes.ts';
import type { NewslettersDeps } from './newsletters.ts';

/** Newsletters: written, targeted by profession, listed. */
export const newslettersModule: FeatureModule<NewslettersDeps> = {
  name: 'newsletters',
  projections: [newslettersProjection],
  wire: (needs) => ({ routes: (app) => registerNewsletterRoutes(app, { store: needs.store, ids: needs.ids, db: needs.db }) }),
};
