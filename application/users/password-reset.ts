import { DomainError } from '../../domain/shared/domain-error.ts';
import { userDecider } from '../../domain/users/user.decide.ts';
import { userStream } from '../../domain/users/user.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { handleCommand } from '../shared/handle-command.ts';
import type { AuthDeps } from './auth.deps.ts';
import { parseLinkToken, SECRET_TTL_SECONDS } from './identity-secrets.ts';
import { openSession, sealedLink } from './self-registration.ts';
import { emailOwner, loadUser } from './user-state.ts';

/**
 * A reset link for an account's address (spec §2 /geslo): a user without a password yet (made by an
 * admin or an import) gets the first-password link (/nov-uporabnik) instead. Nothing tells the
 * caller whether the address has an account.
 */
export const requestPasswordReset = async (
  deps: AuthDeps,
  lookup: { email: string } | { userId: number },
  metadata: EventMetadata,
  // The admin's welcome mail (issue 14) always sends the first-password link.
  options: { purpose?: 'setup' } = {},
) => {
  const userId = 'userId' in lookup ? lookup.userId : await emailOwner(deps.store, lookup.email);
  if (userId === null) return null;
  const user = await loadUser(deps.store, userId);
  // A deactivated or deleted account gets no link (it could not sign in with it).
  if (user.status !== 'active' || user.lifecycle !== 'active') return null;
  const purpose = options.purpose ?? (user.passwordHash === null ? 'setup' : 'reset');
  const result = await handleCommand(deps.store, {
    streamName: userStream(userId),
    decider: userDecider,
    command: {
      type: 'RequestPasswordReset',
      purpose,
      ...sealedLink(deps, userId, purpose === 'setup' ? SECRET_TTL_SECONDS.passwordSetup : SECRET_TTL_SECONDS.passwordReset),
    },
    metadata: { ...metadata, actorId: metadata.actorId ?? null },
  });
  return result.position;
};

/**
 * /geslo/complete and /nov-uporabnik: the link's token sets a new password, once. Every session the
 * account had ends; the user is signed in anew (the link proved the mailbox is theirs).
 */
export const completePasswordReset = async (deps: AuthDeps, input: { token: string; password: string }, metadata: EventMetadata) => {
  const parsed = parseLinkToken(input.token);
  if (!parsed) throw new DomainError('401', 'Povezava je neveljavna ali je potekla.', { status: 401, field: 'token' });
  await handleCommand(deps.store, {
    streamName: userStream(parsed.userId),
    decider: userDecider,
    command: { type: 'CompletePasswordReset', tokenHash: parsed.tokenHash, passwordHash: await deps.passwords.hash(input.password), now: deps.now() },
    metadata: { ...metadata, actorId: parsed.userId },
  });
  return openSession(deps, parsed.userId, metadata);
};
