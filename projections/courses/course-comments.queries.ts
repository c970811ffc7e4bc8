import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';

export const reportComment = z.object({
  id: z.number(),
  message: z.string(),
  createdAt: z.string(),
  /** A reply to another participant's post rather than a post of its own. */
  reply: z.boolean(),
  /** A question the course team marked answered. */
  answered: z.boolean(),
});
export type ReportComment = z.infer<typeof reportComment>;

/**
 * The last comments participants wrote on a course up to an instant (a course report, issue 17
 * item 3; spec §9: at most the last 20), newest first. Only what participants see stays in: no
 * deleted or hidden post, no reply under a hidden one, no reply of the course team. No author is
 * named: a report leaves the platform. `authors` narrows to participants of some units or
 * companies (a community reader's reach); null is everyone.
 */
export const lastComments = (
  db: DatabasePool,
  courseId: number,
  window: { readonly from: Date; readonly to: Date },
  authors: { readonly unitIds: readonly number[]; readonly companyIds: readonly number[] } | null,
  limit: number,
) =>
  db.any(sql.type(reportComment)`
    select p.id, p.message, to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt",
           p.parent_id is not null as reply, p.answered
      from rm.posts p left join rm.posts parent on parent.id = p.parent_id
     where p.course_id = ${courseId} and not p.deleted and not p.hidden and not p.team and not coalesce(parent.hidden, false)
       and p.created_at >= ${window.from.toISOString()}::timestamptz and p.created_at <= ${window.to.toISOString()}::timestamptz
       and ${
         authors === null
           ? sql.fragment`true`
           : sql.fragment`p.author_id in (select r.user_id from rm.user_roles r left join rm.units un on un.id = r.unit_id
               where r.unit_id = any(${sql.array([...authors.unitIds], 'int4')}) or coalesce(r.company_id, un.company_id) = any(${sql.array([...authors.companyIds], 'int4')}))`
       }
     order by p.created_at desc, p.id desc
     limit ${limit}`);
