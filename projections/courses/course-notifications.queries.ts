import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';

export const courseNotificationItem = z.object({
  id: z.string(),
  kind: z.enum(['manual', 'reminder', 'new-course']),
  subject: z.string(),
  requestedAt: z.string(),
  requestedBy: z.string().nullable(),
  sent: z.number(),
  failed: z.number(),
  skipped: z.number(),
  /** Why people were skipped, with how many: "no-consent", "recently-notified", ... */
  skippedFor: z.record(z.string(), z.number()),
  /** The same by push (issue 16 item 4): people whose browsers were reached, failed, skipped and why ("push-off", "no-device", ...). */
  push: z.object({ sent: z.number(), failed: z.number(), skipped: z.number(), skippedFor: z.record(z.string(), z.number()) }),
});

/** A course's notifications, newest first, each with what became of its messages (sent, failed, skipped and why). */
export const listCourseNotifications = async (db: DatabasePool, courseId: number) => {
  const rows = await db.any(sql.type(courseNotificationItem)`
    select n.id::text, n.kind, n.subject, to_char(n.requested_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "requestedAt",
           nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as "requestedBy",
           count(m.id) filter (where m.status = 'sent')::int as sent,
           count(m.id) filter (where m.status = 'failed')::int as failed,
           count(m.id) filter (where m.status = 'skipped')::int as skipped,
           (select coalesce(jsonb_object_agg(r.reason, r.n), '{}'::jsonb)
              from (select coalesce(s.last_error, 'other') as reason, count(*)::int as n from rm.mail_log s
                     where s.triggered_by = n.id::text and s.status = 'skipped' group by 1) r) as "skippedFor",
           (select jsonb_build_object(
                     'sent', count(*) filter (where p.status = 'sent'), 'failed', count(*) filter (where p.status = 'failed'),
                     'skipped', count(*) filter (where p.status = 'skipped'),
                     'skippedFor', (select coalesce(jsonb_object_agg(r.reason, r.n), '{}'::jsonb)
                                      from (select coalesce(s.last_error, 'other') as reason, count(*)::int as n from rm.push_log s
                                             where s.triggered_by = n.id::text and s.status = 'skipped' group by 1) r))
              from rm.push_log p where p.triggered_by = n.id::text) as push
      from rm.course_notifications n
      left join rm.users u on u.id = n.requested_by
      left join rm.mail_log m on m.triggered_by = n.id::text
     where n.course_id = ${courseId}
     group by n.id, n.kind, n.subject, n.requested_at, u.first_name, u.last_name
     order by n.requested_at desc
     limit 100`);
  return rows;
};

const recipientRow = z.object({ email: z.string(), firstName: z.string(), status: z.string(), courseTitle: z.string() });

/** Who one mail of a course notification goes to: the person's address, first name and status, and the course's title. */
export const notificationRecipient = (db: DatabasePool, userId: number, courseId: number) =>
  db.maybeOne(sql.type(recipientRow)`
    select u.email, u.first_name as "firstName", u.status, c.title as "courseTitle"
      from rm.users u, rm.courses c where u.id = ${userId} and c.id = ${courseId}`);

/** Whether the person was sent a new-course notice since `since` (spec §9: at most one in 5 days). */
export const newCourseNoticeSince = async (db: DatabasePool, userId: number, since: Date) =>
  (await db.maybeOneFirst(sql.type(z.object({ id: z.string() }))`
    select id from rm.mail_log where user_id = ${userId} and kind = 'course-new-course' and status = 'sent' and updated_at > ${since.toISOString()} limit 1`)) !==
  null;

/**
 * Whether the person was sent (by mail or push) the course's announcement or a manual notification
 * asked for within the reminder's own interval before it (every 1 to 4 weeks; issue 33 item 8: a new
 * course sent its announcement and its first reminder to the same people 38 s apart). Reminders do
 * not hold each other back: a schedule may name several days a week. Both times are the
 * notifications' own (`requested_at`), so the rule reads the same whenever the mail job runs.
 */
export const notifiedWithinReminder = async (db: DatabasePool, who: { userId: number; courseId: number; notificationId: string; requestedAt: string }) =>
  db.oneFirst(sql.type(z.object({ notified: z.boolean() }))`
    select exists (
      select 1 from rm.course_notifications n join rm.courses c on c.id = n.course_id
       where n.course_id = ${who.courseId} and n.id <> ${who.notificationId}::uuid and n.kind <> 'reminder'
         and n.requested_at <= ${who.requestedAt}::timestamptz
         and n.requested_at > ${who.requestedAt}::timestamptz - make_interval(weeks => coalesce((c.fields->'reminder'->>'everyWeeks')::int, 1))
         and (exists (select 1 from rm.mail_log m where m.triggered_by = n.id::text and m.user_id = ${who.userId} and m.status = 'sent')
              or exists (select 1 from rm.push_log p where p.triggered_by = n.id::text and p.user_id = ${who.userId} and p.status = 'sent'))) as notified`);

/** The courses that may send automatic notifications now: published, not archived or deleted, notifications on. */
export const coursesWithNotifications = (db: DatabasePool) =>
  db.anyFirst(sql.type(z.object({ id: z.number() }))`
    select id from rm.courses where published and status not in ('deleted', 'archived') and coalesce((fields->>'notificationsEnabled')::boolean, false) order by id`);
