import { z } from 'zod';
import type { RoleAssignment } from '../permissions/can.ts';
import { isRoleId } from '../permissions/roles.ts';
import { defineEvent, type EventsOf, ownerFromStream, type PersonalFields } from '../shared/event.ts';

export const userStream = (userId: number) => `user-${userId}`;

/** spec §1: social sign-in and binding with two providers. */
export const SOCIAL_PLATFORMS = ['google', 'facebook'] as const;
export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number];

/** spec §4: a manager can request a change of unit, deletion or other for a user. */
export const CHANGE_REQUEST_KINDS = ['unit', 'deletion', 'other'] as const;
export type ChangeRequestKind = (typeof CHANGE_REQUEST_KINDS)[number];

/** spec §4: users can be activated, deactivated, deleted and reactivated. */
export type UserLifecycle = 'active' | 'inactive' | 'deleted';

const secretRequest = z.object({ tokenHash: z.string(), sealed: z.string(), expiresAt: z.iso.datetime() });

const roleAssignment = z.object({
  roleId: z.number().int().refine(isRoleId),
  unitId: z.number().int().nonnegative(),
  companyId: z.number().int().positive().nullable(),
});

/** Personal fields of an event in a user's own stream (`user-<id>`): theirs. */
const own = (...fields: string[]): { personal: PersonalFields } => ({ personal: { fields, owner: (_data, streamName) => ownerFromStream(streamName) } });

const PROFILE_FIELDS = ['firstName', 'middleName', 'lastName', 'phone', 'otherJob', 'licenceNumber', 'chamberMembershipNumber'];

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
      // Issue 13: where the account came from; a self-registered one waits for its e-mail to be confirmed.
      origin: z.enum(['seed', 'admin', 'import', 'self', 'social']).default('seed'),
      emailConfirmed: z.boolean().default(true),
      otherJob: z.string().nullable().default(null),
      licenceNumber: z.string().nullable().default(null),
      chamberMembershipNumber: z.string().nullable().default(null),
    }),
    own('username', 'email', ...PROFILE_FIELDS),
  ),
  defineEvent('UserRoleGranted', roleAssignment),
  defineEvent('UserRoleRevoked', roleAssignment),
  defineEvent('UserPasswordChanged', z.object({ passwordHash: z.string() })),
  defineEvent('UserLoggedIn', z.object({ sessionId: z.uuid(), method: z.enum(['password', 'login-token', 'second-factor', 'social', 'email-link']) })),
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
    own(...PROFILE_FIELDS),
  ),
  defineEvent('UserDeletionRequested', z.object({ reason: z.string().nullable() }), own('reason')),
  // Issue 13: e-mail confirmation, password reset and setup, e-mail change, second factor, social
  // identities, push. Secrets are kept as a hash to check against and sealed for the mail job
  // (infrastructure/auth/secret-sealer.port.ts); a token is `<userId>.<secret>`.
  defineEvent('UserEmailConfirmationRequested', secretRequest),
  defineEvent('UserEmailConfirmed', z.object({ tokenHash: z.string(), email: z.string() }), own('email')),
  defineEvent('UserPasswordResetRequested', secretRequest.extend({ purpose: z.enum(['reset', 'setup']) })),
  defineEvent('UserPasswordResetCompleted', z.object({ tokenHash: z.string(), passwordHash: z.string() })),
  defineEvent('UserEmailChangeRequested', secretRequest.extend({ newEmail: z.string(), oldEmail: z.string() }), own('newEmail', 'oldEmail')),
  defineEvent('UserEmailChanged', z.object({ tokenHash: z.string(), oldEmail: z.string(), newEmail: z.string() }), own('oldEmail', 'newEmail')),
  defineEvent('UserSecondFactorEnabled', z.object({})),
  defineEvent('UserSecondFactorDisabled', z.object({})),
  // `purpose` (issue 36, decision 0063): 'signature' for the code an approver's electronic signature needs; absent for a login.
  defineEvent('UserSecondFactorChallenged', secretRequest.extend({ challengeId: z.uuid(), purpose: z.enum(['login', 'signature']).optional() })),
  defineEvent('UserSecondFactorFailed', z.object({ challengeId: z.uuid() })),
  defineEvent(
    'UserSecondFactorPassed',
    z.object({ challengeId: z.uuid(), trustedDeviceHash: z.string().nullable(), trustedUntil: z.iso.datetime().nullable() }),
  ),
  defineEvent(
    'UserSocialIdentityBound',
    z.object({ platform: z.enum(SOCIAL_PLATFORMS), subject: z.string(), email: z.string().nullable() }),
    own('subject', 'email'),
  ),
  defineEvent('UserSocialIdentityUnbound', z.object({ platform: z.enum(SOCIAL_PLATFORMS), subject: z.string() }), own('subject')),
  defineEvent('UserPushPreferenceChanged', z.object({ onesignalEnabled: z.number().int().min(0) })),
  defineEvent('UserSecondaryEmailChanged', z.object({ secondaryEmail: z.string().nullable() }), own('secondaryEmail')),
  // Issue 14: the admin's side of a user (spec §3, §4): lifecycle, the admin label, username and
  // e-mail set by an admin (no mailed link), and a manager's change requests with their outcome.
  defineEvent('UserDeactivated', z.object({})),
  defineEvent('UserActivated', z.object({})),
  defineEvent('UserDeleted', z.object({})),
  defineEvent('UserReactivated', z.object({})),
  defineEvent('UserNotesChanged', z.object({ notes: z.string().nullable() }), own('notes')),
  defineEvent('UserUsernameChanged', z.object({ oldUsername: z.string(), newUsername: z.string() }), own('oldUsername', 'newUsername')),
  defineEvent('UserEmailReplaced', z.object({ oldEmail: z.string(), newEmail: z.string() }), own('oldEmail', 'newEmail')),
  defineEvent(
    'UserChangeRequested',
    z.object({
      requestId: z.uuid(),
      requestedBy: z.number().int().positive(),
      kind: z.enum(CHANGE_REQUEST_KINDS),
      description: z.string(),
      unitId: z.number().int().positive().nullable(),
    }),
    own('description'),
  ),
  defineEvent(
    'UserChangeRequestResolved',
    z.object({ requestId: z.uuid(), outcome: z.enum(['accepted', 'rejected']), reason: z.string().nullable(), resolvedBy: z.number().int().positive() }),
    own('reason'),
  ),
  // Decision 0019: the person's key was destroyed; every personal field of theirs reads as ERASED_PERSON from now on.
  defineEvent('UserErased', z.object({})),
] as const;

