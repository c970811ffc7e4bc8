import type { FeatureModule } from '../../infrastructure/main/feature-module.port.ts';
import { pushProjection } from '../../projections/push/push.projection.ts';
import { registerPushRoutes } from './push.routes.ts';
import type { PushSubscriptionDeps } from './push-subscriptions.ts';

/** Push subscriptions of each browser (decision 0024); the notifications themselves go out with the courses' jobs. */
export const pushModule: FeatureModule<PushSubscriptionDeps> = {
  name: 'push',
  projections: [pushProjection],
  wire: (needs) => ({ routes: (app) => registerPushRoutes(app, { store: needs.store, db: needs.db, push: needs.push }) }),
};
