import { randomBytes } from 'node:crypto';
import type pg from 'pg';

/** The configured secret, or the one this database generated on its first start. */
export const resolveJwtSecret = async (pool: pg.Pool, configured: string | undefined): Promise<string> => {
  if (configured) return configured;
  await pool.query("insert into public.app_secrets (name, value) values ('jwt', $1) on conflict (name) do nothing", [randomBytes(48).toString('base64url')]);
  const result = await pool.query<{ value: string }>("select value from public.app_secrets where name = 'jwt'");
  return result.rows[0]?.value as string;
};
