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
] as const;

export type UserEvent = EventsOf<typeof userEvents>;

export type LoginToken = { readonly expiresAt: string; readonly redeemed: boolean };

export type ActiveUser = {
  readonly status: 'active';
  readonly id: number;
  readonly username: string;
  readonly email: string;
  readonly passwordHash: string | null;
  readonly roles: readonly RoleAssignment[];
  readonly loginTokens: Readonly<Record<string, LoginToken>>;
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
    case 'UserLoggedOut':
    case 'UserImpersonationStarted':
      return state;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};
