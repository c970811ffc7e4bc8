/**
 * Short-lived signed tokens for one purpose each (the second-factor step of a login, a social
 * identity waiting to be registered or bound, a provider's one-time code for /redirect/{id}). A
 * token of one purpose is never accepted for another, nor as a session.
 */
/** `survey-ballot`: the right of one anonymous browser to answer one survey once (decision 0049). */
export type TokenPurpose = 'second-factor' | 'social-pending' | 'social-login' | 'oauth-state' | 'survey-ballot';

export type PurposeTokens = {
  sign(purpose: TokenPurpose, payload: Record<string, string | number | boolean | null>, ttlSeconds: number): Promise<string>;
  /** The payload, or null for a token that is forged, expired or of another purpose. */
  verify(purpose: TokenPurpose, token: string): Promise<Record<string, unknown> | null>;
};
