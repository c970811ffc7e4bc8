import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../tests/support/decider-spec.ts';
import { ROLE } from '../permissions/roles.ts';
import { LOGIN_FAILED, userDecider } from './user.decide.ts';
import type { UserEvent } from './user.ts';
import { ACTIVATION_FAILED } from './user-admin.decide.ts';
import { adminUserRule, changeRequestRule, resolveChangeRequestRule, roleAssignmentRule } from './user-admin.rules.ts';

const spec = deciderSpec(userDecider);
const SESSION = '0b0f8c39-5d2e-4d5e-9f79-3c8f2f1b7a11';
const REQUEST = '7d1f2c3b-4a5e-4f60-8a7b-1c2d3e4f5a6b';

const registered: UserEvent = {
  type: 'UserRegistered',
  data: {
    userId: 5,
    username: 'ana',
    email: 'ana@test.si',
    firstName: 'Ana',
    middleName: null,
    lastName: 'Novak',
    phone: '041 111 111',
    professionId: 3,
    passwordHash: 'hash-1',
    origin: 'admin',
    emailConfirmed: true,
    otherJob: null,
    licenceNumber: null,
    chamberMembershipNumber: null,
  },
};
const loggedIn: UserEvent = { type: 'UserLoggedIn', data: { sessionId: SESSION, method: 'password' } };
const participant = { roleId: ROLE.participant, unitId: 4, companyId: 2 } as const;
const manager = { roleId: ROLE.manager, unitId: 0, companyId: 2 } as const;
const profile = {
  firstName: 'Ana',
  middleName: null,
  lastName: 'Novak',
  phone: '041 111 111',
  professionId: 3,
  otherJob: null,
  licenceNumber: null,
  chamberMembershipNumber: null,
};

describe('a user as the admin handles it (spec §4)', () => {
  it('deactivating ends every open session; once inactive the account cannot log in', () => {
    spec
      .given([registered, loggedIn])
      .when({ type: 'Deactivate' })
      .thenExpect([
        { type: 'UserDeactivated', data: {} },
        { type: 'UserLoggedOut', data: { sessionId: SESSION } },
      ]);
    spec
      .given([registered, { type: 'UserDeactivated', data: {} }])
      .when({ type: 'LogIn', sessionId: SESSION, verifiedPasswordHash: 'hash-1' })
      .thenFails('401', LOGIN_FAILED);
  });

  it('activating brings an inactive account back; twice changes nothing', () => {
    spec
      .given([registered, { type: 'UserDeactivated', data: {} }])
      .when({ type: 'Activate' })
      .thenExpect([{ type: 'UserActivated', data: {} }]);
    spec.given([registered]).when({ type: 'Activate' }).thenExpect([]);
    spec
      .given([registered, { type: 'UserDeactivated', data: {} }])
      .when({ type: 'Deactivate' })
      .thenExpect([]);
  });

  it('a deleted account logs in by no route, comes back only by reactivation, and is not deactivated', () => {
    const deleted: UserEvent[] = [registered, { type: 'UserDeleted', data: {} }];
    spec.given(deleted).when({ type: 'LogIn', sessionId: SESSION, verifiedPasswordHash: 'hash-1' }).thenFails('401');
    spec.given(deleted).when({ type: 'StartImpersonation', sessionId: SESSION, adminId: 1 }).thenFails('401');
    spec
      .given(deleted)
      .when({ type: 'IssueLoginToken', tokenHash: 'h', expiresAt: new Date(Date.now() + 60_000) })
      .thenFails('401');
    spec.given(deleted).when({ type: 'Activate' }).thenFails('409', ACTIVATION_FAILED);
    spec.given(deleted).when({ type: 'Deactivate' }).thenFails('409');
    spec.given(deleted).when({ type: 'Delete' }).thenExpect([]);
    spec
      .given(deleted)
      .when({ type: 'Reactivate' })
      .thenExpect([{ type: 'UserReactivated', data: {} }]);
    spec
      .given([...deleted, { type: 'UserReactivated', data: {} }])
      .when({ type: 'LogIn', sessionId: SESSION, verifiedPasswordHash: 'hash-1' })
      .thenExpect([loggedIn]);
  });

  it('deleting ends the open sessions', () => {
    spec
      .given([registered, loggedIn])
      .when({ type: 'Delete' })
      .thenExpect([
        { type: 'UserDeleted', data: {} },
        { type: 'UserLoggedOut', data: { sessionId: SESSION } },
      ]);
  });

  it('the admin form saves only what changed, roles as grants and revocations', () => {
    spec
      .given([registered, { type: 'UserRoleGranted', data: participant }])
      .when({
        type: 'EditByAdmin',
        username: 'anan',
        email: 'ana@test.si',
        profile: { ...profile, phone: '041 222 222' },
        secondaryEmail: null,
        notes: 'Ključna stranka',
        roles: [manager, manager],
      })
      .thenExpect([
        { type: 'UserUsernameChanged', data: { oldUsername: 'ana', newUsername: 'anan' } },
        { type: 'UserProfileUpdated', data: { ...profile, phone: '041 222 222' } },
        { type: 'UserNotesChanged', data: { notes: 'Ključna stranka' } },
        { type: 'UserRoleRevoked', data: participant },
        { type: 'UserRoleGranted', data: manager },
      ]);
    spec
      .given([registered, { type: 'UserRoleGranted', data: participant }])
      .when({ type: 'EditByAdmin', username: 'ana', email: 'ana@test.si', profile, secondaryEmail: null, notes: null, roles: [participant] })
      .thenExpect([]);
  });

  it('a change request needs a description; it is resolved once, and a rejection says why', () => {
    spec
      .given([registered])
      .when({ type: 'RequestChange', requestId: REQUEST, requestedBy: 9, kind: 'other', description: '   ', unitId: null })
      .thenFails('400');
    const requested: UserEvent = {
      type: 'UserChangeRequested',
      data: { requestId: REQUEST, requestedBy: 9, kind: 'unit', description: 'Premeščena v Maribor.', unitId: 7 },
    };
    spec
      .given([registered])
      .when({ type: 'RequestChange', requestId: REQUEST, requestedBy: 9, kind: 'unit', description: ' Premeščena v Maribor. ', unitId: 7 })
      .thenExpect([requested]);
    spec
      .given([registered, requested])
      .when({ type: 'ResolveChangeRequest', requestId: REQUEST, outcome: 'rejected', reason: ' ', resolvedBy: 1 })
      .thenFails('400');
    const resolved: UserEvent = { type: 'UserChangeRequestResolved', data: { requestId: REQUEST, outcome: 'accepted', reason: null, resolvedBy: 1 } };
    spec
      .given([registered, requested])
      .when({ type: 'ResolveChangeRequest', requestId: REQUEST, outcome: 'accepted', reason: null, resolvedBy: 1 })
      .thenExpect([resolved]);
    spec
      .given([registered, requested, resolved])
      .when({ type: 'ResolveChangeRequest', requestId: REQUEST, outcome: 'rejected', reason: 'Ne.', resolvedBy: 1 })
      .thenFails('409');
  });
});

