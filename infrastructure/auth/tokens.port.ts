import type { AllPosition } from '../event-store/event-store.port.ts';

/** What a session token says. `realUserId` is the admin behind a "log in as" session. */
export type SessionClaims = {
  readonly userId: number;
  readonly sessionId: string;
  readonly realUserId: number | null;
  /** Position of the event that opened the session: reads wait for it when the user is brand new. */
  readonly position: AllPosition | null;
};

export type SessionTokens = {
  sign(claims: SessionClaims): Promise<string>;
  /** Null for a missing, malformed, forged or expired token. */
  verify(token: string): Promise<SessionClaims | null>;
};
