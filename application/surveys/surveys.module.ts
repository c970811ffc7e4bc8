import type { PurposeTokens } from '../../infrastructure/auth/purpose-tokens.port.ts';
import type { FeatureModule } from '../../infrastructure/main/feature-module.port.ts';
import type { AttemptLimits } from '../shared/attempt-limits.ts';
import { registerSurveyRoutes } from './surveys.routes.ts';
import type { SurveysDeps } from './surveys.ts';

type SurveysNeeds = Omit<SurveysDeps, 'ballots'> & {
  readonly purposeTokens: PurposeTokens;
  readonly attempts: AttemptLimits;
  readonly settings: { readonly surveyBallotsPerHour: number };
};

/** NPS surveys answered inside a course or by an anonymous browser with a ballot (issue 31); the figures are the stats feature's. */
export const surveysModule: FeatureModule<SurveysNeeds> = {
  name: 'surveys',
  projections: [],
  wire: (needs) => ({
    routes: (app) =>
      registerSurveyRoutes(app, {
        store: needs.store,
        db: needs.db,
        now: needs.now,
        attempts: needs.attempts,
        ballots: needs.purposeTokens,
        ballotsPerHour: needs.settings.surveyBallotsPerHour,
      }),
  }),
};
