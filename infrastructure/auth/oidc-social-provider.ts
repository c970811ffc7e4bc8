import * as client from 'openid-client';
import type { SocialPlatform } from '../../domain/users/user.ts';
import type { SocialProvider } from './social-provider.port.ts';

/**
 * A social provider spoken to as OpenID Connect (openid-client): discovery from the issuer, the
 * authorization code flow with PKCE, state and nonce, the ID token's claims. An http issuer is
 * allowed only for the local provider of development and tests.
 */
export const createOidcSocialProvider = (options: { platform: SocialPlatform; issuer: string; clientId: string; clientSecret: string }): SocialProvider => {
  let configuration: Promise<client.Configuration> | null = null;
  const configured = () => {
    configuration ??= client
      .discovery(
        new URL(options.issuer),
        options.clientId,
        options.clientSecret,
        undefined,
        options.issuer.startsWith('http://') ? { execute: [client.allowInsecureRequests] } : undefined,
      )
      .catch((error) => {
        configuration = null;
        throw error;
      });
    return configuration;
  };
  return {
    platform: options.platform,
    begin: async (redirectUri) => {
      const config = await configured();
      const checks = { state: client.randomState(), nonce: client.randomNonce(), codeVerifier: client.randomPKCECodeVerifier() };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        state: checks.state,
        nonce: checks.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
      });
      return { url: url.href, checks };
    },
    finish: async (callbackUrl, checks, redirectUri) => {
      const config = await configured();
      const tokens = await client.authorizationCodeGrant(
        config,
        callbackUrl,
        { pkceCodeVerifier: checks.codeVerifier, expectedState: checks.state, expectedNonce: checks.nonce },
        { redirect_uri: redirectUri },
      );
      const idToken = tokens.claims();
      if (!idToken?.sub) throw new Error('no subject in the ID token');
      // Some providers keep the e-mail for the userinfo endpoint rather than the ID token.
      const claims: Record<string, unknown> =
        typeof idToken.email === 'string' ? idToken : { ...idToken, ...(await client.fetchUserInfo(config, tokens.access_token, idToken.sub)) };
      const email = typeof claims.email === 'string' ? claims.email.toLowerCase() : null;
      return {
        subject: idToken.sub,
        email,
        emailVerified: email !== null && claims.email_verified === true,
        name: typeof claims.name === 'string' ? claims.name : null,
      };
    },
  };
};
