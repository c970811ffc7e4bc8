import type pg from 'pg';
import webpush from 'web-push';

/** The platform's VAPID key pair (RFC 8292), base64url: the public key is what browsers subscribe with. */
export type VapidKeys = { readonly publicKey: string; readonly privateKey: string };

/**
 * The configured key pair, or the one this database generated on its first start (kept with the
 * platform's other secrets in `app_secrets`, like the JWT secret). Two processes starting at once
 * keep the one that was stored first. The keys must outlive restarts: every browser's subscription
 * is bound to the public key it was made with.
 */
export const resolveVapidKeys = async (pool: pg.Pool, configured: VapidKeys | undefined): Promise<VapidKeys> => {
  if (configured) return configured;
  const made = webpush.generateVAPIDKeys();
  await pool.query("insert into public.app_secrets (name, value) values ('vapid', $1) on conflict (name) do nothing", [
    JSON.stringify({ publicKey: made.publicKey, privateKey: made.privateKey }),
  ]);
  const result = await pool.query<{ value: string }>("select value from public.app_secrets where name = 'vapid'");
  return JSON.parse(result.rows[0]?.value as string) as VapidKeys;
};
