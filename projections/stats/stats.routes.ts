import type { HttpApp } from '../../infrastructure/http/http.port.ts';
import { registerCommunityStatsRoutes } from './community-stats.routes.ts';
import { registerCostsRoutes } from './costs.routes.ts';
import { registerNpsRoutes } from './nps.routes.ts';
import { registerPlatformStatsRoutes } from './platform-stats.routes.ts';
import type { StatsDb } from './stats.queries.ts';
import { registerSuccessRoutes } from './success.routes.ts';

/**
 * Statistics and costs (issue 7). Permissions of spec §6: block views overview 1056 (system) or 1059
 * (community), community breakdown 1057/1060, comments 1058/1061; costs: deal read 1052 (system) or
 * cost overview 2009 (community: the accountant, for courses billed to their company). A community
 * role sees only the answers of participants in the units it reaches. Every figure takes `asOf`.
 * Each figure's routes are in <figure>.routes.ts; what they share is in stats-request.ts.
 */
export const registerStatsReadRoutes = (app: HttpApp, deps: { db: StatsDb }) => {
  registerNpsRoutes(app, deps);
  registerSuccessRoutes(app, deps);
  registerCostsRoutes(app, deps);
  registerPlatformStatsRoutes(app, deps);
  registerCommunityStatsRoutes(app, deps);
};
