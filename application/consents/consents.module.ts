import type { ConsentOrigin } from '../../domain/consents/consent.decide.ts';
import type { ConsentTypeCode } from '../../domain/consents/consent.rules.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import type { FeatureModule } from '../../infrastructure/main/feature-module.port.ts';
import type { ConsentReportRenderer } from '../../infrastructure/reports/consent-report.port.ts';
import { consentsProjection } from '../../projections/consents/consents.projection.ts';
import { type UsersDb, userNames } from '../../projections/users/users.queries.ts';
import { CONSENT_CHECKPOINT_QUEUE, type ConsentProofDeps, takeConsentCheckpoint } from './consent-checkpoints.ts';
import { createConsentGate } from './consent-gate.ts';
import { registerConsentRoutes } from './consents.routes.ts';
import { type ConsentsDeps, giveConsents } from './consents.ts';

type ConsentsNeeds = ConsentsDeps & {
  readonly pg: UsersDb;
  /** The signed checkpoints of the consent log and the anchor log outside the database (decision 0052). */
  readonly consentProof: ConsentProofDeps;
  readonly renderers: { readonly consentReports: ConsentReportRenderer };
  readonly settings: { readonly consentProof: { readonly refreshMs: number } };
};

/**
 * What this feature offers the others: consents given on the registration form are recorded here,
 * and the gate (against the latest signed checkpoint) says which required consents a person lacks.
 */
export const consentPorts = (needs: ConsentsDeps & Pick<ConsentsNeeds, 'consentProof' | 'settings'>) => ({
  record: (userId: number, consents: readonly { consentType: ConsentTypeCode; textVersion: string }[], origin: ConsentOrigin, metadata: EventMetadata) =>
    giveConsents({ store: needs.store, now: needs.now }, userId, consents, origin, metadata),
  gate: createConsentGate({ store: needs.store, proof: needs.consentProof, refreshMs: needs.settings.consentProof.refreshMs, now: needs.now }),
});

/** Consents: giving and withdrawing them, the auditor's history and reports, the signed checkpoints. */
export const consentsModule: FeatureModule<ConsentsNeeds> = {
  name: 'consents',
  projections: [consentsProjection],
  wire: (needs) => ({
    routes: (app) =>
      registerConsentRoutes(app, {
        store: needs.store,
        now: needs.now,
        db: needs.pg,
        proof: needs.consentProof,
        reports: needs.renderers.consentReports,
        userNames: (ids) => userNames(needs.pg, ids),
      }),
    jobs: () => [
      {
        queue: CONSENT_CHECKPOINT_QUEUE,
        handler: async () => void (await takeConsentCheckpoint(needs.consentProof)),
        options: { cron: '*/5 * * * *', retryLimit: 2 },
      },
    ],
  }),
};
