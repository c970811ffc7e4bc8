import { DomainError } from '../shared/domain-error.ts';
import type { ActiveUser, PendingSecret, SocialPlatform, UserEvent, UserState } from './user.ts';

/**
 * Decisions about who a user is and how they prove it (issue 13): e-mail confirmation, password
 * reset and first password, e-mail change, the second factor by e-mail code, social identities,
 * push preference. A secret is checked against its hash and its expiry; a used or expired one is
 * refused with the spec §8 "invalid or expired token" message.
 */
export const TOKEN_EXPIRED = 'Povezava je neveljavna ali je potekla.';
export const SECOND_FACTOR_FAILED = 'Potrditev ni uspela. Poskusite ponovno.';
/** Wrong codes a challenge takes before it is spent (a new code must be asked for). */
export const SECOND_FACTOR_MAX_FAILURES = 5;

type Sealed = { tokenHash: string; sealed: string; expiresAt: Date };

/**
 * A signature's code whose challenge is spent (passed, or SECOND_FACTOR_MAX_FAILURES wrong codes),
 * expired or not a signature's (issue 36, decision 0063): only a new code can sign.
 */
export const SIGNATURE_CODE_FAILED = 'Koda iz e-pošte ni pravilna ali ni več veljavna. Zahtevajte novo kodo in poskusite ponovno.';
/** A wrong signature code while its challenge takes more: the code already mailed may be typed again. */
export const SIGNATURE_CODE_WRONG = 'Koda iz e-pošte ni pravilna. Preverite jo in jo vnesite ponovno.';

/** A challenge of this purpose still open: not passed, not spent by wrong codes, not expired. */
const openChallenge = (user: ActiveUser, challengeId: string, purpose: 'login' | 'signature', now: Date) => {
  const challenge = user.challenges.find((c) => c.challengeId === challengeId && c.purpose === purpose);
  const open = challenge && !challenge.passed && challenge.failures < SECOND_FACTOR_MAX_FAILURES && new Date(challenge.expiresAt).getTime() > now.getTime();
  return open ? challenge : null;
};

/**
 * What a signer is told after a wrong code (the state has its UserSecondFactorFailed): to type the
 * mailed code again while the challenge takes more, to ask for a new one once that was its last try.
 */
export const wrongSignatureCodeMessage = (user: UserState, challengeId: string, now: Date) =>
  user.status === 'active' && openChallenge(user, challengeId, 'signature', now) ? SIGNATURE_CODE_WRONG : SIGNATURE_CODE_FAILED;

export type IdentityCommand =
  | ({ type: 'RequestEmailConfirmation' } & Sealed)
  | { type: 'ConfirmEmail'; tokenHash: string; now: Date }
  | ({ type: 'RequestPasswordReset'; purpose: 'reset' | 'setup' } & Sealed)
  /** Ends every open session: whoever had the old password is out. */
  | { type: 'CompletePasswordReset'; tokenHash: string; passwordHash: string; now: Date }
  | ({ type: 'RequestEmailChange'; newEmail: string } & Sealed)
  | { type: 'ConfirmEmailChange'; tokenHash: string; now: Date }
  | { type: 'EnableSecondFactor' }
  | { type: 'DisableSecondFactor' }
  | ({ type: 'ChallengeSecondFactor'; challengeId: string; purpose?: 'login' | 'signature' } & Sealed)
  /** The code of a signature's challenge (issue 36): passed or failed like a login's, but it opens no session. */
  | { type: 'ConfirmSignatureFactor'; challengeId: string; codeHash: string; now: Date }
  /** A wrong code is recorded (UserSecondFactorFailed) and the slice refuses after appending it. */
  | { type: 'AnswerSecondFactor'; challengeId: string; codeHash: string; now: Date; sessionId: string; trustedDevice: { hash: string; until: Date } | null }
  | { type: 'LogInTrusted'; sessionId: string; method: 'second-factor' | 'social' | 'email-link'; now: Date }
  | { type: 'BindSocialIdentity'; platform: SocialPlatform; subject: string; email: string | null }
  | { type: 'UnbindSocialIdentity'; platform: SocialPlatform; subject: string }
  | { type: 'SetPushPreference'; onesignalEnabled: number }
  | { type: 'ChangeSecondaryEmail'; secondaryEmail: string | null };

const invalidToken = () => new DomainError('401', TOKEN_EXPIRED, { status: 401, field: 'token' });
const live = (secret: PendingSecret | null | undefined, tokenHash: string, now: Date) =>
  secret !== null && secret !== undefined && secret.tokenHash === tokenHash && new Date(secret.expiresAt).getTime() > now.getTime();
const sealed = (c: Sealed) => ({ tokenHash: c.tokenHash, sealed: c.sealed, expiresAt: c.expiresAt.toISOString() });

