import { z } from 'zod';
import type { RoleAssignment } from '../permissions/can.ts';
import { isRoleId } from '../permissions/roles.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';

export const userStream = (userId: number) => `user-${userId}`;

const roleAssignment = z.object({
  roleId: z.number().int().refine(isRoleId),
  unitId: z.number().int().nonnegative(),
  companyId: z.number().int().positive().nullable(),
});

export const userEvents = [
  defineEvent(
    'UserRegistered',
    z.object({
      userId: z.number().int().positive(),
      username: z.string(),
      email: z.string(),
      firstName: z.string(),
      middleName: z.string().nullable(),
      lastName: z.string(),
      phone: z.string().nullable(),
      professionId: z.number().int().positive().nullable(),
      passwordHash: z.string().nullable(),
    }),
  ),
  defineEvent('UserRoleGranted', roleAssignment),
  defineEvent('UserRoleRevoked', roleAssignment),
  defineEvent('UserPasswordChanged', z.object({ passwordHash: z.string() })),
  defineEvent('UserLoggedIn', z.object({ sessionId: z.uuid(), method: z.enum(['password', 'login-token']) })),
  defineEvent('UserLoggedOut', z.object({ sessionId: z.uuid() })),
  defineEvent('UserLoginTokenIssued', z.object({ tokenHash: z.string(), expiresAt: z.iso.datetime() })),
  defineEvent('UserLoginTokenRedeemed', z.object({ tokenHash: z.string(), sessionId: z.uuid() })),
  // "Log in as": recorded in the stream of the user whose account is entered.
  defineEvent('UserImpersonationStarted', z.object({ sessionId: z.uuid(), adminId: z.number().int().positive() })),
  // Issue 12: the user's own profile (spec §3 fields), and a request to delete their data (spec §8).
  defineEvent(
    'UserProfileUpdated',
    z.object({
      firstName: z.string(),
      middleName: z.string().nullable(),
      lastName: z.string(),
      phone: z.string(),
      professionId: z.number().int().positive().nullable(),
      otherJob: z.string().nullable(),
      licenceNumber: z.string().nullable(),
      chamberMembershipNumber: z.string().nullable(),
    }),
  ),
  defineEvent('UserDeletionRequested', z.object({ reason: z.string().nullable() })),
] as const;

export type UserEvent = EventsOf<typeof userEvents>;

export type LoginToken = { readonly expiresAt: string; readonly redeemed: boolean };

export type UserProfile = Extract<UserEvent, { type: 'UserProfileUpdated' }>['data'];

export type ActiveUser = {
  readonly status: 'active';
  readonly id: number;
  readonly username: string;
  readonly email: string;
  readonly passwordHash: string | null;
  readonly roles: readonly RoleAssignment[];
  readonly loginTokens: Readonly<Record<string, LoginToken>>;
  /** Sessions logged in and not logged out: a password change ends all but the one that made it. */
  readonly openSessions: readonly string[];
  readonly profile: UserProfile;
  readonly deletionRequested: boolean;
};

export type UserState = { readonly status: 'none' } | ActiveUser;

export const initialUserState: UserState = { status: 'none' };

const sameRole = (a: RoleAssignment, b: RoleAssignment) => a.roleId === b.roleId && a.unitId === b.unitId && a.companyId === b.companyId;

export const evolveUser = (state: UserState, event: UserEvent): UserState => {
  if (event.type === 'UserRegistered') {
    return {
      status: 'active',
      id: event.data.userId,
      username: event.data.username,
      email: event.data.email,
      passwordHash: event.data.passwordHash,
      roles: [],
      loginTokens: {},
      openSessions: [],
      profile: {
        firstName: event.data.firstName,
        middleName: event.data.middleName,
        lastName: event.data.lastName,
        phone: event.data.phone ?? '',
        professionId: event.data.professionId,
        otherJob: null,
        licenceNumber: null,
        chamberMembershipNumber: null,
      },
      deletionRequested: false,
    };
  }
  // Facts about a user that was never registered cannot change anything.
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'UserRoleGranted':
      return state.roles.some((r) => sameRole(r, event.data as RoleAssignment)) ? state : { ...state, roles: [...state.roles, event.data as RoleAssignment] };
    case 'UserRoleRevoked':
      return { ...state, roles: state.roles.filter((r) => !sameRole(r, event.data as RoleAssignment)) };
    case 'UserPasswordChanged':
      return { ...state, passwordHash: event.data.passwordHash };
    case 'UserLoginTokenIssued':
      return { ...state, loginTokens: { ...state.loginTokens, [event.data.tokenHash]: { expiresAt: event.data.expiresAt, redeemed: false } } };
    case 'UserLoginTokenRedeemed': {
      const token = state.loginTokens[event.data.tokenHash];
      if (!token) return state;
      return { ...state, loginTokens: { ...state.loginTokens, [event.data.tokenHash]: { ...token, redeemed: true } } };
    }
    case 'UserLoggedIn':
      return { ...state, openSessions: [...state.openSessions, event.data.sessionId] };
    case 'UserLoggedOut':
      return { ...state, openSessions: state.openSessions.filter((s) => s !== event.data.sessionId) };
    case 'UserImpersonationStarted':
      return state;
    case 'UserProfileUpdated':
      return { ...state, profile: event.data };
    case 'UserDeletionRequested':
      return { ...state, deletionRequested: true };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};
