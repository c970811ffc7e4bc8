import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../tests/support/decider-spec.ts';
import { fold } from '../shared/decider.ts';
import { userDecider } from './user.decide.ts';
import type { UserEvent } from './user.ts';
import {
  isTrustedDevice,
  SECOND_FACTOR_FAILED,
  SECOND_FACTOR_MAX_FAILURES,
  SIGNATURE_CODE_FAILED,
  SIGNATURE_CODE_WRONG,
  TOKEN_EXPIRED,
  wrongSignatureCodeMessage,
} from './user-identity.decide.ts';

const spec = deciderSpec(userDecider);
const SESSION = '0b0f8c39-5d2e-4d5e-9f79-3c8f2f1b7a11';
const OTHER = '5c8a6f0e-23b1-4a5f-8d0c-9a1b2c3d4e5f';
const CHALLENGE = '7d1f9c6e-1b2a-4c3d-8e4f-5a6b7c8d9e0f';
const now = new Date('2026-11-23T10:00:00Z');
const later = (minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();

const registered = (emailConfirmed: boolean): UserEvent => ({
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
    origin: emailConfirmed ? 'seed' : 'self',
    emailConfirmed,
    otherJob: null,
    licenceNumber: null,
    chamberMembershipNumber: null,
  },
});

describe('e-mail confirmation', () => {
  const requested: UserEvent = { type: 'UserEmailConfirmationRequested', data: { tokenHash: 'h1', sealed: 's', expiresAt: later(60) } };
  it('confirms with the live token only, once; an unconfirmed account cannot log in', () => {
    spec
      .given([registered(false), requested])
      .when({ type: 'ConfirmEmail', tokenHash: 'h1', now })
      .thenExpect([{ type: 'UserEmailConfirmed', data: { tokenHash: 'h1', email: 'ana@test.si' } }]);
    spec
      .given([registered(false), requested])
      .when({ type: 'ConfirmEmail', tokenHash: 'h2', now })
      .thenFails('401', TOKEN_EXPIRED);
    spec
      .given([registered(false), requested])
      .when({ type: 'ConfirmEmail', tokenHash: 'h1', now: new Date(now.getTime() + 2 * 3600_000) })
      .thenFails('401', TOKEN_EXPIRED);
    spec
      .given([registered(false), requested, { type: 'UserEmailConfirmed', data: { tokenHash: 'h1', email: 'ana@test.si' } }])
      .when({ type: 'ConfirmEmail', tokenHash: 'h1', now })
      .thenFails('401', TOKEN_EXPIRED);
    spec
      .given([registered(false), requested])
      .when({ type: 'LogIn', sessionId: SESSION, verifiedPasswordHash: 'hash-1' })
      .thenFails('401');
    spec
      .given([registered(true)])
      .when({ type: 'RequestEmailConfirmation', tokenHash: 'h', sealed: 's', expiresAt: now })
      .thenExpect([]);
  });
});

describe('password reset', () => {
  const reset: UserEvent = { type: 'UserPasswordResetRequested', data: { tokenHash: 'r1', sealed: 's', expiresAt: later(60), purpose: 'reset' } };
  const logins: UserEvent[] = [
    { type: 'UserLoggedIn', data: { sessionId: SESSION, method: 'password' } },
    { type: 'UserLoggedIn', data: { sessionId: OTHER, method: 'password' } },
  ];
  it('sets the password with a live link once and ends every open session', () => {
    spec
      .given([registered(true), ...logins, reset])
      .when({ type: 'CompletePasswordReset', tokenHash: 'r1', passwordHash: 'hash-2', now })
      .thenExpect([
        { type: 'UserPasswordResetCompleted', data: { tokenHash: 'r1', passwordHash: 'hash-2' } },
        { type: 'UserLoggedOut', data: { sessionId: SESSION } },
        { type: 'UserLoggedOut', data: { sessionId: OTHER } },
      ]);
    spec
      .given([registered(true), reset, { type: 'UserPasswordResetCompleted', data: { tokenHash: 'r1', passwordHash: 'hash-2' } }])
      .when({ type: 'CompletePasswordReset', tokenHash: 'r1', passwordHash: 'hash-3', now })
      .thenFails('401', TOKEN_EXPIRED);
    spec
      .given([registered(true), reset])
      .when({ type: 'CompletePasswordReset', tokenHash: 'r1', passwordHash: 'hash-2', now: new Date(now.getTime() + 61 * 60_000) })
      .thenFails('401');
  });
});

