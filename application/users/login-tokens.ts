import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { TOKEN_INVALID, userDecider } from '../../domain/users/user.decide.ts';
import { userStream } from '../../domain/users/user.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { handleCommand } from '../shared/handle-command.ts';
import type { AuthDeps } from './auth.deps.ts';

/**
 * One-time login tokens (links in e-mails, the login-token export of permission 1066). The token
 * is `<userId>.<secret>`; only a SHA-256 of the secret is stored, in the user's stream, so the
 * stream also decides single use: two redemptions racing for one token conflict and the second
 * sees it redeemed.
 */
const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('base64url');

const parse = (token: string) => {
  const match = /^(\d{1,10})\.([A-Za-z0-9_-]{32,128})$/.exec(token.trim());
  return match ? { userId: Number(match[1]), secret: match[2] as string } : null;
};

export const exchangeTokenRequest = z.object({ token: z.string().min(1).max(200) }).strict();

export const issueLoginToken = async (deps: AuthDeps, userId: number, metadata: EventMetadata) => {
  const secret = randomBytes(32).toString('base64url');
  const expiresAt = new Date(deps.now().getTime() + deps.loginTokenTtlSeconds * 1000);
  const result = await handleCommand(deps.store, {
    streamName: userStream(userId),
    decider: userDecider,
    command: { type: 'IssueLoginToken', tokenHash: hashSecret(secret), expiresAt },
    metadata,
  });
  return { token: `${userId}.${secret}`, expiresAt, position: result.position };
};

export const exchangeLoginToken = async (deps: AuthDeps, token: string, metadata: EventMetadata) => {
  const parsed = parse(token);
  if (!parsed) throw new DomainError('401', TOKEN_INVALID, { status: 401 });
  const sessionId = randomUUID();
  const result = await handleCommand(deps.store, {
    streamName: userStream(parsed.userId),
    decider: userDecider,
    command: { type: 'RedeemLoginToken', tokenHash: hashSecret(parsed.secret), sessionId, now: deps.now() },
    metadata: { ...metadata, actorId: parsed.userId },
  });
  const authToken = await deps.tokens.sign({ userId: parsed.userId, sessionId, realUserId: null, position: result.position });
  return { authToken, position: result.position };
};
