import { randomUUID } from 'node:crypto';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { userDecider } from '../../domain/users/user.decide.ts';
import { type SocialPlatform, userStream } from '../../domain/users/user.ts';
import type { SocialProvider } from '../../infrastructure/auth/social-provider.port.ts';
import type { AllPosition, EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { handleCommand } from '../shared/handle-command.ts';
import type { AuthDeps } from './auth.deps.ts';
import { challengeSecondFactor } from './second-factor.ts';
import { bindSocialIdentity, socialIdentityOwner } from './social-identities.ts';
import { emailOwner, loadUser } from './user-state.ts';

export type SocialDeps = AuthDeps & {
  readonly providers: Partial<Record<SocialPlatform, SocialProvider>>;
  readonly publicUrl: string;
  /** Waits until the read models have a write: a browser redirect carries no X-Event-Position for the next page. */
  readonly settle: (position: AllPosition | null) => Promise<void>;
};

/** spec §8 "Facebook login unavailable" (and the same for Google when it is not configured). */
export const PROVIDER_UNAVAILABLE: Record<SocialPlatform, string> = {
  google: 'Prijava z Googlom trenutno ni mogoča.',
  facebook: 'Prijava s Facebookom trenutno ni mogoča.',
};

const STATE_TTL_SECONDS = 600;
const LOGIN_CODE_TTL_SECONDS = 120;
const PENDING_TTL_SECONDS = 1800;

/** A path inside the platform to go back to; anything else (another site, `//host`) becomes the home page. */
export const safePath = (value: unknown) => (typeof value === 'string' && /^\/(?!\/)[^\s\\]*$/.test(value) ? value : '/');

const callbackUri = (deps: SocialDeps, platform: SocialPlatform) => `${deps.publicUrl}/api/auth/social/${platform}/callback`;

const query = (path: string, params: Record<string, string | null | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `${path}?${text}` : path;
};

/**
 * Starts a sign-in (mode login) or the binding of a provider account to the signed-in user (mode
 * bind, from the profile). The checks (state, nonce, PKCE verifier) and where to go afterwards
 * travel in a signed, short-lived token the server keeps in a cookie between the two legs.
 */
export const startSocial = async (
  deps: SocialDeps,
  platform: SocialPlatform,
  intent: { mode: 'login' | 'bind'; redirect: string; courseId: number; userId: number | null },
) => {
  const provider = deps.providers[platform];
  if (!provider) throw new DomainError('400', PROVIDER_UNAVAILABLE[platform], { status: 400, field: 'platform' });
  const { url, checks } = await provider.begin(callbackUri(deps, platform));
  const stateToken = await deps.purposeTokens.sign(
    'oauth-state',
    { platform, ...checks, mode: intent.mode, redirect: safePath(intent.redirect), courseId: intent.courseId, userId: intent.userId },
    STATE_TTL_SECONDS,
  );
  return { url, stateToken };
};

/**
 * The provider sent the browser back: check its answer, then decide where the person goes (a UI
 * path). A bound identity signs in (through the second factor when it is on); an unbound one whose
 * vouched e-mail has an account goes to log in with the password (binding it, spec §7 oauthEmail /
 * oauthPlatform); an unknown one to registration with the e-mail filled in; one without an e-mail
 * to /registracija/bind-email.
 */
export const finishSocial = async (deps: SocialDeps, platform: SocialPlatform, callbackUrl: URL, stateToken: string | null, metadata: EventMetadata) => {
  const failed = '/prijava?napaka=social';
  const state = stateToken ? await deps.purposeTokens.verify('oauth-state', stateToken) : null;
  const provider = deps.providers[platform];
  if (!state || state.platform !== platform || !provider) return failed;
  let identity: Awaited<ReturnType<SocialProvider['finish']>>;
  try {
    identity = await provider.finish(
      callbackUrl,
      { state: String(state.state), nonce: String(state.nonce), codeVerifier: String(state.codeVerifier) },
      callbackUri(deps, platform),
    );
  } catch {
    return failed;
  }
  const redirect = safePath(state.redirect);
  const pending = { platform, subject: identity.subject, email: identity.email, emailVerified: identity.emailVerified };
  const owner = await socialIdentityOwner(deps.store, platform, identity.subject);

  if (state.mode === 'bind') {
    const userId = Number(state.userId);
    if (owner !== null && owner !== userId) return '/profil?napaka=povezava';
    const bound = await bindSocialIdentity(deps, userId, pending, { ...metadata, actorId: userId });
    await deps.settle(bound.position);
    return `/profil?povezano=${platform}`;
  }

  if (owner !== null) {
    const user = await loadUser(deps.store, owner);
    if (user.status !== 'active') return failed;
    if (user.secondFactor) {
      const challenge = await challengeSecondFactor(deps, owner, metadata);
      return query('/prijava/2fa', { auth2FAToken: challenge.auth2FAToken, oauthPlatform: platform, oauthEmail: identity.email, redirect });
    }
    const code = await deps.purposeTokens.sign('social-login', { userId: owner, sessionId: randomUUID() }, LOGIN_CODE_TTL_SECONDS);
    return query(`/redirect/${Number(state.courseId) || 0}`, { provider: platform, user: code });
  }

  const socialToken = await deps.purposeTokens.sign('social-pending', pending, PENDING_TTL_SECONDS);
  if (!identity.email) return query('/registracija/bind-email', { oauthPlatform: platform, socialToken });
  if (identity.emailVerified && (await emailOwner(deps.store, identity.email)) !== null) {
    return query('/prijava', { oauthEmail: identity.email, oauthPlatform: platform, oauthToken: socialToken, redirect });
  }
  return query('/registracija', { oauthEmail: identity.email, oauthPlatform: platform, socialToken });
};

/** spec §7 GET /redirect/{id}?provider=&user=: the provider's one-time code for a session, once. */
export const exchangeSocialLogin = async (deps: AuthDeps, platform: string, code: string, metadata: EventMetadata) => {
  const payload = await deps.purposeTokens.verify('social-login', code);
  const userId = Number(payload?.userId);
  if (!payload || !Number.isInteger(userId) || typeof payload.sessionId !== 'string' || !['google', 'facebook'].includes(platform)) {
    throw new DomainError('401', 'Povezava je neveljavna ali je potekla.', { status: 401 });
  }
  const sessionId = payload.sessionId;
  const result = await handleCommand(deps.store, {
    streamName: userStream(userId),
    decider: userDecider,
    command: { type: 'LogInTrusted', sessionId, method: 'social', now: deps.now() },
    metadata: { ...metadata, actorId: userId },
  });
  return { authToken: await deps.tokens.sign({ userId, sessionId, realUserId: null, position: result.position }), position: result.position };
};
