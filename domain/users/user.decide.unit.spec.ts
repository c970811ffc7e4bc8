import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../tests/support/decider-spec.ts';
import { ROLE } from '../permissions/roles.ts';
import { LOGIN_FAILED, TOKEN_INVALID, userDecider } from './user.decide.ts';
import type { UserEvent } from './user.ts';
import { emailClaim, usernameClaim } from './user-claims.ts';

const spec = deciderSpec(userDecider);
const SESSION = '0b0f8c39-5d2e-4d5e-9f79-3c8f2f1b7a11';
const OTHER_SESSION = '5c8a6f0e-23b1-4a5f-8d0c-9a1b2c3d4e5f';

const registered: UserEvent = {
  type: 'UserRegistered',
  data: {
    userId: 5,
    username: 'ana',
    email: 'ana@test.si',
    firstName: 'Ana',
    middleName: null,
    lastName: 'Novak',
    phone: null,
    professionId: null,
    passwordHash: 'hash-1',
    origin: 'seed',
    emailConfirmed: true,
    otherJob: null,
    licenceNumber: null,
    chamberMembershipNumber: null,
  },
};
const { origin: _origin, emailConfirmed: _confirmed, ...registration } = registered.data as Extract<UserEvent, { type: 'UserRegistered' }>['data'];
const manager = { roleId: ROLE.manager, unitId: 3, companyId: 2 } as const;

describe('user decider', () => {
  it('registers a user with its roles, each once', () => {
    spec
      .given([])
      .when({ type: 'RegisterUser', ...registration, roles: [manager, manager] })
      .thenExpect([registered, { type: 'UserRoleGranted', data: manager }]);
  });

  it('refuses to register the same user twice', () => {
    spec
      .given([registered])
      .when({ type: 'RegisterUser', ...registration, roles: [] })
      .thenFails('409');
  });

  it('grants a role once and revokes only a held role', () => {
    spec
      .given([registered])
      .when({ type: 'GrantRole', role: manager })
      .thenExpect([{ type: 'UserRoleGranted', data: manager }]);
    spec
      .given([registered, { type: 'UserRoleGranted', data: manager }])
      .when({ type: 'GrantRole', role: manager })
      .thenExpect([]);
    spec.given([registered]).when({ type: 'RevokeRole', role: manager }).thenExpect([]);
    spec
      .given([registered, { type: 'UserRoleGranted', data: manager }])
      .when({ type: 'RevokeRole', role: manager })
      .thenExpect([{ type: 'UserRoleRevoked', data: manager }]);
  });

  it('lets a person join only a unit of a company they already belong to (decision 0009)', () => {
    const participantA = { roleId: ROLE.participant, unitId: 3, companyId: 2 } as const;
    const otherUnitOfA = { roleId: ROLE.participant, unitId: 4, companyId: 2 } as const;
    const unitOfB = { roleId: ROLE.participant, unitId: 9, companyId: 8 } as const;
    spec
      .given([registered, { type: 'UserRoleGranted', data: participantA }])
      .when({ type: 'GrantRole', role: otherUnitOfA, selfJoin: true })
      .thenExpect([{ type: 'UserRoleGranted', data: otherUnitOfA }]);
    spec
      .given([registered, { type: 'UserRoleGranted', data: participantA }])
      .when({ type: 'GrantRole', role: unitOfB, selfJoin: true })
      .thenFails('403');
    spec.given([registered]).when({ type: 'GrantRole', role: participantA, selfJoin: true }).thenFails('403');
  });

  it('logs in only against the password hash that was verified', () => {
    spec
      .given([registered])
      .when({ type: 'LogIn', sessionId: SESSION, verifiedPasswordHash: 'hash-1' })
      .thenExpect([{ type: 'UserLoggedIn', data: { sessionId: SESSION, method: 'password' } }]);
    // The password changed between verification and decision.
    spec
      .given([registered, { type: 'UserPasswordChanged', data: { passwordHash: 'hash-2' } }])
      .when({ type: 'LogIn', sessionId: SESSION, verifiedPasswordHash: 'hash-1' })
      .thenFails('401', LOGIN_FAILED);
    spec.given([]).when({ type: 'LogIn', sessionId: SESSION, verifiedPasswordHash: 'hash-1' }).thenFails('401', LOGIN_FAILED);
    spec
      .given([{ ...registered, data: { ...registered.data, passwordHash: null } } as UserEvent])
      .when({ type: 'LogIn', sessionId: SESSION, verifiedPasswordHash: 'hash-1' })
      .thenFails('401');
  });

  it('redeems a login token once, before it expires', () => {
    const issued: UserEvent = { type: 'UserLoginTokenIssued', data: { tokenHash: 'th', expiresAt: '2026-01-02T00:00:00.000Z' } };
    const now = new Date('2026-01-01T12:00:00Z');
    spec
      .given([registered, issued])
      .when({ type: 'RedeemLoginToken', tokenHash: 'th', sessionId: SESSION, now })
      .thenExpect([
        { type: 'UserLoginTokenRedeemed', data: { tokenHash: 'th', sessionId: SESSION } },
        { type: 'UserLoggedIn', data: { sessionId: SESSION, method: 'login-token' } },
      ]);
    spec
      .given([registered, issued, { type: 'UserLoginTokenRedeemed', data: { tokenHash: 'th', sessionId: SESSION } }])
      .when({ type: 'RedeemLoginToken', tokenHash: 'th', sessionId: OTHER_SESSION, now })
      .thenFails('401', TOKEN_INVALID);
    spec
      .given([registered, issued])
      .when({ type: 'RedeemLoginToken', tokenHash: 'th', sessionId: SESSION, now: new Date('2026-01-02T00:00:00Z') })
      .thenFails('401');
    spec.given([registered, issued]).when({ type: 'RedeemLoginToken', tokenHash: 'other', sessionId: SESSION, now }).thenFails('401');
  });

  it('issues tokens, logs out and records "log in as" for an existing user only', () => {
    spec
      .given([registered])
      .when({ type: 'IssueLoginToken', tokenHash: 'th', expiresAt: new Date('2026-03-01T00:00:00Z') })
      .thenExpect([{ type: 'UserLoginTokenIssued', data: { tokenHash: 'th', expiresAt: '2026-03-01T00:00:00.000Z' } }]);
    spec
      .given([registered])
      .when({ type: 'LogOut', sessionId: SESSION })
      .thenExpect([{ type: 'UserLoggedOut', data: { sessionId: SESSION } }]);
    spec
      .given([registered])
      .when({ type: 'StartImpersonation', sessionId: SESSION, adminId: 1 })
      .thenExpect([{ type: 'UserImpersonationStarted', data: { sessionId: SESSION, adminId: 1 } }]);
    spec.given([]).when({ type: 'StartImpersonation', sessionId: SESSION, adminId: 1 }).thenFails('404');
    spec.given([]).when({ type: 'IssueLoginToken', tokenHash: 'th', expiresAt: new Date() }).thenFails('404');
  });
});

