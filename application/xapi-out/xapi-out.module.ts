import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { Log } from '../../infrastructure/logging/log.port.ts';
import type { FeatureModule } from '../../infrastructure/main/feature-module.port.ts';
import type { LrsDestination, StatementSender } from '../../infrastructure/xapi/statement-sender.port.ts';
import type { XapiOutDb } from '../../projections/xapi-out/xapi-out.queries.ts';
import { registerXapiOutReadRoutes } from '../../projections/xapi-out/xapi-out.routes.ts';
import { forwardJob, PLATFORM_DESTINATION, XAPI_OUT_PACE, XAPI_OUT_QUEUE, type XapiOutJobDeps, xapiOutReactor } from './xapi-out.job.ts';
import { registerXapiOutRoutes } from './xapi-out.routes.ts';

type XapiOutNeeds = {
  readonly store: EventStore;
  readonly db: XapiOutDb;
  readonly log: Log;
  readonly settings: { readonly publicUrl: string; readonly xapiOut: LrsDestination | null };
  /** Sends one statement to an LRS (the HTTP adapter; an outside LRS is an external edge). */
  readonly sendStatement: StatementSender;
};

/** The LRS's address as the admin page shows it: no credentials, no query. */
const shownEndpoint = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, '');
};

/**
 * xAPI out (issue 35 item 5, decision 0061): learning events as xAPI statements, forwarded by a job to
 * the platform-wide LRS (XAPI_LRS_URL with XAPI_LRS_KEY/SECRET), with a delivery log and a backfill.
 */
export const xapiOutModule: FeatureModule<XapiOutNeeds> = {
  name: 'xapi-out',
  projections: [],
  reactors: (jobs) => [xapiOutReactor(jobs)],
  wire: (needs) => {
    const destination = needs.settings.xapiOut;
    const deps: XapiOutJobDeps = {
      store: needs.store,
      db: needs.db,
      log: needs.log,
      publicUrl: needs.settings.publicUrl,
      destination,
      send: needs.sendStatement,
      pace: XAPI_OUT_PACE,
    };
    // Set where this process runs jobs (they are wired before the routes): a backfill starts at once there.
    let wake = async () => undefined;
    return {
      jobs: (jobs) => {
        wake = async () => {
          await jobs.send(XAPI_OUT_QUEUE, {}, { id: randomUUID() });
        };
        return [{ queue: XAPI_OUT_QUEUE, handler: forwardJob(deps, jobs), options: { cron: '* * * * *', retryLimit: 0 } }];
      },
      routes: (app) => {
        registerXapiOutReadRoutes(app, {
          db: needs.db,
          endpoint: destination ? shownEndpoint(destination.url) : null,
          destination: PLATFORM_DESTINATION,
          head: () => needs.store.headPosition(),
        });
        registerXapiOutRoutes(app, { db: needs.db, configured: destination !== null, destination: PLATFORM_DESTINATION, wake: () => wake() });
      },
    };
  },
};
