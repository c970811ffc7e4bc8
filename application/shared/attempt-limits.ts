import type { FastifyReply } from 'fastify';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { AttemptLimiter } from '../../infrastructure/auth/attempt-limiter.port.ts';

export type AttemptLimits = {
  readonly limiter: AttemptLimiter;
  /** Attempts per account per minute, from any address. */
  readonly perAccount: number;
  /** Attempts per address per minute, on any account (an office behind one address needs headroom). */
  readonly perAddress: number;
};

/** The kinds of guessable secrets: each has budgets of its own. */
export type AttemptKind =
  | 'login'
  | 'login-token'
  | 'log-in-as'
  | 'second-factor'
  | 'second-factor-resend'
  | 'password-reset'
  | 'password-change'
  | 'registration'
  | 'link'
  /** Public survey answers (issue 17): per address, as no account answers. */
  | 'survey';

/**
 * Counts an attempt against the account's and the address's budget for `kind` and refuses with
 * 429 (and Retry-After) once either is spent. Every attempt counts, right or wrong, so a correct
 * guess after many wrong ones is refused just the same.
 */
export const guardAttempts = async (limits: AttemptLimits, reply: FastifyReply, kind: AttemptKind, who: { account: string | null; address: string }) => {
  const budgets = [{ key: `${kind}|address|${who.address}`, limit: limits.perAddress }];
  if (who.account) budgets.push({ key: `${kind}|account|${who.account.trim().toLowerCase()}`, limit: limits.perAccount });
  const verdict = await limits.limiter.hit(budgets, 60);
  if (verdict.allowed) return;
  reply.header('Retry-After', String(verdict.retryAfterSeconds));
  throw new DomainError('429', `Preveč poskusov. Poskusite znova čez ${verdict.retryAfterSeconds} s.`, { status: 429 });
};
