import type { RoleAssignment } from '../permissions/can.ts';
import { DomainError } from '../shared/domain-error.ts';
import type { ActiveUser, ChangeRequestKind, UserEvent, UserProfile } from './user.ts';

/**
 * Decisions an admin (or a manager, for change requests) takes about a user (issue 14, spec §3
 * and §4): the lifecycle active -> inactive -> active, and any -> deleted -> reactivated (to
 * active); the admin label; a username or e-mail an admin sets directly; a manager's change
 * request and its outcome. Deleting or deactivating ends every open session.
 */
export type AdminUserCommand =
  | { type: 'Deactivate' }
  | { type: 'Activate' }
  | { type: 'Delete' }
  | { type: 'Reactivate' }
  /** Decision 0019: deletes the account for good; the caller then destroys the person's key. */
  | { type: 'Erase' }
  | { type: 'SetNotes'; notes: string | null }
  | { type: 'ChangeUsername'; username: string }
  | { type: 'ReplaceEmail'; email: string }
  | { type: 'RequestChange'; requestId: string; requestedBy: number; kind: ChangeRequestKind; description: string; unitId: number | null }
  | { type: 'ResolveChangeRequest'; requestId: string; outcome: 'accepted' | 'rejected'; reason: string | null; resolvedBy: number }
  /**
   * The admin's user form saved at once: every change of one save is one append, so two admins
   * saving the same user conflict instead of interleaving. Username and e-mail claims are the caller's.
   */
  | {
      type: 'EditByAdmin';
      username: string;
      email: string;
      profile: UserProfile;
      secondaryEmail: string | null;
      notes: string | null;
      roles: readonly RoleAssignment[];
    };

/** spec §8 "user activation failed": the one message for a lifecycle step that cannot be taken. */
export const ACTIVATION_FAILED = 'Aktivacija uporabnika ni uspela.';

const endSessions = (user: ActiveUser): UserEvent[] => user.openSessions.map((sessionId): UserEvent => ({ type: 'UserLoggedOut', data: { sessionId } }));

export const ADMIN_USER_COMMANDS: ReadonlySet<string> = new Set([
  'Deactivate',
  'Activate',
  'Delete',
  'Reactivate',
  'Erase',
  'SetNotes',
  'ChangeUsername',
  'ReplaceEmail',
  'RequestChange',
  'ResolveChangeRequest',
  'EditByAdmin',
]);

const sameRole = (a: RoleAssignment, b: RoleAssignment) => a.roleId === b.roleId && a.unitId === b.unitId && a.companyId === b.companyId;

const editByAdmin = (command: Extract<AdminUserCommand, { type: 'EditByAdmin' }>, user: ActiveUser): UserEvent[] => {
  const profileChanged = (Object.keys(command.profile) as (keyof UserProfile)[]).some((k) => user.profile[k] !== command.profile[k]);
  const wanted = command.roles.filter((role, i) => command.roles.findIndex((r) => sameRole(r, role)) === i);
  return [
    ...decideAdminUser({ type: 'ChangeUsername', username: command.username }, user),
    ...decideAdminUser({ type: 'ReplaceEmail', email: command.email }, user),
    ...(profileChanged ? [{ type: 'UserProfileUpdated', data: command.profile } as UserEvent] : []),
    ...(user.secondaryEmail === command.secondaryEmail
      ? []
      : [{ type: 'UserSecondaryEmailChanged', data: { secondaryEmail: command.secondaryEmail } } as UserEvent]),
    ...decideAdminUser({ type: 'SetNotes', notes: command.notes }, user),
    ...user.roles.filter((held) => !wanted.some((r) => sameRole(r, held))).map((role): UserEvent => ({ type: 'UserRoleRevoked', data: role })),
    ...wanted.filter((role) => !user.roles.some((held) => sameRole(held, role))).map((role): UserEvent => ({ type: 'UserRoleGranted', data: role })),
  ];
};

export const ERASED_REFUSED = 'Osebni podatki tega uporabnika so trajno izbrisani; računa ni mogoče več spreminjati.';

export const decideAdminUser = (command: AdminUserCommand, user: ActiveUser): UserEvent[] => {
  if (user.erased) {
    if (command.type === 'Erase' || command.type === 'Delete') return [];
    throw new DomainError('409', ERASED_REFUSED, { status: 409 });
  }
  switch (command.type) {
    case 'Erase':
      return [...(user.lifecycle === 'deleted' ? [] : decideAdminUser({ type: 'Delete' }, user)), { type: 'UserErased', data: {} }];
    case 'Deactivate':
      if (user.lifecycle === 'deleted') throw new DomainError('409', 'Izbrisanega uporabnika ni mogoče deaktivirati; najprej ga obnovite.', { status: 409 });
      return user.lifecycle === 'inactive' ? [] : [{ type: 'UserDeactivated', data: {} }, ...endSessions(user)];
    case 'Activate':
      // A deleted account comes back only by the deliberate "reactivate", never by a bulk activate.
      if (user.lifecycle === 'deleted') throw new DomainError('409', ACTIVATION_FAILED, { status: 409 });
      return user.lifecycle === 'active' ? [] : [{ type: 'UserActivated', data: {} }];
    case 'Delete':
      return user.lifecycle === 'deleted' ? [] : [{ type: 'UserDeleted', data: {} }, ...endSessions(user)];
    case 'Reactivate':
      return user.lifecycle === 'deleted' ? [{ type: 'UserReactivated', data: {} }] : [];
    case 'SetNotes':
      return (user.notes ?? null) === command.notes ? [] : [{ type: 'UserNotesChanged', data: { notes: command.notes } }];
    case 'ChangeUsername':
      return user.username === command.username ? [] : [{ type: 'UserUsernameChanged', data: { oldUsername: user.username, newUsername: command.username } }];
    case 'ReplaceEmail':
      return user.email === command.email ? [] : [{ type: 'UserEmailReplaced', data: { oldEmail: user.email, newEmail: command.email } }];
    case 'RequestChange':
      if (command.description.trim() === '') throw new DomainError('400', 'Vnos je obvezen', { status: 400, field: 'description' });
      if (command.kind === 'unit' && command.unitId === null) throw new DomainError('400', 'Izberite novo enoto.', { status: 400, field: 'unitId' });
      if (user.lifecycle === 'deleted') throw new DomainError('404', 'Uporabnik ne obstaja.', { status: 404 });
      return [
        {
          type: 'UserChangeRequested',
          data: {
            requestId: command.requestId,
            requestedBy: command.requestedBy,
            kind: command.kind,
            description: command.description.trim(),
            unitId: command.kind === 'unit' ? command.unitId : null,
          },
        },
      ];
    case 'EditByAdmin':
      return editByAdmin(command, user);
    case 'ResolveChangeRequest': {
      const request = user.changeRequests.find((r) => r.requestId === command.requestId);
      if (!request) throw new DomainError('404', 'Zahteva ne obstaja.', { status: 404 });
      if (request.outcome !== 'open') throw new DomainError('409', 'Zahteva je že rešena.', { status: 409 });
      if (command.outcome === 'rejected' && (command.reason ?? '').trim() === '') {
        throw new DomainError('400', 'Vnos je obvezen', { status: 400, field: 'reason' });
      }
      return [
        {
          type: 'UserChangeRequestResolved',
          data: { requestId: command.requestId, outcome: command.outcome, reason: command.reason?.trim() || null, resolvedBy: command.resolvedBy },
        },
      ];
    }
  }
};
