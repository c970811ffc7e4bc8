import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { LOGIN_FAILED, userDecider } from '../../domain/users/user.decide.ts';
import { loginFormRule } from '../../domain/users/user.rules.ts';
import { userStream } from '../../domain/users/user.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { handleCommand } from '../shared/handle-command.ts';
import type { AuthDeps } from './auth.deps.ts';
import { findUserByLogin } from './find-user-by-login.ts';

/** spec §7 POST /auth/login. regFormId, oauthEmail and oauthPlatform are accepted for the sign-up and social sign-in flows. */
export const logInRequest = loginFormRule
  .extend({
    regFormId: z.union([z.string().max(100), z.number().int()]).optional(),
    oauthEmail: z.email().max(254).optional(),
    oauthPlatform: z.enum(['facebook', 'google']).optional(),
  })
  .strict();

export type LogInRequest = z.infer<typeof logInRequest>;

/**
 * Password login. Every failure (no such user, no password set, wrong password) is the same 401
 * with the same message, and an unknown user still costs one hash verification, so neither the
 * answer nor its timing tells which part was wrong.
 */
export const logIn = async (deps: AuthDeps, request: LogInRequest, metadata: EventMetadata) => {
  const user = await findUserByLogin(deps.store, request.usernameOrEmail);
  const hash = user.status === 'active' ? user.passwordHash : null;
  const valid = await deps.passwords.verify(hash ?? deps.passwords.decoyHash, request.password);
  if (user.status !== 'active' || hash === null || !valid) throw new DomainError('401', LOGIN_FAILED, { status: 401 });
  const sessionId = randomUUID();
  const result = await handleCommand(deps.store, {
    streamName: userStream(user.id),
    decider: userDecider,
    command: { type: 'LogIn', sessionId, verifiedPasswordHash: hash },
    metadata: { ...metadata, actorId: user.id },
  });
  const authToken = await deps.tokens.sign({ userId: user.id, sessionId, realUserId: null, position: result.position });
  return { authToken, position: result.position };
};
