import { sql } from 'slonik';
import { defineProjection } from '../../infrastructure/projections/projection.port.ts';

type Requested = { notificationId: string; kind: string; subject: string; requestedAt: string };

/**
 * The notifications asked for on each course (issue 16), for the notifications tab's history; what
 * became of each message is in the mail log (`rm.mail_log.triggered_by` = the notification's id).
 */
export const courseNotificationsProjection = defineProjection({
  name: 'course_notifications',
  version: 1,
  tables: ['course_notifications'],
  setup: (table) => [
    sql.unsafe`create table ${table('course_notifications')} (
      id uuid primary key, course_id integer not null, kind text not null, subject text not null, requested_at timestamptz not null, requested_by integer)`,
    sql.unsafe`create index on ${table('course_notifications')} (course_id, requested_at desc)`,
  ],
  handlers: {
    CourseNotificationRequested: async ({ tx, table }, event) => {
      const d = event.data as Requested;
      await tx.query(sql.unsafe`
        insert into ${table('course_notifications')} (id, course_id, kind, subject, requested_at, requested_by)
        values (${d.notificationId}, ${Number(event.streamName.slice('course-'.length))}, ${d.kind}, ${d.subject}, ${d.requestedAt},
          ${(event.metadata as { actorId?: number | null }).actorId ?? null})
        on conflict (id) do nothing`);
    },
  },
});
