import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';

/**
 * What the read models hold about one person beyond their user page (issue 14 item 7, the right of
 * access): consents as they stand, comments they wrote, mail sent to their addresses.
 */
export const personalDataExtras = async (db: DatabasePool, userId: number, emails: readonly string[]) => {
  const consents = await db.any(sql.type(z.object({ type: z.number(), given: z.boolean(), textVersion: z.string(), at: z.string() }))`
    select consent_type as type, given, text_version as "textVersion", to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at from rm.user_consents where user_id = ${userId} order by consent_type`);
  const posts = await db.any(
    sql.type(
      z.object({
        id: z.number(),
        courseId: z.number(),
        courseTitle: z.string().nullable(),
        message: z.string(),
        anonymous: z.boolean(),
        deleted: z.boolean(),
        at: z.string(),
      }),
    )`
      select p.id, p.course_id as "courseId", c.title as "courseTitle", p.message, p.anonymous, p.deleted, to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at
        from rm.posts p left join rm.courses c on c.id = p.course_id where p.author_id = ${userId} order by p.created_at`,
  );
  const mail = await db.any(sql.type(z.object({ kind: z.string(), recipient: z.string(), status: z.string(), at: z.string() }))`
    select kind, recipient, status, to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at from rm.mail_log
     where lower(recipient) = any(${sql.array(
       emails.map((e) => e.toLowerCase()),
       'text',
     )}) order by updated_at`);
  return { consents: [...consents], posts: [...posts], mail: [...mail] };
};
