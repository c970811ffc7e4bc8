import { randomBytes } from 'node:crypto';
import type pg from 'pg';

/**
 * The secret that wraps the personal data keys and keys the hashed claim-stream names. It is made by
 * the database on its first start and never derived from JWT_SECRET: rotating the token key must not
 * make every person's data unreadable.
 */
export const resolvePersonalDataSecret = async (pool: pg.Pool): Promise<string> => {
  await pool.query("insert into public.app_secrets (name, value) values ('personal-data', $1) on conflict (name) do nothing", [
    randomBytes(48).toString('base64url'),
  ]);
  const result = await pool.query<{ value: string }>("select value from public.app_secrets where name = 'personal-data'");
  return result.rows[0]?.value as string;
};
