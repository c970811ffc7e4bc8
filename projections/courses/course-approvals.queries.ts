import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';

export const inboxItem = z.object({
  courseId: z.number(),
  title: z.string(),
  approvalVersion: z.number(),
  step: z.string(),
  stepLabel: z.string(),
  submittedAt: z.string(),
  submittedBy: z.object({ id: z.number(), name: z.string() }).nullable(),
});
export type InboxItem = z.infer<typeof inboxItem>;

/**
 * What waits for a person's signature (decision 0063): the steps not yet signed of pending versions,
 * on courses of scopes whose settings (approval on) name the person on the step. A company's
 * approvers are named in its settings only, so they never see another company's courses. Separation
 * of duties: not a version the person submitted, nor one in which they signed a step already.
 */
export const approvalInbox = async (db: DatabasePool, userId: number): Promise<InboxItem[]> => {
  const rows = await db.any(sql.type(inboxItem.extend({ submittedBy: z.unknown() }))`
    select a.course_id as "courseId", c.title, a.approval_version as "approvalVersion", st.key as step, st.label as "stepLabel",
           to_char(a.submitted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "submittedAt",
           case when u.id is null then null
                else jsonb_build_object('id', u.id, 'name', trim(u.first_name || ' ' || u.last_name)) end as "submittedBy"
      from rm.course_approvals a
      join rm.courses c on c.id = a.course_id and c.status <> 'deleted'
      join rm.approval_settings s on s.scope = coalesce(c.owner_company_id::text, 'platform') and s.enabled
      cross join lateral jsonb_to_recordset(a.steps) as st(key text, label text)
      left join rm.users u on u.id = a.submitted_by
     where a.status = 'pending'
       and a.submitted_by is distinct from ${userId}
       and not exists (select 1 from jsonb_array_elements(a.signatures) sig where sig->>'step' = st.key or sig->>'signerId' = ${String(userId)})
       and exists (select 1 from jsonb_array_elements(s.steps) ss
                    where ss->>'key' = st.key and ss->'approverIds' @> to_jsonb(${userId}::int))
     order by a.submitted_at, a.course_id, st.key`);
  return rows.map((r) => ({ ...r, submittedBy: r.submittedBy as InboxItem['submittedBy'] }));
};

const candidate = z.object({ id: z.number(), name: z.string(), email: z.string(), status: z.string(), roleIds: z.array(z.number()) });

/** People by id with their roles (whether they hold 1071 is the caller's question), names and addresses for mail. */
export const approvalPeople = (db: DatabasePool, ids: readonly number[]) =>
  db.any(sql.type(candidate)`
    select u.id, trim(u.first_name || ' ' || u.last_name) as name, u.email, u.status,
           coalesce((select array_agg(distinct r.role_id order by r.role_id) from rm.user_roles r where r.user_id = u.id), '{}') as "roleIds"
      from rm.users u where u.id = any(${sql.array([...ids], 'int4')}) order by u.id`);

/** A course's title and scope (the company that owns it, or null for the platform's), for mail. */
export const approvalCourse = (db: DatabasePool, courseId: number) =>
  db.maybeOne(sql.type(z.object({ title: z.string(), ownerCompanyId: z.number().nullable() }))`
    select title, owner_company_id as "ownerCompanyId" from rm.courses where id = ${courseId}`);

/** Active people holding one of these roles (those that grant 1071): whom the admin may name as approvers. */
export const approvalCandidates = (db: DatabasePool, roleIds: readonly number[]) =>
  db.any(sql.type(z.object({ id: z.number(), name: z.string() }))`
    select u.id, trim(u.first_name || ' ' || u.last_name) as name
      from rm.users u
     where u.status = 'active' and exists (select 1 from rm.user_roles r where r.user_id = u.id and r.role_id = any(${sql.array([...roleIds], 'int4')}))
     order by u.last_name collate public.slovenian, u.first_name collate public.slovenian, u.id
     limit 1000`);

/**
 * Whether the person reviews the course's content, files included (decision 0063): named on a step of
 * the approval settings of the course's scope while its approval is on, and the course has a version
 * waiting for signatures or one granted. A draft never submitted, or a scope with approval off, is
 * nothing an approver reviews.
 */
export const isNamedApproverOf = async (db: DatabasePool, userId: number, courseId: number) =>
  db.oneFirst(sql.type(z.object({ named: z.boolean() }))`
    select exists (
      select 1 from rm.courses c
        join rm.approval_settings s on s.scope = coalesce(c.owner_company_id::text, 'platform') and s.enabled
        join rm.course_approvals a on a.course_id = c.id and (a.status = 'pending' or a.last_code is not null)
       where c.id = ${courseId} and exists (select 1 from jsonb_array_elements(s.steps) ss where ss->'approverIds' @> to_jsonb(${userId}::int))) as named`);
