/**
 * Counts attempts per key (an account, an address) in fixed windows shared by every API process,
 * so guessing passwords or tokens is bounded however many processes serve.
 */
export type AttemptBudget = { readonly key: string; readonly limit: number };

export type AttemptVerdict = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

export type AttemptLimiter = {
  /** Counts one attempt against every budget; refused when any of them is spent in the current window. */
  hit(budgets: readonly AttemptBudget[], windowSeconds: number): Promise<AttemptVerdict>;
  /**
   * Counts one attempt against every key and answers each key's count over the last window, this
   * attempt included, with the seconds until the window turns: the caller weighs the counts itself.
   */
  take(keys: readonly string[], windowSeconds: number): Promise<{ readonly counts: readonly number[]; readonly retryAfterSeconds: number }>;
  /** Takes back one attempt from every key in the current window: an attempt that turned out not to count (a right password). */
  give(keys: readonly string[], windowSeconds: number): Promise<void>;
};