export type UserEvent = EventsOf<typeof userEvents>;

export type LoginToken = { readonly expiresAt: string; readonly redeemed: boolean };

export type UserProfile = Extract<UserEvent, { type: 'UserProfileUpdated' }>['data'];

/** A secret sent by mail and not yet used: the hash to check against, until when, and what it is for. */
export type PendingSecret = { readonly tokenHash: string; readonly expiresAt: string };

export type SecondFactorChallenge = PendingSecret & {
  readonly challengeId: string;
  readonly failures: number;
  readonly passed: boolean;
  /** A login's code opens a session; a signature's code confirms one electronic signature (decision 0063), never a login. */
  readonly purpose: 'login' | 'signature';
};

export type ChangeRequest = {
  readonly requestId: string;
  readonly requestedBy: number;
  readonly kind: ChangeRequestKind;
  readonly outcome: 'open' | 'accepted' | 'rejected';
};

/** A user that exists (`status: 'active'` means registered); `lifecycle` says whether the account may be used. */
export type ActiveUser = {
  readonly status: 'active';
  readonly lifecycle: UserLifecycle;
  /** The person's key is destroyed (decision 0019): the account is deleted for good. */
  readonly erased: boolean;
  readonly notes: string | null;
  readonly changeRequests: readonly ChangeRequest[];
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
  /** A self-registered account signs in only once its e-mail is confirmed. */
  readonly emailConfirmed: boolean;
  readonly secondaryEmail: string | null;
  readonly confirmation: PendingSecret | null;
  /** The reset or setup link not used yet: a newer request voids the older one (decision 0048). */
  readonly passwordResets: readonly (PendingSecret & { readonly purpose: 'reset' | 'setup' })[];
  readonly emailChange: (PendingSecret & { readonly newEmail: string }) | null;
  readonly secondFactor: boolean;
  readonly challenges: readonly SecondFactorChallenge[];
  /** Devices a second factor was passed on with "remember me", by hash, until when. */
  readonly trustedDevices: readonly { readonly hash: string; readonly until: string }[];
  readonly socialIdentities: readonly { readonly platform: SocialPlatform; readonly subject: string; readonly email: string | null }[];
  readonly onesignalEnabled: number;
};

export type UserState = { readonly status: 'none' } | ActiveUser;

export const initialUserState: UserState = { status: 'none' };

const sameRole = (a: RoleAssignment, b: RoleAssignment) => a.roleId === b.roleId && a.unitId === b.unitId && a.companyId === b.companyId;

/**
 * Every link sent by mail or exported (reset, welcome, e-mail change, one-time login) dies when what
 * it vouched for changes: the password, the address it went to, or whether the account may be used
 * (issue 31 item 4, decision 0048). An e-mail confirmation dies only with the address.
 */
const withoutLinks = (state: ActiveUser): ActiveUser => ({
  ...state,
  passwordResets: [],
  emailChange: null,
  loginTokens: Object.fromEntries(Object.entries(state.loginTokens).map(([hash, token]) => [hash, { ...token, redeemed: true }])),
});

