import { DomainError } from '../../domain/shared/domain-error.ts';
import { userDecider } from '../../domain/users/user.decide.ts';
import type { ProfileFields } from '../../domain/users/user.rules.ts';
import { userStream } from '../../domain/users/user.ts';
import type { PasswordHasher } from '../../infrastructure/auth/password-hasher.port.ts';
import type { EventMetadata, EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import { professionRequirements, type ReadDb } from '../../projections/organisation/organisation.queries.ts';
import { handleCommand } from '../shared/handle-command.ts';
import { emailOwner } from './user-state.ts';

export type ProfileDeps = { readonly store: EventStore; readonly db: ReadDb; readonly passwords: PasswordHasher };

/**
 * The profession must exist, and the numbers it asks for (spec §5) must be there: a licence number
 * (1 to 5 characters) and, for the medical and dental specialties, a chamber membership number.
 */
export const requireProfessionNumbers = async (
  deps: { db: ReadDb },
  fields: { professionId: number; licenceNumber: string | null; chamberMembershipNumber: string | null },
) => {
  const needs = await professionRequirements(deps.db, fields.professionId);
  if (needs === null) throw new DomainError('400', 'Izbrani poklic ne obstaja.', { status: 400, field: 'professionId' });
  if (needs.licence && !fields.licenceNumber) {
    throw new DomainError('400', 'Za izbrani poklic je številka licence obvezna.', { status: 400, field: 'licenceNumber' });
  }
  if (needs.chamber && !fields.chamberMembershipNumber) {
    throw new DomainError('400', 'Za izbrani poklic je številka članstva v zbornici obvezna.', { status: 400, field: 'chamberMembershipNumber' });
  }
};

/**
 * A user's own profile (1001). The profession must exist; one that asks for a licence number
 * (spec §5) gets one.
 */
export const updateProfile = async (deps: ProfileDeps, userId: number, fields: ProfileFields, metadata: EventMetadata) => {
  await requireProfessionNumbers(deps, fields);
  const { secondaryEmail, ...profile } = fields;
  // spec §8: a secondary e-mail that is another account's address is refused with 422016.
  if (secondaryEmail !== null) {
    const owner = await emailOwner(deps.store, secondaryEmail);
    if (owner !== null && owner !== userId) throw new DomainError('422016', 'Ta e-naslov že uporablja drug račun.', { status: 422, field: 'secondaryEmail' });
  }
  const updated = await handleCommand(deps.store, {
    streamName: userStream(userId),
    decider: userDecider,
    command: { type: 'UpdateProfile', profile },
    metadata,
  });
  const secondary = await handleCommand(deps.store, {
    streamName: userStream(userId),
    decider: userDecider,
    command: { type: 'ChangeSecondaryEmail', secondaryEmail },
    metadata,
  });
  return { id: userId, position: secondary.position ?? updated.position };
};

/**
 * Changing one's own password (1003): the current password is checked first; the session that
 * changes it stays signed in, every other session of the account ends.
 */
export const changeOwnPassword = async (
  deps: ProfileDeps,
  user: { userId: number; sessionId: string },
  change: { currentPassword: string; password: string },
  metadata: EventMetadata,
) => {
  const stream = await deps.store.readStream(userStream(user.userId));
  const state = stream.events.reduce((s, e) => userDecider.evolve(s, { type: e.type, data: e.data } as never), userDecider.initialState);
  const hash = state.status === 'active' ? state.passwordHash : null;
  const valid = await deps.passwords.verify(hash ?? deps.passwords.decoyHash, change.currentPassword);
  if (hash === null || !valid) throw new DomainError('400', 'Trenutno geslo ni pravilno.', { status: 400, field: 'currentPassword' });
  const result = await handleCommand(deps.store, {
    streamName: userStream(user.userId),
    decider: userDecider,
    command: { type: 'ChangePassword', passwordHash: await deps.passwords.hash(change.password), keepSessionId: user.sessionId, verifiedPasswordHash: hash },
    metadata,
  });
  return { id: user.userId, position: result.position };
};

/**
 * Deleting one's own account at once (1002), while the delete-account feature of spec §1 is on: the
 * password confirms it is the person; the account is deleted as an admin would delete it (§4: it
 * signs nobody in, every session ends, an admin can reactivate it). Accounts with a system role
 * (admin, editor, auditor) are deleted by another admin, so the platform is never left without one.
 */
export const deleteOwnAccount = async (deps: ProfileDeps, user: { userId: number; hasSystemRole: boolean }, password: string, metadata: EventMetadata) => {
  const stream = await deps.store.readStream(userStream(user.userId));
  const state = stream.events.reduce((s, e) => userDecider.evolve(s, { type: e.type, data: e.data } as never), userDecider.initialState);
  const hash = state.status === 'active' ? state.passwordHash : null;
  const valid = await deps.passwords.verify(hash ?? deps.passwords.decoyHash, password);
  if (hash === null || !valid) throw new DomainError('400', 'Geslo ni pravilno.', { status: 400, field: 'password' });
  if (user.hasSystemRole) throw new DomainError('403', 'Računa s sistemsko vlogo ne morete izbrisati sami; za to prosite drugega skrbnika.', { status: 403 });
  const result = await handleCommand(deps.store, { streamName: userStream(user.userId), decider: userDecider, command: { type: 'Delete' }, metadata });
  return { id: user.userId, position: result.position };
};

/** A request to delete one's data (1002; spec §8: processed within 5 working days), when the platform offers it. */
export const requestDeletion = async (deps: ProfileDeps, userId: number, reason: string | null, metadata: EventMetadata) => {
  const result = await handleCommand(deps.store, {
    streamName: userStream(userId),
    decider: userDecider,
    command: { type: 'RequestDeletion', reason },
    metadata,
  });
  return { id: userId, position: result.position };
};
