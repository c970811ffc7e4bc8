import { randomBytes, randomUUID } from 'node:crypto';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { userDecider } from '../../domain/users/user.decide.ts';
import { userStream } from '../../domain/users/user.ts';
import { SECOND_FACTOR_FAILED } from '../../domain/users/user-identity.decide.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { handleCommand } from '../shared/handle-command.ts';
import type { AuthDeps } from './auth.deps.ts';
import { hashSecondFactorCode, hashSecret, newSecondFactorCode, SECRET_TTL_SECONDS } from './identity-secrets.ts';
import { bindPendingSocialIdentity } from './social-identities.ts';
import { loadUser } from './user-state.ts';

const failed = () => new DomainError('401', SECOND_FACTOR_FAILED, { status: 401, field: 'code' });

/**
 * The second step of a login (spec §2 /prijava/2fa, §4): a 6-digit code goes by mail; the answer
 * is the token this returns (auth2FAToken), which names the user and the challenge. A social
 * identity waiting to be bound rides along and is bound once the code is right.
 */
export const challengeSecondFactor = async (deps: AuthDeps, userId: number, metadata: EventMetadata, oauthToken: string | null = null) => {
  const challengeId = randomUUID();
  const code = newSecondFactorCode();
  const expiresAt = new Date(deps.now().getTime() + SECRET_TTL_SECONDS.secondFactorCode * 1000);
  const result = await handleCommand(deps.store, {
    streamName: userStream(userId),
    decider: userDecider,
    command: { type: 'ChallengeSecondFactor', challengeId, tokenHash: hashSecondFactorCode(challengeId, code), sealed: deps.sealer.seal(code), expiresAt },
    metadata: { ...metadata, actorId: userId },
  });
  const auth2FAToken = await deps.purposeTokens.sign('second-factor', { userId, challengeId, oauthToken }, SECRET_TTL_SECONDS.secondFactorCode + 60);
  return { auth2FAToken, position: result.position };
};

export const readSecondFactorToken = async (deps: AuthDeps, token: string) => {
  const payload = await deps.purposeTokens.verify('second-factor', token);
  const userId = Number(payload?.userId);
  if (!payload || !Number.isInteger(userId) || userId <= 0 || typeof payload.challengeId !== 'string') throw failed();
  return { userId, challengeId: payload.challengeId, oauthToken: typeof payload.oauthToken === 'string' ? payload.oauthToken : null };
};

/**
 * Checks the code. A wrong one is recorded (five spend the challenge) and answered with the spec's
 * "Potrditev ni uspela. Poskusite ponovno."; a right one opens the session, and with "remember me"
 * trusts this device for 30 days (the device's secret is returned for a cookie; its hash is kept).
 */
export const answerSecondFactor = async (
  deps: AuthDeps,
  input: { auth2FAToken: string; code: string; rememberMe: boolean; deviceSecret: string | null },
  metadata: EventMetadata,
) => {
  const { userId, challengeId, oauthToken } = await readSecondFactorToken(deps, input.auth2FAToken);
  const sessionId = randomUUID();
  const deviceSecret = input.rememberMe ? (input.deviceSecret ?? randomBytes(32).toString('base64url')) : null;
  const until = new Date(deps.now().getTime() + SECRET_TTL_SECONDS.trustedDevice * 1000);
  const result = await handleCommand(deps.store, {
    streamName: userStream(userId),
    decider: userDecider,
    command: {
      type: 'AnswerSecondFactor',
      challengeId,
      codeHash: hashSecondFactorCode(challengeId, input.code),
      now: deps.now(),
      sessionId,
      trustedDevice: deviceSecret ? { hash: hashSecret(deviceSecret), until } : null,
    },
    metadata: { ...metadata, actorId: userId },
  });
  if (result.events.some((e) => e.type === 'UserSecondFactorFailed')) throw failed();
  let position = result.position;
  if (oauthToken) {
    const pending = await deps.purposeTokens.verify('social-pending', oauthToken);
    if (pending) position = (await bindPendingSocialIdentity(deps, userId, pending, { ...metadata, actorId: userId })).position ?? position;
  }
  const authToken = await deps.tokens.sign({ userId, sessionId, realUserId: null, position });
  return { authToken, position, deviceSecret, trustedUntil: deviceSecret ? until : null };
};

/** A new code for the same login (the old one stops counting once this one exists only in the sense that each has its own challenge). */
export const resendSecondFactor = async (deps: AuthDeps, auth2FAToken: string, metadata: EventMetadata) => {
  const { userId, oauthToken } = await readSecondFactorToken(deps, auth2FAToken);
  return challengeSecondFactor(deps, userId, metadata, oauthToken);
};

/** The second factor switched on or off from the profile (1003), confirmed by the current password. */
export const setSecondFactor = async (deps: AuthDeps, userId: number, input: { enabled: boolean; password: string }, metadata: EventMetadata) => {
  const user = await loadUser(deps.store, userId);
  if (user.status !== 'active') throw new DomainError('404', 'Uporabnik ne obstaja.', { status: 404 });
  const valid = await deps.passwords.verify(user.passwordHash ?? deps.passwords.decoyHash, input.password);
  if (user.passwordHash === null || !valid) throw new DomainError('400', 'Geslo ni pravilno.', { status: 400, field: 'password' });
  const result = await handleCommand(deps.store, {
    streamName: userStream(userId),
    decider: userDecider,
    command: { type: input.enabled ? 'EnableSecondFactor' : 'DisableSecondFactor' },
    metadata,
  });
  return result.position;
};
