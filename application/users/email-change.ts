import { DomainError } from '../../domain/shared/domain-error.ts';
import { userDecider } from '../../domain/users/user.decide.ts';
import { userStream } from '../../domain/users/user.ts';
import { emailClaim } from '../../domain/users/user-claims.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { handleCommand } from '../shared/handle-command.ts';
import type { AuthDeps } from './auth.deps.ts';
import { parseLinkToken, SECRET_TTL_SECONDS } from './identity-secrets.ts';
import { sealedLink } from './self-registration.ts';
import { emailOwner, loadUser } from './user-state.ts';

const taken = () => new DomainError('422005', 'E-naslov je že zaseden.', { status: 422, field: 'email' });

/**
 * An e-mail change (spec §2 /sprememba-e-naslova; 1022): the current password first, a new address
 * nobody else has; the new address confirms by link, the old one is told.
 */
export const requestEmailChange = async (deps: AuthDeps, userId: number, input: { email: string; password: string }, metadata: EventMetadata) => {
  const user = await loadUser(deps.store, userId);
  if (user.status !== 'active') throw new DomainError('404', 'Uporabnik ne obstaja.', { status: 404 });
  const valid = await deps.passwords.verify(user.passwordHash ?? deps.passwords.decoyHash, input.password);
  if (user.passwordHash === null || !valid) throw new DomainError('400', 'Geslo ni pravilno.', { status: 400, field: 'password' });
  const owner = await emailOwner(deps.store, input.email);
  if (owner !== null && owner !== userId) throw taken();
  const result = await handleCommand(deps.store, {
    streamName: userStream(userId),
    decider: userDecider,
    command: { type: 'RequestEmailChange', newEmail: input.email.toLowerCase(), ...sealedLink(deps, userId, SECRET_TTL_SECONDS.emailChange) },
    metadata,
  });
  return result.position;
};

/**
 * /sprememba-e-naslova/complete: the new address is claimed (unique, 422005 when someone took it
 * meanwhile), the change recorded, the old address released; a refused link releases the claim.
 */
export const confirmEmailChange = async (deps: AuthDeps, token: string, metadata: EventMetadata) => {
  const parsed = parseLinkToken(token);
  if (!parsed) throw new DomainError('401', 'Povezava je neveljavna ali je potekla.', { status: 401, field: 'token' });
  const user = await loadUser(deps.store, parsed.userId);
  if (user.status !== 'active' || !user.emailChange) throw new DomainError('401', 'Povezava je neveljavna ali je potekla.', { status: 401, field: 'token' });
  const claim = (email: string, type: 'Claim' | 'Release') =>
    handleCommand(deps.store, {
      streamName: emailClaim.stream(email),
      decider: emailClaim.decider,
      command: { type, ownerId: parsed.userId },
      metadata: { ...metadata, actorId: parsed.userId },
    });
  const newEmail = user.emailChange.newEmail;
  await claim(newEmail, 'Claim');
  try {
    const result = await handleCommand(deps.store, {
      streamName: userStream(parsed.userId),
      decider: userDecider,
      command: { type: 'ConfirmEmailChange', tokenHash: parsed.tokenHash, now: deps.now() },
      metadata: { ...metadata, actorId: parsed.userId },
    });
    await claim(user.email, 'Release');
    return { email: newEmail, position: result.position };
  } catch (error) {
    await claim(newEmail, 'Release').catch(() => undefined);
    throw error;
  }
};