describe('username and e-mail claims', () => {
  const usernames = deciderSpec(usernameClaim.decider);
  const emails = deciderSpec(emailClaim.decider);
  it('claims a free value, is idempotent for its owner and refuses others with the spec codes', () => {
    usernames
      .given([])
      .when({ type: 'Claim', ownerId: 1 })
      .thenExpect([{ type: 'UniqueValueClaimed', data: { ownerId: 1 } }]);
    usernames
      .given([{ type: 'UniqueValueClaimed', data: { ownerId: 1 } }])
      .when({ type: 'Claim', ownerId: 1 })
      .thenExpect([]);
    usernames
      .given([{ type: 'UniqueValueClaimed', data: { ownerId: 1 } }])
      .when({ type: 'Claim', ownerId: 2 })
      .thenFails('422013');
    emails
      .given([{ type: 'UniqueValueClaimed', data: { ownerId: 1 } }])
      .when({ type: 'Claim', ownerId: 2 })
      .thenFails('422005');
  });

  it('releases only its own claim, after which the value is free again', () => {
    usernames
      .given([{ type: 'UniqueValueClaimed', data: { ownerId: 1 } }])
      .when({ type: 'Release', ownerId: 2 })
      .thenExpect([]);
    usernames
      .given([{ type: 'UniqueValueClaimed', data: { ownerId: 1 } }])
      .when({ type: 'Release', ownerId: 1 })
      .thenExpect([{ type: 'UniqueValueReleased', data: { ownerId: 1 } }]);
    usernames
      .given([
        { type: 'UniqueValueClaimed', data: { ownerId: 1 } },
        { type: 'UniqueValueReleased', data: { ownerId: 1 } },
      ])
      .when({ type: 'Claim', ownerId: 2 })
      .thenExpect([{ type: 'UniqueValueClaimed', data: { ownerId: 2 } }]);
  });

  it('normalises the value in the stream name', () => {
    expect(usernameClaim.stream('  Ana ')).toBe('username-ana');
    expect(emailClaim.stream('Ana@Test.SI')).toBe('useremail-ana@test.si');
  });

  it('ends every other open session when a password is changed from one of them, and refuses a change against a stale password', () => {
    const logIns: UserEvent[] = [
      { type: 'UserLoggedIn', data: { sessionId: SESSION, method: 'password' } },
      { type: 'UserLoggedIn', data: { sessionId: OTHER_SESSION, method: 'password' } },
    ];
    spec
      .given([registered, ...logIns])
      .when({ type: 'ChangePassword', passwordHash: 'hash-2', keepSessionId: SESSION, verifiedPasswordHash: 'hash-1' })
      .thenExpect([
        { type: 'UserPasswordChanged', data: { passwordHash: 'hash-2' } },
        { type: 'UserLoggedOut', data: { sessionId: OTHER_SESSION } },
      ]);
    spec
      .given([registered, ...logIns, { type: 'UserLoggedOut', data: { sessionId: OTHER_SESSION } }])
      .when({ type: 'ChangePassword', passwordHash: 'hash-2', keepSessionId: SESSION })
      .thenExpect([{ type: 'UserPasswordChanged', data: { passwordHash: 'hash-2' } }]);
    spec
      .given([registered, { type: 'UserPasswordChanged', data: { passwordHash: 'hash-9' } }])
      .when({ type: 'ChangePassword', passwordHash: 'hash-2', verifiedPasswordHash: 'hash-1' })
      .thenFails('409');
  });

  it('updates the profile only on change, and records a deletion request once', () => {
    const profile = {
      firstName: 'Ana',
      middleName: null,
      lastName: 'Novak',
      phone: '041 123 456',
      professionId: 3,
      otherJob: null,
      licenceNumber: '12345',
      chamberMembershipNumber: null,
    };
    const updated: UserEvent = { type: 'UserProfileUpdated', data: profile };
    spec.given([registered]).when({ type: 'UpdateProfile', profile }).thenExpect([updated]);
    spec.given([registered, updated]).when({ type: 'UpdateProfile', profile }).thenExpect([]);
    spec
      .given([registered])
      .when({ type: 'RequestDeletion', reason: null })
      .thenExpect([{ type: 'UserDeletionRequested', data: { reason: null } }]);
    spec
      .given([registered, { type: 'UserDeletionRequested', data: { reason: null } }])
      .when({ type: 'RequestDeletion', reason: 'spet' })
      .thenExpect([]);
    spec.given([]).when({ type: 'UpdateProfile', profile }).thenFails('404');
  });
});
