import { fold } from '../../domain/shared/decider.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { ClaimEvent } from '../../domain/shared/unique-claim.ts';
import { userDecider } from '../../domain/users/user.decide.ts';
import { SOCIAL_PLATFORMS, type SocialPlatform, userStream } from '../../domain/users/user.ts';
import { socialIdentityClaim } from '../../domain/users/user-claims.ts';
import type { EventMetadata, EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import { handleCommand } from '../shared/handle-command.ts';
import type { AuthDeps } from './auth.deps.ts';

/** A social identity the provider vouched for and nobody has bound yet (carried in a `social-pending` token). */
export type PendingIdentity = { platform: SocialPlatform; subject: string; email: string | null; emailVerified: boolean };

export const pendingIdentityOf = (payload: Record<string, unknown>): PendingIdentity | null => {
  const platform = payload.platform;
  if (typeof platform !== 'string' || !(SOCIAL_PLATFORMS as readonly string[]).includes(platform) || typeof payload.subject !== 'string') return null;
  return {
    platform: platform as SocialPlatform,
    subject: payload.subject,
    email: typeof payload.email === 'string' ? payload.email : null,
    emailVerified: payload.emailVerified === true,
  };
};

/** The account a social identity is bound to, or null. */
export const socialIdentityOwner = async (store: EventStore, platform: SocialPlatform, subject: string) => {
  const claim = fold(
    socialIdentityClaim.decider,
    (await store.readStream(socialIdentityClaim.stream(platform, subject))).events.map((e) => ({ type: e.type, data: e.data }) as ClaimEvent),
  );
  return claim.status === 'claimed' ? claim.ownerId : null;
};

/** Binds a social identity to an account: claimed first (one account per identity), then recorded on the user. */
export const bindSocialIdentity = async (deps: Pick<AuthDeps, 'store'>, userId: number, identity: PendingIdentity, metadata: EventMetadata) => {
  await handleCommand(deps.store, {
    streamName: socialIdentityClaim.stream(identity.platform, identity.subject),
    decider: socialIdentityClaim.decider,
    command: { type: 'Claim', ownerId: userId },
    metadata,
  });
  return handleCommand(deps.store, {
    streamName: userStream(userId),
    decider: userDecider,
    command: { type: 'BindSocialIdentity', platform: identity.platform, subject: identity.subject, email: identity.email },
    metadata,
  });
};

export const bindPendingSocialIdentity = async (deps: Pick<AuthDeps, 'store'>, userId: number, payload: Record<string, unknown>, metadata: EventMetadata) => {
  const identity = pendingIdentityOf(payload);
  if (!identity) throw new DomainError('401', 'Prijava s socialnim omrežjem je potekla. Poskusite ponovno.', { status: 401, field: 'socialToken' });
  return bindSocialIdentity(deps, userId, identity, metadata);
};

/** Unbinds one of the user's social identities (from the profile) and frees it for another account. */
export const unbindSocialIdentity = async (deps: Pick<AuthDeps, 'store'>, userId: number, platform: SocialPlatform, metadata: EventMetadata) => {
  const user = fold(
    userDecider,
    (await deps.store.readStream(userStream(userId))).events.map((e) => ({ type: e.type, data: e.data }) as never),
  );
  if (user.status !== 'active') throw new DomainError('404', 'Uporabnik ne obstaja.', { status: 404 });
  let position = null;
  for (const identity of user.socialIdentities.filter((i) => i.platform === platform)) {
    const result = await handleCommand(deps.store, {
      streamName: userStream(userId),
      decider: userDecider,
      command: { type: 'UnbindSocialIdentity', platform, subject: identity.subject },
      metadata,
    });
    await handleCommand(deps.store, {
      streamName: socialIdentityClaim.stream(platform, identity.subject),
      decider: socialIdentityClaim.decider,
      command: { type: 'Release', ownerId: userId },
      metadata,
    });
    position = result.position;
  }
  return position;
};