export const decideIdentity = (command: IdentityCommand, user: ActiveUser): UserEvent[] => {
  switch (command.type) {
    case 'RequestEmailConfirmation':
      return user.emailConfirmed ? [] : [{ type: 'UserEmailConfirmationRequested', data: sealed(command) }];
    case 'ConfirmEmail':
      if (user.emailConfirmed && user.confirmation === null) throw invalidToken();
      if (!live(user.confirmation, command.tokenHash, command.now)) throw invalidToken();
      return [{ type: 'UserEmailConfirmed', data: { tokenHash: command.tokenHash, email: user.email } }];
    case 'RequestPasswordReset':
      return [{ type: 'UserPasswordResetRequested', data: { ...sealed(command), purpose: command.purpose } }];
    case 'CompletePasswordReset': {
      if (!user.passwordResets.some((r) => live(r, command.tokenHash, command.now))) throw invalidToken();
      return [
        { type: 'UserPasswordResetCompleted', data: { tokenHash: command.tokenHash, passwordHash: command.passwordHash } },
        ...user.openSessions.map((sessionId): UserEvent => ({ type: 'UserLoggedOut', data: { sessionId } })),
      ];
    }
    case 'RequestEmailChange':
      if (command.newEmail.trim().toLowerCase() === user.email.trim().toLowerCase()) {
        throw new DomainError('422003', 'To je že vaš e-naslov.', { status: 422, field: 'email' });
      }
      return [{ type: 'UserEmailChangeRequested', data: { ...sealed(command), newEmail: command.newEmail, oldEmail: user.email } }];
    case 'ConfirmEmailChange':
      if (!user.emailChange || !live(user.emailChange, command.tokenHash, command.now)) throw invalidToken();
      return [{ type: 'UserEmailChanged', data: { tokenHash: command.tokenHash, oldEmail: user.email, newEmail: user.emailChange.newEmail } }];
    case 'EnableSecondFactor':
      return user.secondFactor ? [] : [{ type: 'UserSecondFactorEnabled', data: {} }];
    case 'DisableSecondFactor':
      return user.secondFactor ? [{ type: 'UserSecondFactorDisabled', data: {} }] : [];
    case 'ChallengeSecondFactor':
      return [
        {
          type: 'UserSecondFactorChallenged',
          data: { ...sealed(command), challengeId: command.challengeId, ...(command.purpose === 'signature' ? { purpose: 'signature' as const } : {}) },
        },
      ];
    case 'ConfirmSignatureFactor': {
      const challenge = openChallenge(user, command.challengeId, 'signature', command.now);
      if (!challenge) throw new DomainError('422', SIGNATURE_CODE_FAILED, { status: 422, field: 'secondFactorCode' });
      if (challenge.tokenHash !== command.codeHash) return [{ type: 'UserSecondFactorFailed', data: { challengeId: command.challengeId } }];
      return [{ type: 'UserSecondFactorPassed', data: { challengeId: command.challengeId, trustedDeviceHash: null, trustedUntil: null } }];
    }
    case 'AnswerSecondFactor': {
      const challenge = openChallenge(user, command.challengeId, 'login', command.now);
      if (!challenge) throw new DomainError('401', SECOND_FACTOR_FAILED, { status: 401, field: 'code' });
      if (challenge.tokenHash !== command.codeHash) return [{ type: 'UserSecondFactorFailed', data: { challengeId: command.challengeId } }];
      return [
        {
          type: 'UserSecondFactorPassed',
          data: {
            challengeId: command.challengeId,
            trustedDeviceHash: command.trustedDevice?.hash ?? null,
            trustedUntil: command.trustedDevice?.until.toISOString() ?? null,
          },
        },
        { type: 'UserLoggedIn', data: { sessionId: command.sessionId, method: 'second-factor' } },
      ];
    }
    case 'LogInTrusted':
      // A one-time sign-in (a provider's code) opens its session once.
      if (user.openSessions.includes(command.sessionId)) throw invalidToken();
      return [{ type: 'UserLoggedIn', data: { sessionId: command.sessionId, method: command.method } }];
    case 'BindSocialIdentity':
      return user.socialIdentities.some((i) => i.platform === command.platform && i.subject === command.subject)
        ? []
        : [{ type: 'UserSocialIdentityBound', data: { platform: command.platform, subject: command.subject, email: command.email } }];
    case 'UnbindSocialIdentity':
      return user.socialIdentities.some((i) => i.platform === command.platform && i.subject === command.subject)
        ? [{ type: 'UserSocialIdentityUnbound', data: { platform: command.platform, subject: command.subject } }]
        : [];
    case 'SetPushPreference':
      return user.onesignalEnabled === command.onesignalEnabled
        ? []
        : [{ type: 'UserPushPreferenceChanged', data: { onesignalEnabled: command.onesignalEnabled } }];
    case 'ChangeSecondaryEmail':
      return user.secondaryEmail === command.secondaryEmail ? [] : [{ type: 'UserSecondaryEmailChanged', data: { secondaryEmail: command.secondaryEmail } }];
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
};

/** Whether a device is trusted for the second factor now ("remember me"). */
export const isTrustedDevice = (user: ActiveUser, deviceHash: string | null, now: Date) =>
  deviceHash !== null && user.trustedDevices.some((d) => d.hash === deviceHash && new Date(d.until).getTime() > now.getTime());

export const isIdentityCommand = (command: { type: string }): command is IdentityCommand => IDENTITY_COMMANDS.has(command.type);

const IDENTITY_COMMANDS = new Set([
  'RequestEmailConfirmation',
  'ConfirmEmail',
  'RequestPasswordReset',
  'CompletePasswordReset',
  'RequestEmailChange',
  'ConfirmEmailChange',
  'EnableSecondFactor',
  'DisableSecondFactor',
  'ChallengeSecondFactor',
  'AnswerSecondFactor',
  'ConfirmSignatureFactor',
  'LogInTrusted',
  'BindSocialIdentity',
  'UnbindSocialIdentity',
  'SetPushPreference',
  'ChangeSecondaryEmail',
]);
