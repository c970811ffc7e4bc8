import type { ConsentOrigin } from '../../domain/consents/consent.decide.ts';
import type { ConsentTypeCode } from '../../domain/consents/consent.rules.ts';
import type { PasswordHasher } from '../../infrastructure/auth/password-hasher.port.ts';
import type { PurposeTokens } from '../../infrastructure/auth/purpose-tokens.port.ts';
import type { SecretSealer } from '../../infrastructure/auth/secret-sealer.port.ts';
import type { SessionTokens } from '../../infrastructure/auth/tokens.port.ts';
import type { AllPosition, EventMetadata, EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { IdAllocator } from '../../infrastructure/ids/id-allocator.port.ts';
import type { ReadDb } from '../../projections/organisation/organisation.queries.ts';
import type { AttemptLimits } from '../shared/attempt-limits.ts';

/** What the account and sign-in slices need, wired by the composition root. */
export type AuthDeps = {
  readonly store: EventStore;
  readonly ids: IdAllocator;
  readonly db: ReadDb;
  readonly passwords: PasswordHasher;
  readonly tokens: SessionTokens;
  readonly purposeTokens: PurposeTokens;
  readonly sealer: SecretSealer;
  readonly now: () => Date;
  readonly loginTokenTtlSeconds: number;
  readonly attempts: AttemptLimits;
  /** Records consents given on the registration form (the consents feature, wired in by the composition root). */
  readonly recordConsents: (
    userId: number,
    consents: readonly { consentType: ConsentTypeCode; textVersion: string }[],
    origin: ConsentOrigin,
    metadata: EventMetadata,
  ) => Promise<{ position: AllPosition | null }>;
  /** Waits (bounded) for the organisation read model to hold every stored event, before a unit or company is called missing. */
  readonly catchUpOrganisation?: () => Promise<void>;
};
