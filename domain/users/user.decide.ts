import type { RoleAssignment } from '../permissions/can.ts';
import { ROLE_SCOPE } from '../permissions/roles.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { type ActiveUser, evolveUser, initialUserState, type UserEvent, type UserProfile, type UserState } from './user.ts';
import { ADMIN_USER_COMMANDS, type AdminUserCommand, decideAdminUser } from './user-admin.decide.ts';
import { decideIdentity, type IdentityCommand } from './user-identity.decide.ts';

export const LOGIN_FAILED = 'Prijava ni uspela. Poskusite ponovno.';
export const TOKEN_INVALID = 'Žeton je neveljaven ali je potekel.';

export type UserCommand =
  | {
      type: 'RegisterUser';
      userId: number;
      username: string;
      email: string;
      firstName: string;
      middleName: string | null;
      lastName: string;
      phone: string | null;
      professionId: number | null;
      passwordHash: string | null;
      roles: readonly RoleAssignment[];
      origin?: 'seed' | 'admin' | 'import' | 'self' | 'social';
      otherJob?: string | null;
      licenceNumber?: string | null;
      chamberMembershipNumber?: string | null;
      /** A self-registered account: the e-mail confirmation it waits for (it cannot sign in before). */
      confirmation?: { tokenHash: string; sealed: string; expiresAt: Date };
    }
  | IdentityCommand
  | AdminUserCommand
  /**
   * `withinCompany`: granted by a company's team (a manager adding a member, 1049), who may take in
   * only a user of no other company and with no system role; anyone else is answered as missing.
   */
  /**
   * `withinCompany`: a unit's team adds only users of that company or of none. `selfJoin`: a person
   * joins only a unit of a company they already belong to (decision 0009): a join alone never opens
   * another company's internal courses.
   */
  | { type: 'GrantRole'; role: RoleAssignment; withinCompany?: boolean; selfJoin?: boolean }
  | { type: 'RevokeRole'; role: RoleAssignment }
  /**
   * `keepSessionId`: the session that changes its own password stays; every other open session ends.
   * `verifiedPasswordHash`: the hash the current password was checked against; a change made meanwhile fails.
   */
  | { type: 'ChangePassword'; passwordHash: string; keepSessionId?: string; verifiedPasswordHash?: string }
  | { type: 'UpdateProfile'; profile: UserProfile }
  | { type: 'RequestDeletion'; reason: string | null }
  /** `verifiedPasswordHash` is the hash the password was checked against, so a password changed meanwhile fails. */
  | { type: 'LogIn'; sessionId: string; verifiedPasswordHash: string }
  | { type: 'LogOut'; sessionId: string }
  | { type: 'IssueLoginToken'; tokenHash: string; expiresAt: Date }
  | { type: 'RedeemLoginToken'; tokenHash: string; sessionId: string; now: Date }
  | { type: 'StartImpersonation'; sessionId: string; adminId: number };

const loginFailed = () => new DomainError('401', LOGIN_FAILED, { status: 401 });

const requireActive = (state: UserState): ActiveUser => {
  if (state.status !== 'active') throw new DomainError('404', 'Uporabnik ne obstaja.', { status: 404 });
  return state;
};

const registerUser = (command: Extract<UserCommand, { type: 'RegisterUser' }>, state: UserState): UserEvent[] => {
  if (state.status !== 'none') throw new DomainError('409', 'Uporabnik že obstaja.', { status: 409 });
  const { type: _type, roles, confirmation, origin, otherJob, licenceNumber, chamberMembershipNumber, ...data } = command;
  return [
    {
      type: 'UserRegistered',
      data: {
        ...data,
        origin: origin ?? 'seed',
        emailConfirmed: confirmation === undefined,
        otherJob: otherJob ?? null,
        licenceNumber: licenceNumber ?? null,
        chamberMembershipNumber: chamberMembershipNumber ?? null,
      },
    },
    ...uniqueRoles(roles).map((role): UserEvent => ({ type: 'UserRoleGranted', data: role })),
    ...(confirmation
      ? [
          {
            type: 'UserEmailConfirmationRequested',
            data: { tokenHash: confirmation.tokenHash, sealed: confirmation.sealed, expiresAt: confirmation.expiresAt.toISOString() },
          } as UserEvent,
        ]
      : []),
  ];
};

const uniqueRoles = (roles: readonly RoleAssignment[]) =>
  roles.filter((role, i) => roles.findIndex((r) => r.roleId === role.roleId && r.unitId === role.unitId && r.companyId === role.companyId) === i);

const grantRole = (role: RoleAssignment, state: UserState): UserEvent[] => {
  const user = requireActive(state);
  const held = user.roles.some((r) => r.roleId === role.roleId && r.unitId === role.unitId && r.companyId === role.companyId);
  return held ? [] : [{ type: 'UserRoleGranted', data: role }];
};

export const STAFF_LOGIN_TOKEN_REFUSED = 'Povezave za prijavo ni mogoče izdati za račun skrbnika, urednika ali revizorja.';

/** Admin, editor or auditor: the roles with system abilities. */
export const holdsSystemRole = (user: ActiveUser): boolean => user.roles.some((r) => ROLE_SCOPE[r.roleId] === 'admin');

/** No system role, and every role of the user (if any) in this company. */
const belongsOnlyTo = (companyId: number | null, state: UserState): boolean =>
  state.status === 'active' && companyId !== null && state.roles.every((r) => ROLE_SCOPE[r.roleId] !== 'admin' && r.companyId === companyId);