describe('trusted devices', () => {
  it('a device remembered at the second factor is trusted until its date, and no longer once the password is reset', () => {
    const remembered: UserEvent[] = [
      { type: 'UserSecondFactorEnabled', data: {} },
      { type: 'UserSecondFactorChallenged', data: { challengeId: CHALLENGE, tokenHash: 'code', sealed: 's', expiresAt: later(10) } },
      { type: 'UserSecondFactorPassed', data: { challengeId: CHALLENGE, trustedDeviceHash: 'device', trustedUntil: later(60) } },
    ];
    const user = fold(userDecider, [registered(true), ...remembered]);
    if (user.status !== 'active') throw new Error('not active');
    expect(isTrustedDevice(user, 'device', now)).toBe(true);
    expect(isTrustedDevice(user, 'other', now)).toBe(false);
    expect(isTrustedDevice(user, 'device', new Date(now.getTime() + 61 * 60_000))).toBe(false);
    const afterReset = fold(userDecider, [
      registered(true),
      ...remembered,
      { type: 'UserPasswordResetRequested', data: { tokenHash: 'r1', sealed: 's', expiresAt: later(60), purpose: 'reset' } },
      { type: 'UserPasswordResetCompleted', data: { tokenHash: 'r1', passwordHash: 'hash-2' } },
    ]);
    if (afterReset.status !== 'active') throw new Error('not active');
    expect(isTrustedDevice(afterReset, 'device', now)).toBe(false);
  });
});

describe('e-mail change', () => {
  it('refuses the same address and confirms the new one with its live link', () => {
    spec
      .given([registered(true)])
      .when({ type: 'RequestEmailChange', newEmail: 'ANA@test.si', tokenHash: 'c', sealed: 's', expiresAt: now })
      .thenFails('422003');
    const requested: UserEvent = {
      type: 'UserEmailChangeRequested',
      data: { tokenHash: 'c1', sealed: 's', expiresAt: later(60), newEmail: 'nova@test.si', oldEmail: 'ana@test.si' },
    };
    spec
      .given([registered(true), requested])
      .when({ type: 'ConfirmEmailChange', tokenHash: 'c1', now })
      .thenExpect([{ type: 'UserEmailChanged', data: { tokenHash: 'c1', oldEmail: 'ana@test.si', newEmail: 'nova@test.si' } }]);
    spec
      .given([registered(true), requested])
      .when({ type: 'ConfirmEmailChange', tokenHash: 'zz', now })
      .thenFails('401');
  });
});

