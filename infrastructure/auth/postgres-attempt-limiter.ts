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
  return {
    hit: async (budgets, windowSeconds) => {
      if (budgets.length === 0) return { allowed: true };
      const at = now().getTime();
      const windowMs = windowSeconds * 1000;
      const windowStart = new Date(Math.floor(at / windowMs) * windowMs);
      const previousStart = new Date(windowStart.getTime() - windowMs);
      const keys = budgets.map((b) => createHash('sha256').update(b.key).digest('base64url'));
      const { rows } = await pool.query<{ key: string; count: number; previous: number }>(
        `with hit as (
           insert into public.attempts (key, window_start, count)
           select k, $2, 1 from unnest($1::text[]) as k
           on conflict (key, window_start) do update set count = public.attempts.count + 1
           returning key, count)
         select h.key, h.count, coalesce(p.count, 0) as previous
           from hit h left join public.attempts p on p.key = h.key and p.window_start = $3`,
        [keys, windowStart, previousStart],
      );
      if (at - lastSweep > 60_000) {
        lastSweep = at;
        await pool.query('delete from public.attempts where window_start < $1', [new Date(at - 10 * windowMs)]);
      }
      const previousWeight = 1 - (at - windowStart.getTime()) / windowMs;
      const spent = budgets.some((budget, i) => {
        const row = rows.find((r) => r.key === keys[i]);
        return (row?.count ?? 0) + (row?.previous ?? 0) * previousWeight > budget.limit;
      });
      if (!spent) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((windowStart.getTime() + windowMs - at) / 1000)) };
    },
  };
};
