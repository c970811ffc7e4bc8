import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { SecretSealer } from '../auth/secret-sealer.port.ts';
import type { PersonalKeys } from './personal-keys.port.ts';

/**
 * How long a process trusts a key it has read. An erasure in another process evicts it at once
 * through NOTIFY (below); this bound only matters if that notification is lost (decision 0019, 0035).
 */
const CACHE_MS = 60_000;

/** The channel an erasure is announced on; the payload is the user id. */
export const PERSONAL_KEY_ERASED_CHANNEL = 'personal_key_erased';

/** Notifications of erasures in any process: a user id, or `null` after a (re)connect (some may be lost). */
export type KeyErasures = { subscribe(listener: (userId: string | null) => void): () => void };

type Cached = { readonly key: Buffer | null; readonly at: number };

/** Keys in `public.personal_keys`, sealed with the platform key, with a short in-process cache. */
export const createPostgresPersonalKeys = (
  pool: pg.Pool,
  sealer: SecretSealer,
  now: () => number = Date.now,
  options: { erasures?: KeyErasures } = {},
): PersonalKeys => {
  const cache = new Map<number, Cached>();
  // Counts the erasures heard of: a key read under way when one came is not cached (it may be the
  // key just destroyed, and would be trusted for another minute).
  let erasuresHeard = 0;
  // Another process erased someone: forget their key here too; after a reconnect forget every key.
  options.erasures?.subscribe((userId) => {
    erasuresHeard++;
    if (userId === null) cache.clear();
    else cache.delete(Number(userId));
  });
  const unwrap = (wrapped: string | null): Buffer | null => {
    if (wrapped === null) return null;
    const opened = sealer.unseal(wrapped);
    if (opened === null) throw new Error('A personal data key cannot be opened: the platform secret changed');
    return Buffer.from(opened, 'base64');
  };
  const fresh = (userId: number) => {
    const hit = cache.get(userId);
    return hit && now() - hit.at < CACHE_MS ? hit : null;
  };
  const remember = (userId: number, key: Buffer | null, heardBefore: number) => {
    if (heardBefore !== erasuresHeard) return key;
    if (cache.size > 50_000) cache.clear();
    cache.set(userId, { key, at: now() });
    return key;
  };

  return {
    async keyFor(userId) {
      const hit = fresh(userId);
      if (hit) return hit.key;
      const heard = erasuresHeard;
      // Usually one round trip: the key this insert made, or the row that was there. When another writer
      // made the first key at the same moment, this statement waited for it but its snapshot cannot see
      // it: read it once more (no row never means erased; an erased person has a tombstone row).
      let row = await pool.query<{ wrapped: string | null }>(
        `with made as (insert into public.personal_keys (user_id, wrapped) values ($1, $2) on conflict (user_id) do nothing returning wrapped)
         select wrapped from made union all select wrapped from public.personal_keys where user_id = $1`,
        [userId, sealer.seal(randomBytes(32).toString('base64'))],
      );
      if (row.rows.length === 0) row = await pool.query('select wrapped from public.personal_keys where user_id = $1', [userId]);
      const found = row.rows[0];
      if (!found) throw new Error(`No personal data key for user ${userId}`);
      return remember(userId, unwrap(found.wrapped), heard);
    },

    async existingKeys(userIds) {
      const found = new Map<number, Buffer | null>();
      const missing: number[] = [];
      for (const id of new Set(userIds)) {
        const hit = fresh(id);
        if (hit) found.set(id, hit.key);
        else missing.push(id);
      }
      if (missing.length > 0) {
        const heard = erasuresHeard;
        const rows = await pool.query<{ user_id: number; wrapped: string | null }>(
          'select user_id, wrapped from public.personal_keys where user_id = any($1::int[])',
          [missing],
        );
        for (const row of rows.rows) found.set(row.user_id, remember(row.user_id, unwrap(row.wrapped), heard));
      }
      return found;
    },

    async erase(userId) {
      // The notification is sent when the erasure commits, to every process (this one included).
      await pool.query(
        `with erased as (
           insert into public.personal_keys (user_id, wrapped, erased_at) values ($1, null, now())
           on conflict (user_id) do update set wrapped = null, erased_at = coalesce(public.personal_keys.erased_at, now())
           returning user_id)
         select pg_notify('${PERSONAL_KEY_ERASED_CHANNEL}', user_id::text) from erased`,
        [userId],
      );
      cache.set(userId, { key: null, at: now() });
    },
  };
};
