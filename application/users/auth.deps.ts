import type { PasswordHasher } from '../../infrastructure/auth/password-hasher.port.ts';
import type { SessionTokens } from '../../infrastructure/auth/tokens.port.ts';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { AttemptLimits } from '../shared/attempt-limits.ts';

/** What the auth slices need, wired by the composition root. */
export type AuthDeps = {
  readonly store: EventStore;
  readonly passwords: PasswordHasher;
  readonly tokens: SessionTokens;
  readonly now: () => Date;
  readonly loginTokenTtlSeconds: number;
  readonly attempts: AttemptLimits;
};
