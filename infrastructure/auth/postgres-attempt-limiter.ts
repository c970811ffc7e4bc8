import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { AttemptLimiter } from './attempt-limiter.port.ts';

/**
 * Attempts counted in PostgreSQL (`public.attempts`): one upsert per budget in a single statement,
 * so concurrent attempts from several processes are all counted. Keys are hashed: an account name
 * or address is personal data and is not kept in clear. Old windows are swept now and then.
 *
 * A sliding window: the attempts of the current window plus those of the previous one weighted by
 * how much of it still lies within the last `windowSeconds`. A fixed window let twice the budget
 * through across a window's edge (three tries just before the minute turned, three more just after).
 */
export const createPostgresAttemptLimiter = (pool: pg.Pool, now: () => Date = () => new Date()): AttemptLimiter => {
  let lastSweep = 0;
  const hashed = (keys: readonly string[]) => keys.map((key) => createHash('sha256').update(key).digest('base64url'));
  const windowOf = (windowSeconds: number) => {
    const at = now().getTime();
    const windowMs = windowSeconds * 1000;
    const start = Math.floor(at / windowMs) * windowMs;
    return {
      at,
      windowMs,
      start: new Date(start),
      previous: new Date(start - windowMs),
      retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - at) / 1000)),
    };
  };
  /** One upsert for every key; each key's sliding count, this attempt included, in the order given. */
  const take = async (keys: readonly string[], windowSeconds: number) => {
    const window = windowOf(windowSeconds);
    const hashes = hashed(keys);
    const { rows } = await pool.query<{ key: string; count: number; previous: number }>(
      `with hit as (
         insert into public.attempts (key, window_start, count)
         select k, $2, 1 from unnest($1::text[]) as k
         on conflict (key, window_start) do update set count = public.attempts.count + 1
         returning key, count)
       select h.key, h.count, coalesce(p.count, 0) as previous
         from hit h left join public.attempts p on p.key = h.key and p.window_start = $3`,
      [hashes, window.start, window.previous],
    );
    if (window.at - lastSweep > 60_000) {
      lastSweep = window.at;
      await pool.query('delete from public.attempts where window_start < $1', [new Date(window.at - 10 * window.windowMs)]);
    }
    const previousWeight = 1 - (window.at - window.start.getTime()) / window.windowMs;
    const counts = hashes.map((hash) => {
      const row = rows.find((r) => r.key === hash);
      return (row?.count ?? 0) + (row?.previous ?? 0) * previousWeight;
    });
    return { counts, retryAfterSeconds: window.retryAfterSeconds };
  };
  return {
    take,
    give: async (keys, windowSeconds) => {
      if (keys.length === 0) return;
      await pool.query('update public.attempts set count = greatest(count - 1, 0) where key = any($1::text[]) and window_start = $2', [
        hashed(keys),
        windowOf(windowSeconds).start,
      ]);
    },
    hit: async (budgets, windowSeconds) => {
      if (budgets.length === 0) return { allowed: true };
      const { counts, retryAfterSeconds } = await take(
        budgets.map((b) => b.key),
        windowSeconds,
      );
      const spent = budgets.some((budget, i) => (counts[i] ?? 0) > budget.limit);
      return spent ? { allowed: false, retryAfterSeconds } : { allowed: true };
    },
  };
};
