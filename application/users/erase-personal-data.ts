import { ROLE } from '../../domain/permissions/roles.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { userDecider } from '../../domain/users/user.decide.ts';
import { userStream } from '../../domain/users/user.ts';
import { emailClaim, socialIdentityClaim, usernameClaim } from '../../domain/users/user-claims.ts';
import type { EventMetadata, EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { PersonalKeys } from '../../infrastructure/personal-data/personal-keys.port.ts';
import { handleCommand } from '../shared/handle-command.ts';
import { loadUser } from './user-state.ts';

const ADDRESS_FIELDS = ['email', 'oldEmail', 'newEmail', 'secondaryEmail'];

export type ErasureDeps = {
  readonly store: EventStore;
  readonly keys: PersonalKeys;
  /** Deletes the mail kept for these addresses (the demo's outbox); answers how many messages went. */
  readonly forgetMail: (addresses: readonly string[]) => Promise<number>;
  /** Removes the credit files the chambers' drop folder still holds for the person (issue 32 item 3). */
  readonly forgetChamberFiles: (userId: number) => Promise<number>;
  /**
   * Once the read models applied the erasure: rewrites the tables that held the person and takes
   * their statistics again, so no dead row and no `pg_stats` sample keeps her (decision 0051).
   */
  readonly compact: () => Promise<void>;
};

/**
 * Erases a person (decision 0019, 1007): the account is deleted for good (UserErased), the username,
 * e-mail and social identities it held are freed, the mail kept for its addresses is deleted, and
 * last the person's key is destroyed, so every personal field of theirs in the log reads as
 * "izbrisan uporabnik" from then on. Each step can run again: an erasure cut off half-way is finished
 * by asking again, and the key goes last so the values to free are still readable until then.
 */
export const erasePersonalData = async (deps: ErasureDeps, actorId: number, userId: number, metadata: EventMetadata) => {
  if (userId === actorId) throw new DomainError('400', 'Svojih osebnih podatkov ne morete izbrisati sami.', { status: 400 });
  const user = await loadUser(deps.store, userId);
  if (user.status !== 'active') throw new DomainError('404', 'Uporabnik ne obstaja.', { status: 404 });
  // Irreversible and asked for by one click and a confirmation: an admin account is erased only
  // after its admin role is taken away, so one admin cannot remove the others in one step.
  if (user.roles.some((r) => r.roleId === ROLE.admin))
    throw new DomainError('409', 'Računa skrbnika ni mogoče izbrisati: najprej mu odvzemite vlogo skrbnika.', { status: 409 });
  const erased = await handleCommand(deps.store, { streamName: userStream(userId), decider: userDecider, command: { type: 'Erase' }, metadata });
  const release = (streamName: string, decider: typeof usernameClaim.decider) =>
    handleCommand(deps.store, { streamName, decider, command: { type: 'Release', ownerId: userId }, metadata });
  await release(usernameClaim.stream(user.username), usernameClaim.decider);
  await release(emailClaim.stream(user.email), emailClaim.decider);
  for (const identity of user.socialIdentities) await release(socialIdentityClaim.stream(identity.platform, identity.subject), socialIdentityClaim.decider);
  // Every address the person ever had here, not only today's: mail kept for an old one is theirs too.
  const addresses = new Set([user.email, ...(user.secondaryEmail ? [user.secondaryEmail] : [])]);
  for (const event of (await deps.store.readStream(userStream(userId))).events) {
    for (const field of ADDRESS_FIELDS) {
      const value = (event.data as Record<string, unknown>)[field];
      if (typeof value === 'string' && value.includes('@')) addresses.add(value);
    }
  }
  const mailForgotten = await deps.forgetMail([...addresses]);
  await deps.forgetChamberFiles(userId);
  await deps.keys.erase(userId);
  await deps.compact();
  return { id: userId, position: erased.position, mailForgotten };
};