describe('second factor', () => {
  const challenged: UserEvent = {
    type: 'UserSecondFactorChallenged',
    data: { challengeId: CHALLENGE, tokenHash: 'code-hash', sealed: 's', expiresAt: later(10) },
  };
  const answer = (codeHash: string, at = now) =>
    ({ type: 'AnswerSecondFactor', challengeId: CHALLENGE, codeHash, now: at, sessionId: SESSION, trustedDevice: null }) as const;
  it('records a wrong code, passes the right one once, and spends the challenge after five wrong codes or its expiry', () => {
    spec
      .given([registered(true), challenged])
      .when(answer('wrong'))
      .thenExpect([{ type: 'UserSecondFactorFailed', data: { challengeId: CHALLENGE } }]);
    spec
      .given([registered(true), challenged])
      .when(answer('code-hash'))
      .thenExpect([
        { type: 'UserSecondFactorPassed', data: { challengeId: CHALLENGE, trustedDeviceHash: null, trustedUntil: null } },
        { type: 'UserLoggedIn', data: { sessionId: SESSION, method: 'second-factor' } },
      ]);
    const passed: UserEvent = { type: 'UserSecondFactorPassed', data: { challengeId: CHALLENGE, trustedDeviceHash: null, trustedUntil: null } };
    spec
      .given([registered(true), challenged, passed])
      .when(answer('code-hash'))
      .thenFails('401', SECOND_FACTOR_FAILED);
    const failures = Array.from(
      { length: SECOND_FACTOR_MAX_FAILURES },
      (): UserEvent => ({ type: 'UserSecondFactorFailed', data: { challengeId: CHALLENGE } }),
    );
    spec
      .given([registered(true), challenged, ...failures])
      .when(answer('code-hash'))
      .thenFails('401', SECOND_FACTOR_FAILED);
    spec
      .given([registered(true), challenged])
      .when(answer('code-hash', new Date(now.getTime() + 11 * 60_000)))
      .thenFails('401', SECOND_FACTOR_FAILED);
  });

  it('keeps a signature’s code apart from a login’s (issue 36): it confirms a signature, opens no session, and neither code serves the other', () => {
    const forSignature: UserEvent = { type: 'UserSecondFactorChallenged', data: { ...(challenged.data as object), purpose: 'signature' } } as UserEvent;
    const confirm = (codeHash: string) => ({ type: 'ConfirmSignatureFactor', challengeId: CHALLENGE, codeHash, now }) as const;
    spec
      .given([registered(true), forSignature])
      .when(confirm('code-hash'))
      .thenExpect([{ type: 'UserSecondFactorPassed', data: { challengeId: CHALLENGE, trustedDeviceHash: null, trustedUntil: null } }]);
    spec
      .given([registered(true), forSignature])
      .when(confirm('wrong'))
      .thenExpect([{ type: 'UserSecondFactorFailed', data: { challengeId: CHALLENGE } }]);
    spec
      .given([registered(true), forSignature])
      .when(answer('code-hash'))
      .thenFails('401', SECOND_FACTOR_FAILED);
    spec
      .given([registered(true), challenged])
      .when(confirm('code-hash'))
      .thenFails('422', SIGNATURE_CODE_FAILED);
    spec
      .given([registered(true)])
      .when({ type: 'ChallengeSecondFactor', purpose: 'signature', challengeId: CHALLENGE, tokenHash: 'h', sealed: 's', expiresAt: now })
      .thenExpect([
        {
          type: 'UserSecondFactorChallenged',
          data: { tokenHash: 'h', sealed: 's', expiresAt: now.toISOString(), challengeId: CHALLENGE, purpose: 'signature' },
        },
      ]);
  });

  it('tells a signer with a wrong code to type it again while the challenge takes more, and to ask for a new one after its last', () => {
    const forSignature: UserEvent = { type: 'UserSecondFactorChallenged', data: { ...(challenged.data as object), purpose: 'signature' } } as UserEvent;
    const failed: UserEvent = { type: 'UserSecondFactorFailed', data: { challengeId: CHALLENGE } };
    const afterWrong = (wrong: number) => fold(userDecider, [registered(true), forSignature, ...Array.from({ length: wrong }, () => failed)]);
    expect(wrongSignatureCodeMessage(afterWrong(1), CHALLENGE, now)).toBe(SIGNATURE_CODE_WRONG);
    expect(wrongSignatureCodeMessage(afterWrong(SECOND_FACTOR_MAX_FAILURES - 1), CHALLENGE, now)).toBe(SIGNATURE_CODE_WRONG);
    // The last wrong code spends it: the mailed code no longer signs, whatever is typed.
    expect(wrongSignatureCodeMessage(afterWrong(SECOND_FACTOR_MAX_FAILURES), CHALLENGE, now)).toBe(SIGNATURE_CODE_FAILED);
    spec
      .given([registered(true), forSignature, ...Array.from({ length: SECOND_FACTOR_MAX_FAILURES }, () => failed)])
      .when({ type: 'ConfirmSignatureFactor', challengeId: CHALLENGE, codeHash: 'code-hash', now })
      .thenFails('422', SIGNATURE_CODE_FAILED);
    // Expired meanwhile: a new code too.
    expect(wrongSignatureCodeMessage(afterWrong(1), CHALLENGE, new Date(now.getTime() + 11 * 60_000))).toBe(SIGNATURE_CODE_FAILED);
  });

  it('binds a social identity once and unbinds only a bound one', () => {
    const bound: UserEvent = { type: 'UserSocialIdentityBound', data: { platform: 'google', subject: 'g-1', email: 'ana@gmail.com' } };
    spec
      .given([registered(true)])
      .when({ type: 'BindSocialIdentity', platform: 'google', subject: 'g-1', email: 'ana@gmail.com' })
      .thenExpect([bound]);
    spec
      .given([registered(true), bound])
      .when({ type: 'BindSocialIdentity', platform: 'google', subject: 'g-1', email: 'ana@gmail.com' })
      .thenExpect([]);
    spec
      .given([registered(true)])
      .when({ type: 'UnbindSocialIdentity', platform: 'google', subject: 'g-1' })
      .thenExpect([]);
    spec
      .given([registered(true), bound])
      .when({ type: 'UnbindSocialIdentity', platform: 'google', subject: 'g-1' })
      .thenExpect([{ type: 'UserSocialIdentityUnbound', data: { platform: 'google', subject: 'g-1' } }]);
  });
});

