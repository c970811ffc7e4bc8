import { randomUUID } from 'node:crypto';
import { can, type RoleAssignment, type Subject } from '../../domain/permissions/can.ts';
import { ROLE, ROLE_SCOPE, type RoleId } from '../../domain/permissions/roles.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { userDecider } from '../../domain/users/user.decide.ts';
import { type ActiveUser, type ChangeRequestKind, userStream } from '../../domain/users/user.ts';
import type { AdminUserFields, RoleAssignmentInput } from '../../domain/users/user-admin.rules.ts';
import { emailClaim, usernameClaim } from '../../domain/users/user-claims.ts';
import type { AllPosition, EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { organisationReferences, unitScope } from '../../projections/organisation/organisation.queries.ts';
import { handleCommand } from '../shared/handle-command.ts';
import type { AuthDeps } from './auth.deps.ts';
import { requestPasswordReset } from './password-reset.ts';
import { requireProfessionNumbers } from './profile.ts';
import { registerUser } from './register-user.ts';
import { emailOwner, loadUser } from './user-state.ts';

/**
 * The admin's side of users (issue 14; 1005 create, 1006 update, 1007 delete): the §3 fields, role
 * assignments, the §4 lifecycle, the welcome mail; and managers' change requests.
 */
const notFound = () => new DomainError('404', 'Uporabnik ne obstaja.', { status: 404 });

/** spec §8 "welcome message failed". */
export const WELCOME_FAILED = 'Pošiljanje sporočila dobrodošlice ni uspelo.';

const loadExisting = async (deps: AuthDeps, userId: number): Promise<ActiveUser> => {
  const user = await loadUser(deps.store, userId);
  if (user.status !== 'active') throw notFound();
  return user;
};

/** Every company and unit a role names exists, and the unit belongs to the company. */
const checkRoles = async (deps: AuthDeps, roles: readonly RoleAssignmentInput[]): Promise<RoleAssignment[]> => {
  const checked: RoleAssignment[] = [];
  for (const [index, role] of roles.entries()) {
    const roleId = role.roleId as RoleId;
    if (ROLE_SCOPE[roleId] !== 'admin') {
      const exists = async () =>
        role.unitId === 0
          ? role.companyId !== null && (await organisationReferences(deps.db, 'company', [role.companyId])).length > 0
          : (await unitScope(deps.db, role.unitId))?.companyId === role.companyId;
      // A unit made a moment ago may not be in the read model yet: look again once it caught up.
      let found = await exists();
      if (!found && deps.catchUpOrganisation) {
        await deps.catchUpOrganisation();
        found = await exists();
      }
      if (!found) throw new DomainError('400', 'Enota ali podjetje vloge ne obstaja.', { status: 400, field: `roles.${index}.unitId` });
    }
    checked.push({ roleId, unitId: role.unitId, companyId: role.companyId });
  }
  return checked;
};

const checkFields = async (deps: AuthDeps, userId: number | null, fields: AdminUserFields) => {
  if (fields.professionId !== null) await requireProfessionNumbers(deps, { ...fields, professionId: fields.professionId });
  if (fields.secondaryEmail !== null) {
    const owner = await emailOwner(deps.store, fields.secondaryEmail);
    if (owner !== null && owner !== userId) throw new DomainError('422016', 'Ta e-naslov že uporablja drug račun.', { status: 422, field: 'secondaryEmail' });
    if (fields.secondaryEmail === fields.email.toLowerCase()) {
      throw new DomainError('422016', 'Drugi e-naslov mora biti drugačen od glavnega.', { status: 422, field: 'secondaryEmail' });
    }
  }
};

const profileOf = (fields: AdminUserFields) => ({
  firstName: fields.firstName,
  middleName: fields.middleName,
  lastName: fields.lastName,
  phone: fields.phone,
  professionId: fields.professionId,
  otherJob: fields.otherJob,
  licenceNumber: fields.licenceNumber,
  chamberMembershipNumber: fields.chamberMembershipNumber,
});

const claimCommand = (kind: 'username' | 'email', value: string, type: 'Claim' | 'Release', ownerId: number, metadata: EventMetadata) => {
  const claim = kind === 'username' ? usernameClaim : emailClaim;
  return { streamName: claim.stream(value), decider: claim.decider, command: { type, ownerId }, metadata };
};

/** Creates a user as an admin does (1005), or for a users import (issue 17: `origin: 'import'`, the same checks and claims). */
export const createUserByAdmin = async (
  deps: AuthDeps,
  fields: AdminUserFields & { sendWelcome: boolean },
  metadata: EventMetadata,
  options: { origin?: 'admin' | 'import' } = {},
) => {
  await checkFields(deps, null, fields);
  const roles = await checkRoles(deps, fields.roles);
  const registered = await registerUser(deps, { username: fields.username, email: fields.email, ...profileOf(fields) }, roles, metadata, {
    origin: options.origin ?? 'admin',
  });
  const userId = registered.userId;
  // The registration holds every field but the admin label and the second e-mail: only those need an edit
  // (a users import creates thousands at once, so no read is spent on an edit that would write nothing).
  const edited =
    fields.notes === null && fields.secondaryEmail === null
      ? null
      : await handleCommand(deps.store, {
          streamName: userStream(userId),
          decider: userDecider,
          command: { type: 'EditByAdmin', ...editOf(fields, fields.email.toLowerCase(), fields.username), roles },
          metadata,
        });
  // Just registered, the account is active: the welcome link goes out without reading it again.
  const welcome = fields.sendWelcome ? await requestPasswordReset(deps, { userId }, metadata, { purpose: 'setup' }) : null;
  if (fields.sendWelcome && welcome === null) throw new DomainError('409', WELCOME_FAILED, { status: 409 });
  // The latest write, so a caller waiting for it reads the user (an edit with nothing new writes nothing).
  return { id: userId, position: welcome ?? edited?.position ?? registered.position };
};

const editOf = (fields: AdminUserFields, email: string, username: string) => ({
  username,
  email,
  profile: profileOf(fields),
  secondaryEmail: fields.secondaryEmail,
  notes: fields.notes,
});

/**
 * One save of the admin's form. A new username or e-mail is claimed first (taken: 422013, 422005)
 * and the old one released after the user's stream has it; a failed save releases what it claimed.
 */
export const updateUserByAdmin = async (deps: AuthDeps, userId: number, fields: AdminUserFields, metadata: EventMetadata) => {
  const user = await loadExisting(deps, userId);
  await checkFields(deps, userId, fields);
  const roles = await checkRoles(deps, fields.roles);
  const email = fields.email.toLowerCase();
  const changed = {
    username: user.username.toLowerCase() !== fields.username.toLowerCase(),
    email: user.email.toLowerCase() !== email,
  };
  const claimed: ('username' | 'email')[] = [];
  const newValue = (kind: 'username' | 'email') => (kind === 'username' ? fields.username : email);
  const oldValue = (kind: 'username' | 'email') => (kind === 'username' ? user.username : user.email);
  try {
    for (const kind of ['username', 'email'] as const) {
      if (!changed[kind]) continue;
      await handleCommand(deps.store, claimCommand(kind, newValue(kind), 'Claim', userId, metadata));
      claimed.push(kind);
    }
    const result = await handleCommand(deps.store, {
      streamName: userStream(userId),
      decider: userDecider,
      command: { type: 'EditByAdmin', ...editOf(fields, email, fields.username), roles },
      metadata,
    });
    for (const kind of claimed) await handleCommand(deps.store, claimCommand(kind, oldValue(kind), 'Release', userId, metadata));
    return { id: userId, position: result.position };
  } catch (error) {
    await Promise.allSettled(claimed.map((kind) => handleCommand(deps.store, claimCommand(kind, newValue(kind), 'Release', userId, metadata))));
    throw error;
  }
};

export type LifecycleAction = 'activate' | 'deactivate' | 'delete' | 'reactivate';
const LIFECYCLE_COMMAND = { activate: 'Activate', deactivate: 'Deactivate', delete: 'Delete', reactivate: 'Reactivate' } as const;

/** spec §4 transitions. An admin does not lock or delete their own account (nobody would be left to undo it). */
export const changeLifecycle = async (deps: AuthDeps, actorId: number, userId: number, action: LifecycleAction, metadata: EventMetadata) => {
  if (userId === actorId && (action === 'deactivate' || action === 'delete')) {
    throw new DomainError('400', 'Svojega računa ne morete deaktivirati ali izbrisati.', { status: 400 });
  }
  await loadExisting(deps, userId);
  const result = await handleCommand(deps.store, {
    streamName: userStream(userId),
    decider: userDecider,
    command: { type: LIFECYCLE_COMMAND[action] },
    metadata,
  });
  return { id: userId, position: result.position };
};

/** Bulk activate or deactivate: each user on its own (one refusal does not undo the others); the answer says who failed. */
export const changeLifecycleInBulk = async (deps: AuthDeps, actorId: number, userIds: readonly number[], active: boolean, metadata: EventMetadata) => {
  let position: AllPosition | null = null;
  const failed: { id: number; message: string }[] = [];
  let changed = 0;
  for (const userId of new Set(userIds)) {
    try {
      const result = await changeLifecycle(deps, actorId, userId, active ? 'activate' : 'deactivate', metadata);
      if (result.position) {
        position = result.position;
        changed += 1;
      }
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      failed.push({ id: userId, message: error.message });
    }
  }
  return { changed, failed, position };
};

/** The welcome mail with a /nov-uporabnik link (the first-password link of issue 13). */
export const sendWelcome = async (deps: AuthDeps, userId: number, metadata: EventMetadata) => {
  const user = await loadExisting(deps, userId);
  if (user.lifecycle !== 'active') throw new DomainError('409', WELCOME_FAILED, { status: 409 });
  const position = await requestPasswordReset(deps, { userId }, metadata, { purpose: 'setup' });
  if (position === null) throw new DomainError('409', WELCOME_FAILED, { status: 409 });
  return position;
};

/** A manager's or director's request (spec §4); a unit change may only name a unit they manage, so nobody is moved out of their reach. */
export const requestUserChange = async (
  deps: AuthDeps,
  manager: Subject,
  userId: number,
  input: { kind: ChangeRequestKind; description: string; unitId: number | null },
  metadata: EventMetadata,
) => {
  if (input.unitId !== null) {
    const companyId = (await unitScope(deps.db, input.unitId))?.companyId ?? null;
    const scope = { kind: 'community', companyId, unitId: input.unitId } as const;
    if (companyId === null || ![2011, 2012].some((id) => can(manager, id, scope))) {
      throw new DomainError('400', 'Izberite enoto, ki jo upravljate.', { status: 400, field: 'unitId' });
    }
  }
  await loadExisting(deps, userId);
  const managerId = manager.userId;
  const requestId = randomUUID();
  const result = await handleCommand(deps.store, {
    streamName: userStream(userId),
    decider: userDecider,
    command: { type: 'RequestChange', requestId, requestedBy: managerId, ...input },
    metadata,
  });
  return { id: requestId, position: result.position };
};

/**
 * The admin's answer to a change request. Accepting does what was asked: a unit change moves the
 * user's participation in that company to the new unit; a deletion deletes the account; "other"
 * is done by hand on the user's page and only recorded here.
 */
export const resolveUserChange = async (
  deps: AuthDeps,
  adminId: number,
  request: { requestId: string; userId: number; kind: string; unitId: number | null },
  answer: { outcome: 'accepted' | 'rejected'; reason: string | null },
  metadata: EventMetadata,
) => {
  const user = await loadExisting(deps, request.userId);
  let result = await handleCommand(deps.store, {
    streamName: userStream(request.userId),
    decider: userDecider,
    command: { type: 'ResolveChangeRequest', requestId: request.requestId, resolvedBy: adminId, ...answer },
    metadata,
  });
  if (answer.outcome === 'accepted' && request.kind === 'deletion' && request.userId !== adminId) {
    result = await handleCommand(deps.store, { streamName: userStream(request.userId), decider: userDecider, command: { type: 'Delete' }, metadata });
  }
  if (answer.outcome === 'accepted' && request.kind === 'unit' && request.unitId !== null) {
    const companyId = (await unitScope(deps.db, request.unitId))?.companyId ?? null;
    if (companyId !== null) {
      const moved: RoleAssignment = { roleId: ROLE.participant, unitId: request.unitId, companyId };
      const roles = [...user.roles.filter((r) => !(r.roleId === ROLE.participant && r.companyId === companyId)), moved];
      result = await handleCommand(deps.store, {
        streamName: userStream(request.userId),
        decider: userDecider,
        command: {
          type: 'EditByAdmin',
          username: user.username,
          email: user.email,
          profile: user.profile,
          secondaryEmail: user.secondaryEmail,
          notes: user.notes,
          roles,
        },
        metadata,
      });
    }
  }
  return { id: request.requestId, position: result.position };
};