export const evolveUser = (state: UserState, event: UserEvent): UserState => {
  if (event.type === 'UserRegistered') {
    return {
      status: 'active',
      lifecycle: 'active',
      erased: false,
      notes: null,
      changeRequests: [],
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
        ...(event.data.otherJob === undefined ? {} : { otherJob: event.data.otherJob }),
        ...(event.data.licenceNumber === undefined ? {} : { licenceNumber: event.data.licenceNumber }),
        ...(event.data.chamberMembershipNumber === undefined ? {} : { chamberMembershipNumber: event.data.chamberMembershipNumber }),
      },
      deletionRequested: false,
      emailConfirmed: event.data.emailConfirmed ?? true,
      secondaryEmail: null,
      confirmation: null,
      passwordResets: [],
      emailChange: null,
      secondFactor: false,
      challenges: [],
      trustedDevices: [],
      socialIdentities: [],
      onesignalEnabled: 0,
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
      return { ...withoutLinks(state), passwordHash: event.data.passwordHash };
    case 'UserLoginTokenIssued':
      // A newer link replaces the older ones (an export made again voids the last).
      return { ...state, loginTokens: { [event.data.tokenHash]: { expiresAt: event.data.expiresAt, redeemed: false } } };
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
    case 'UserEmailConfirmationRequested':
      return { ...state, confirmation: { tokenHash: event.data.tokenHash, expiresAt: event.data.expiresAt } };
    case 'UserEmailConfirmed':
      return { ...state, emailConfirmed: true, confirmation: null };
    case 'UserPasswordResetRequested':
      return {
        ...state,
        passwordResets: [{ tokenHash: event.data.tokenHash, expiresAt: event.data.expiresAt, purpose: event.data.purpose }],
      };
    case 'UserPasswordResetCompleted':
      // Every pending link is void once the password is set; a reset link also confirms the address it came to.
      // A reset may follow a lost or stolen device: no device stays trusted to skip the second factor.
      return { ...withoutLinks(state), passwordHash: event.data.passwordHash, emailConfirmed: true, confirmation: null, trustedDevices: [] };
    case 'UserEmailChangeRequested':
      return { ...state, emailChange: { tokenHash: event.data.tokenHash, expiresAt: event.data.expiresAt, newEmail: event.data.newEmail } };
    case 'UserEmailChanged':
      return { ...withoutLinks(state), email: event.data.newEmail, emailConfirmed: true, confirmation: null };
    case 'UserSecondFactorEnabled':
      return { ...state, secondFactor: true };
    case 'UserSecondFactorDisabled':
      return { ...state, secondFactor: false, trustedDevices: [] };
    case 'UserSecondFactorChallenged':
      return {
        ...state,
        // Only the latest few challenges matter; older ones have expired long since.
        challenges: [
          ...state.challenges.slice(-4),
          {
            challengeId: event.data.challengeId,
            tokenHash: event.data.tokenHash,
            expiresAt: event.data.expiresAt,
            failures: 0,
            passed: false,
            purpose: event.data.purpose ?? 'login',
          },
        ],
      };
    case 'UserSecondFactorFailed':
      return { ...state, challenges: state.challenges.map((c) => (c.challengeId === event.data.challengeId ? { ...c, failures: c.failures + 1 } : c)) };
    case 'UserSecondFactorPassed':
      return {
        ...state,
        challenges: state.challenges.map((c) => (c.challengeId === event.data.challengeId ? { ...c, passed: true } : c)),
        trustedDevices:
          event.data.trustedDeviceHash && event.data.trustedUntil
            ? [...state.trustedDevices.slice(-9), { hash: event.data.trustedDeviceHash, until: event.data.trustedUntil }]
            : state.trustedDevices,
      };
    case 'UserSocialIdentityBound':
      return {
        ...state,
        socialIdentities: [
          ...state.socialIdentities.filter((i) => !(i.platform === event.data.platform && i.subject === event.data.subject)),
          { platform: event.data.platform, subject: event.data.subject, email: event.data.email },
        ],
      };
    case 'UserSocialIdentityUnbound':
      return { ...state, socialIdentities: state.socialIdentities.filter((i) => !(i.platform === event.data.platform && i.subject === event.data.subject)) };
    case 'UserPushPreferenceChanged':
      return { ...state, onesignalEnabled: event.data.onesignalEnabled };
    case 'UserSecondaryEmailChanged':
      return { ...state, secondaryEmail: event.data.secondaryEmail };
    case 'UserDeactivated':
      return { ...withoutLinks(state), lifecycle: 'inactive' };
    case 'UserDeleted':
      return { ...withoutLinks(state), lifecycle: 'deleted' };
    case 'UserErased':
      return { ...withoutLinks(state), lifecycle: 'deleted', erased: true };
    case 'UserActivated':
    case 'UserReactivated':
      return { ...state, lifecycle: 'active' };
    case 'UserNotesChanged':
      return { ...state, notes: event.data.notes };
    case 'UserUsernameChanged':
      return { ...state, username: event.data.newUsername };
    case 'UserEmailReplaced':
      // Set by an admin who vouches for it: a pending change by link is void.
      return { ...withoutLinks(state), email: event.data.newEmail, emailConfirmed: true, confirmation: null };
    case 'UserChangeRequested':
      return {
        ...state,
        changeRequests: [
          ...state.changeRequests,
          { requestId: event.data.requestId, requestedBy: event.data.requestedBy, kind: event.data.kind, outcome: 'open' },
        ],
      };
    case 'UserChangeRequestResolved':
      return {
        ...state,
        changeRequests: state.changeRequests.map((r) => (r.requestId === event.data.requestId ? { ...r, outcome: event.data.outcome } : r)),
      };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};
