import type { SocialPlatform } from '../../domain/users/user.ts';

/** What a provider vouches for after a sign-in: its stable subject, and the e-mail if it gave one. */
export type SocialIdentity = { readonly subject: string; readonly email: string | null; readonly emailVerified: boolean; readonly name: string | null };

/** What must come back with the provider's answer for it to count (kept by the platform between the two legs). */
export type SocialChecks = { readonly state: string; readonly nonce: string; readonly codeVerifier: string };

/**
 * Social sign-in (spec §1: Google and Facebook) as OpenID Connect with PKCE. Google and Facebook are
 * external edges: the platform meets them only here. In development and tests a local provider
 * (oidc-provider) stands in for both.
 */
export type SocialProvider = {
  readonly platform: SocialPlatform;
  /** Starts a sign-in: the provider's page to send the browser to, and the checks to keep. */
  begin(redirectUri: string): Promise<{ url: string; checks: SocialChecks }>;
  /** Finishes it from the URL the provider sent the browser back to. Throws when the answer does not check. */
  finish(callbackUrl: URL, checks: SocialChecks, redirectUri: string): Promise<SocialIdentity>;
};
