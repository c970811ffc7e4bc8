/**
 * Counts attempts per key (an account, an address) in fixed windows shared by every API process,
 * so guessing passwords or tokens is bounded however many processes serve.
 */
export type AttemptBudget = { readonly key: string; readonly limit: number };

export type AttemptVerdict = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

export type AttemptLimiter = {
  /** Counts one attempt against every budget; refused when any of them is spent in the current window. */
  hit(budgets: readonly AttemptBudget[], windowSeconds: number): Promise<AttemptVerdict>;
};
