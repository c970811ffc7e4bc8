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
  | 'survey'
  /** Ballots handed to anonymous browsers with a survey (decision 0049): per address per hour. */
  | 'survey-ballot';

/**
 * Counts an attempt against the account's and the address's budget for `kind` and refuses with
 * 429 (and Retry-After) once either is spent. Every attempt counts, right or wrong, so a correct
 * guess after many wrong ones is refused just the same.
 */
export const guardAttempts = async (
  limits: AttemptLimits,
  reply: FastifyReply,
  kind: AttemptKind,
  who: { account: string | null; address: string },
  windowSeconds = 60,
) => {
  const budgets = [{ key: `${kind}|address|${who.address}`, limit: limits.perAddress }];
  if (who.account) budgets.push({ key: `${kind}|account|${who.account.trim().toLowerCase()}`, limit: limits.perAccount });
  const verdict = await limits.limiter.hit(budgets, windowSeconds);
  if (verdict.allowed) return;
  reply.header('Retry-After', String(verdict.retryAfterSeconds));
  throw new DomainError('429', `Preveč poskusov. Poskusite znova čez ${verdict.retryAfterSeconds} s.`, { status: 429 });
};

/** An account's failures from all addresses together may reach this many times the budget of one address. */
export const ACCOUNT_WIDE_FACTOR = 3;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A secret tried against an account (a password, a login link): the guesser is slowed and then
 * stopped, the owner is not (issue 31 item 5, decision 0016). Every attempt counts against the
 * address; only failures count against the account at that address (`perAccount`) and against the
 * account from everywhere (ACCOUNT_WIDE_FACTOR times that). The account-wide budget stops only
 * addresses that have failed on the account already, so the owner signing in from an address that
 * never failed gets in however many others guessed. A right secret takes its attempt back.
 */
export const guardSecretGuess = async <T>(
  limits: AttemptLimits,
  reply: FastifyReply,
  kind: 'login' | 'login-token',
  who: { account: string; address: string },
  attempt: () => Promise<T>,
): Promise<T> => {
  const account = who.account.trim().toLowerCase();
  const keys = [`${kind}|address|${who.address}`, `${kind}|failed|${account}|${who.address}`, `${kind}|failed|${account}`];
  const { counts, retryAfterSeconds } = await limits.limiter.take(keys, 60);
  const [byAddress = 0, here = 0, everywhere = 0] = counts;
  const stopped = byAddress > limits.perAddress || here > limits.perAccount || (everywhere > limits.perAccount * ACCOUNT_WIDE_FACTOR && here > 1);
  if (stopped) {
    reply.header('Retry-After', String(retryAfterSeconds));
    throw new DomainError('429', `Preveč poskusov. Poskusite znova čez ${retryAfterSeconds} s.`, { status: 429 });
  }
  try {
    const result = await attempt();
    await limits.limiter.give(keys.slice(1), 60);
    return result;
  } catch (error) {
    // Each further failure at this address waits a little longer before it is answered.
    if (error instanceof DomainError && error.status === 401) await sleep(Math.min(Math.max(here - 1, 0), 4) * 250);
    throw error;
  }
};