const revokeRole = (role: RoleAssignment, state: UserState): UserEvent[] => {
  const user = requireActive(state);
  const held = user.roles.some((r) => r.roleId === role.roleId && r.unitId === role.unitId && r.companyId === role.companyId);
  return held ? [{ type: 'UserRoleRevoked', data: role }] : [];
};

const logIn = (command: Extract<UserCommand, { type: 'LogIn' }>, state: UserState): UserEvent[] => {
  // An account waiting for its e-mail to be confirmed is refused exactly like a wrong password.
  if (state.status !== 'active' || state.passwordHash === null || state.passwordHash !== command.verifiedPasswordHash || !state.emailConfirmed)
    throw loginFailed();
  return [{ type: 'UserLoggedIn', data: { sessionId: command.sessionId, method: 'password' } }];
};

const redeemLoginToken = (command: Extract<UserCommand, { type: 'RedeemLoginToken' }>, state: UserState): UserEvent[] => {
  const invalid = new DomainError('401', TOKEN_INVALID, { status: 401 });
  if (state.status !== 'active') throw invalid;
  const token = state.loginTokens[command.tokenHash];
  if (!token || token.redeemed || new Date(token.expiresAt).getTime() <= command.now.getTime()) throw invalid;
  return [
    { type: 'UserLoginTokenRedeemed', data: { tokenHash: command.tokenHash, sessionId: command.sessionId } },
    { type: 'UserLoggedIn', data: { sessionId: command.sessionId, method: 'login-token' } },
  ];
};

/** Events that open a session or start one: an inactive or deleted account takes none of them. */
const SIGN_IN_EVENTS: ReadonlySet<string> = new Set(['UserLoggedIn', 'UserImpersonationStarted', 'UserSecondFactorChallenged', 'UserLoginTokenIssued']);

/**
 * spec §4: a deactivated or deleted user cannot log in, by any route (password, code, link, social,
 * "log in as"). Checked on what a decision would record, so a sign-in path added later is covered too.
 */
export const decideUser = (command: UserCommand, state: UserState): UserEvent[] => {
  const events = decideAny(command, state);
  if (state.status === 'active' && state.lifecycle !== 'active' && events.some((e) => SIGN_IN_EVENTS.has(e.type))) throw loginFailed();
  return events;
};

const decideAny = (command: UserCommand, state: UserState): UserEvent[] => {
  if (ADMIN_USER_COMMANDS.has(command.type)) return decideAdminUser(command as AdminUserCommand, requireActive(state));
  switch (command.type) {
    case 'RegisterUser':
      return registerUser(command, state);
    case 'GrantRole':
      if (command.withinCompany && !belongsOnlyTo(command.role.companyId, state)) throw new DomainError('404', 'Uporabnik ne obstaja.', { status: 404 });
      if (command.selfJoin && !(state.status === 'active' && state.roles.some((r) => r.companyId !== null && r.companyId === command.role.companyId)))
        throw new DomainError('403', 'Pridružite se lahko le enoti podjetja, ki mu že pripadate.', { status: 403 });
      return grantRole(command.role, state);
    case 'RevokeRole':
      return revokeRole(command.role, state);
    case 'ChangePassword': {
      const user = requireActive(state);
      if (command.verifiedPasswordHash !== undefined && command.verifiedPasswordHash !== user.passwordHash) {
        throw new DomainError('409', 'Geslo je bilo medtem spremenjeno. Poskusite ponovno.', { status: 409 });
      }
      const ended = command.keepSessionId === undefined ? [] : user.openSessions.filter((s) => s !== command.keepSessionId);
      return [
        { type: 'UserPasswordChanged', data: { passwordHash: command.passwordHash } },
        ...ended.map((sessionId): UserEvent => ({ type: 'UserLoggedOut', data: { sessionId } })),
      ];
    }
    case 'UpdateProfile': {
      const user = requireActive(state);
      // Field by field: a profile read back from the store need not keep its keys in the order written.
      const unchanged = (Object.keys(command.profile) as (keyof UserProfile)[]).every((k) => user.profile[k] === command.profile[k]);
      return unchanged ? [] : [{ type: 'UserProfileUpdated', data: command.profile }];
    }
    case 'RequestDeletion':
      // Asked once: a second request while the first waits adds nothing.
      return requireActive(state).deletionRequested ? [] : [{ type: 'UserDeletionRequested', data: { reason: command.reason } }];
    case 'LogIn':
      return logIn(command, state);
    case 'LogOut':
      requireActive(state);
      return [{ type: 'UserLoggedOut', data: { sessionId: command.sessionId } }];
    case 'IssueLoginToken':
      // As "log in as" refuses admin accounts: a one-time link must not open a staff account (its
      // session would not be marked as entered by someone else).
      if (holdsSystemRole(requireActive(state))) throw new DomainError('403', STAFF_LOGIN_TOKEN_REFUSED, { status: 403 });
      return [{ type: 'UserLoginTokenIssued', data: { tokenHash: command.tokenHash, expiresAt: command.expiresAt.toISOString() } }];
    case 'RedeemLoginToken':
      return redeemLoginToken(command, state);
    case 'StartImpersonation':
      requireActive(state);
      return [{ type: 'UserImpersonationStarted', data: { sessionId: command.sessionId, adminId: command.adminId } }];
    default:
      return decideIdentity(command as IdentityCommand, requireActive(state));
  }
};

export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  initialState: initialUserState,
  evolve: evolveUser,
  decide: decideUser,
};