describe('the admin form rules (spec §5, §6)', () => {
  it('a role entry: unit 0 only for manager and director, a company for every community role, none for a system role', () => {
    expect(roleAssignmentRule.safeParse({ roleId: ROLE.director, companyId: 2, unitId: 0 }).success).toBe(true);
    expect(roleAssignmentRule.safeParse({ roleId: ROLE.participant, companyId: 2, unitId: 0 }).success).toBe(false);
    expect(roleAssignmentRule.safeParse({ roleId: ROLE.accountant, companyId: null, unitId: 4 }).success).toBe(false);
    expect(roleAssignmentRule.safeParse({ roleId: ROLE.admin, companyId: 2, unitId: 0 }).success).toBe(false);
    expect(roleAssignmentRule.safeParse({ roleId: ROLE.admin, companyId: null, unitId: 0 }).success).toBe(true);
    expect(roleAssignmentRule.safeParse({ roleId: 99, companyId: null, unitId: 0 }).success).toBe(false);
  });

  it('the user form asks for username, e-mail, names and phone with the spec messages', () => {
    const result = adminUserRule.safeParse({ username: 'a b', email: 'x', firstName: '', lastName: '', phone: '', professionId: null, roles: [] });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
    expect(messages).toMatchObject({
      username: 'Uporabniško ime lahko vsebuje le črke in številke',
      email: 'Vnesite veljaven e-naslov',
      firstName: 'Vnos je obvezen',
      lastName: 'Vnos je obvezen',
      phone: 'Vnos je obvezen',
    });
  });

  it('a change request needs a description, a unit change the new unit; a rejection needs a reason', () => {
    expect(changeRequestRule.safeParse({ kind: 'deletion', description: '' }).error?.issues[0]?.message).toBe('Vnos je obvezen');
    expect(changeRequestRule.safeParse({ kind: 'unit', description: 'Premestitev' }).error?.issues[0]?.path).toEqual(['unitId']);
    expect(changeRequestRule.safeParse({ kind: 'other', description: 'Napačen priimek' }).success).toBe(true);
    expect(resolveChangeRequestRule.safeParse({ outcome: 'rejected' }).success).toBe(false);
    expect(resolveChangeRequestRule.safeParse({ outcome: 'accepted' }).success).toBe(true);
  });
});