describe('links die with what they vouched for (issue 31 item 4)', () => {
  const reset: UserEvent = { type: 'UserPasswordResetRequested', data: { tokenHash: 'r1', sealed: 's', expiresAt: later(60), purpose: 'reset' } };
  const login: UserEvent = { type: 'UserLoginTokenIssued', data: { tokenHash: 'l1', expiresAt: later(60) } };
  const change: UserEvent = {
    type: 'UserEmailChangeRequested',
    data: { tokenHash: 'c1', sealed: 's', expiresAt: later(60), newEmail: 'nova@test.si', oldEmail: 'ana@test.si' },
  };
  const links = [reset, login, change];
  const useReset = { type: 'CompletePasswordReset', tokenHash: 'r1', passwordHash: 'hash-9', now } as const;
  const useLogin = { type: 'RedeemLoginToken', tokenHash: 'l1', sessionId: SESSION, now } as const;
  const useChange = { type: 'ConfirmEmailChange', tokenHash: 'c1', now } as const;

  const killers: [string, UserEvent[]][] = [
    ['the password changes', [{ type: 'UserPasswordChanged', data: { passwordHash: 'hash-2' } }]],
    ['the e-mail is changed by its link', [{ type: 'UserEmailChanged', data: { tokenHash: 'x', oldEmail: 'ana@test.si', newEmail: 'tretja@test.si' } }]],
    ['an admin replaces the e-mail', [{ type: 'UserEmailReplaced', data: { oldEmail: 'ana@test.si', newEmail: 'tretja@test.si' } }]],
    [
      'the account is deactivated and activated again',
      [
        { type: 'UserDeactivated', data: {} },
        { type: 'UserActivated', data: {} },
      ],
    ],
    [
      'the account is deleted and reactivated',
      [
        { type: 'UserDeleted', data: {} },
        { type: 'UserReactivated', data: {} },
      ],
    ],
  ];
  for (const [what, events] of killers) {
    it(`reset, login and e-mail-change links die when ${what}`, () => {
      spec
        .given([registered(true), ...links, ...events])
        .when(useReset)
        .thenFails('401');
      spec
        .given([registered(true), ...links, ...events])
        .when(useLogin)
        .thenFails('401');
      spec
        .given([registered(true), ...links, ...events])
        .when(useChange)
        .thenFails('401');
    });
  }

  it('a newer link of the same kind voids the older one; the newer works', () => {
    const newerReset: UserEvent = { type: 'UserPasswordResetRequested', data: { tokenHash: 'r2', sealed: 's', expiresAt: later(60), purpose: 'reset' } };
    spec
      .given([registered(true), reset, newerReset])
      .when(useReset)
      .thenFails('401');
    spec
      .given([registered(true), reset, newerReset])
      .when({ ...useReset, tokenHash: 'r2' })
      .thenExpect([{ type: 'UserPasswordResetCompleted', data: { tokenHash: 'r2', passwordHash: 'hash-9' } }]);
    const newerLogin: UserEvent = { type: 'UserLoginTokenIssued', data: { tokenHash: 'l2', expiresAt: later(60) } };
    spec
      .given([registered(true), login, newerLogin])
      .when(useLogin)
      .thenFails('401');
    spec
      .given([registered(true), login, newerLogin])
      .when({ ...useLogin, tokenHash: 'l2' })
      .thenExpect([
        { type: 'UserLoginTokenRedeemed', data: { tokenHash: 'l2', sessionId: SESSION } },
        { type: 'UserLoggedIn', data: { sessionId: SESSION, method: 'login-token' } },
      ]);
  });

  it('links issued after the change work', () => {
    spec
      .given([registered(true), { type: 'UserPasswordChanged', data: { passwordHash: 'hash-2' } }, reset])
      .when(useReset)
      .thenExpect([{ type: 'UserPasswordResetCompleted', data: { tokenHash: 'r1', passwordHash: 'hash-9' } }]);
  });
});
