import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { AttemptLimiter } from './attempt-limiter.port.ts';

/**
 * Attempts counted in PostgreSQL (`public.attempts`): one upsert per budget in a single statement,
 * so concurrent attempts from several processes are all counted. Keys are hashed: an account name
 * or address is personal data and is not kept in clear. Old windows are swept now and then.
 */
export const createPostgresAttemptLimiter = (pool: pg.Pool, now: () => Date = () => new Date()): AttemptLimiter => {
  let lastSweep = 0;
  return {
    hit: async (budgets, windowSeconds) => {
      if (budgets.length === 0) return { allowed: true };
      const at = now().getTime();
      const windowMs = windowSeconds * 1000;
      const windowStart = new Date(Math.floor(at / windowMs) * windowMs);
      const keys = budgets.map((b) => createHash('sha256').update(b.key).digest('base64url'));
      const { rows } = await pool.query<{ key: string; count: number }>(
        `insert into public.attempts (key, window_start, count)
           select k, $2, 1 from unnest($1::text[]) as k
         on conflict (key, window_start) do update set count = public.attempts.count + 1
         returning key, count`,
        [keys, windowStart],
      );
      if (at - lastSweep > 60_000) {
        lastSweep = at;
        await pool.query('delete from public.attempts where window_start < $1', [new Date(at - 10 * windowMs)]);
      }
      const spent = budgets.some((budget, i) => (rows.find((r) => r.key === keys[i])?.count ?? 0) > budget.limit);
      if (!spent) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((windowStart.getTime() + windowMs - at) / 1000)) };
    },
  };
};
