import type { ChamberReporter } from '../../infrastructure/chambers/chamber-reporter.port.ts';
import type { FeatureModule } from '../../infrastructure/main/feature-module.port.ts';
import { chamberCreditsProjection } from '../../projections/chambers/chamber-credits.projection.ts';
import { registerChamberCreditRoutes } from '../../projections/chambers/chamber-credits.routes.ts';
import {
  CHAMBER_CREDIT_QUEUE,
  CHAMBER_RETRY_LIMIT,
  CHAMBER_SWEEP_QUEUE,
  type ChamberCreditDeps,
  chamberCreditsReactor,
  reportChamberCredit,
  sweepChamberCredits,
} from './chamber-credits.job.ts';

type ChambersNeeds = Omit<ChamberCreditDeps, 'jobs' | 'reporter'> & {
  /** HTTP where a chamber has an address, else the file drop (issue 17 item 6, decision 0030). */
  readonly chamberReporter: ChamberReporter;
  readonly settings: { readonly chambers: { readonly retryDelaySeconds: number } };
};

/** Credit points reported to the professional chambers, and the admin's view of what was reported. */
export const chambersModule: FeatureModule<ChambersNeeds> = {
  name: 'chambers',
  projections: [chamberCreditsProjection],
  reactors: (jobs) => [chamberCreditsReactor(jobs)],
  wire: (needs) => ({
    routes: (app) => registerChamberCreditRoutes(app, { db: needs.db }),
    jobs: (jobs) => {
      const deps: ChamberCreditDeps = { store: needs.store, db: needs.db, reporter: needs.chamberReporter, jobs, log: needs.log, now: needs.now };
      return [
        {
          queue: CHAMBER_CREDIT_QUEUE,
          handler: reportChamberCredit(deps),
          options: { retryLimit: CHAMBER_RETRY_LIMIT, retryDelaySeconds: needs.settings.chambers.retryDelaySeconds },
        },
        { queue: CHAMBER_SWEEP_QUEUE, handler: sweepChamberCredits(deps), options: { cron: '*/30 * * * *', retryLimit: 2 } },
      ];
    },
  }),
};
