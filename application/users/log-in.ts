import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { LOGIN_FAILED, userDecider } from '../../domain/users/user.decide.ts';
import { loginFormRule, regFormIdRule } from '../../domain/users/user.rules.ts';
import { userStream } from '../../domain/users/user.ts';
import { isTrustedDevice } from '../../domain/users/user-identity.decide.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { handleCommand } from '../shared/handle-command.ts';
import type { AuthDeps } from './auth.deps.ts';
import { findUserByLogin } from './find-user-by-login.ts';
import { hashSecret } from './identity-secrets.ts';
import { challengeSecondFactor } from './second-factor.ts';
import { bindPendingSocialIdentity } from './social-identities.ts';

/**
 * spec §7 POST /auth/login: usernameOrEmail and password, with regFormId, oauthEmail and
 * oauthPlatform for the sign-up and social flows. `oauthToken` carries a social identity waiting
 * to be bound (a provider account whose e-mail matches this account): it is bound once the password
 * (and second factor) are right.
 */
export const logInRequest = loginFormRule
  .extend({
    regFormId: regFormIdRule,
    oauthEmail: z.email().max(254).optional(),
    oauthPlatform: z.enum(['facebook', 'google']).optional(),
    oauthToken: z.string().max(4000).optional(),
  })
  .strict();

export type LogInRequest = z.infer<typeof logInRequest>;

export type LogInResult =
  | {
      readonly kind: 'session';
      readonly authToken: string;
      readonly position: import('../../infrastructure/event-store/event-store.port.ts').AllPosition | null;
    }
  | {
      readonly kind: 'second-factor';
      readonly auth2FAToken: string;
      readonly position: import('../../infrastructure/event-store/event-store.port.ts').AllPosition | null;
    };

/**
 * Password login. Every failure (no such user, no password set, wrong password, an account whose
 * e-mail is not confirmed yet) is the same 401 with the same message, and an unknown user still
 * costs one hash verification, so neither the answer nor its timing tells which part was wrong.
 * With the second factor on and the device not trusted, the answer is the challenge instead of a
 * session (spec §4: "credentials lead to the 2FA screen").
 */
export const logIn = async (deps: AuthDeps, request: LogInRequest, metadata: EventMetadata, device: { secret: string | null }): Promise<LogInResult> => {
  const user = await findUserByLogin(deps.store, request.usernameOrEmail);
  const hash = user.status === 'active' ? user.passwordHash : null;
  const valid = await deps.passwords.verify(hash ?? deps.passwords.decoyHash, request.password);
  if (user.status !== 'active' || hash === null || !valid || !user.emailConfirmed) throw new DomainError('401', LOGIN_FAILED, { status: 401 });
  const pending = request.oauthToken ? await deps.purposeTokens.verify('social-pending', request.oauthToken) : null;
  if (user.secondFactor && !isTrustedDevice(user, device.secret ? hashSecret(device.secret) : null, deps.now())) {
    const challenge = await challengeSecondFactor(deps, user.id, metadata, pending ? (request.oauthToken as string) : null);
    return { kind: 'second-factor', auth2FAToken: challenge.auth2FAToken, position: challenge.position };
  }
  const sessionId = randomUUID();
  const result = await handleCommand(deps.store, {
    streamName: userStream(user.id),
    decider: userDecider,
    command: { type: 'LogIn', sessionId, verifiedPasswordHash: hash },
    metadata: { ...metadata, actorId: user.id },
  });
  const bound = pending ? await bindPendingSocialIdentity(deps, user.id, pending, { ...metadata, actorId: user.id }) : null;
  const position = bound?.position ?? result.position;
  const authToken = await deps.tokens.sign({ userId: user.id, sessionId, realUserId: null, position });
  return { kind: 'session', authToken, position };
};
