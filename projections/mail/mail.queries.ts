import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { likePattern } from '../../infrastructure/postgres/search.port.ts';

/** The read side the mail routes need (a slonik pool, named here so application code names no driver). */
export type MailReadDb = DatabasePool;

export const mailLogItem = z.object({
  id: z.string(),
  kind: z.string(),
  recipient: z.string(),
  status: z.enum(['sent', 'failed', 'skipped']),
  attempts: z.number(),
  lastError: z.string().nullable(),
  updatedAt: z.string(),
});

/** The newest deliveries first, searched by recipient. */
export const listMailLog = async (db: DatabasePool, search: string | undefined, limit: number) => {
  const pattern = search?.trim() ? likePattern(search) : null;
  return db.any(sql.type(mailLogItem)`
    select id, kind, recipient, status, attempts, last_error as "lastError",
           to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "updatedAt"
      from rm.mail_log where ${pattern === null ? sql.fragment`true` : sql.fragment`recipient ilike ${pattern}`}
     order by updated_at desc limit ${limit}`);
};
