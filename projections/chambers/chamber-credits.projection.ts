import { sql } from 'slonik';
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port.ts';
import { defineProjection } from '../../infrastructure/projections/projection.port.ts';

type Data<T> = { data: T };
const at = (event: RecordedEvent) => event.createdAt.toISOString();
/** `chambercredit-<courseId>_<userId>` */
const keyOf = (event: RecordedEvent) => {
  const [courseId, userId] = event.streamName.slice('chambercredit-'.length).split('_').map(Number);
  return { courseId: courseId ?? 0, userId: userId ?? 0 };
};

/**
 * Credit points owed to the chambers (decision 0030), one row per person and course, with both
 * times (earned, reported), the attempts and the last refusal: what the course's report tab, the
 * person's page and the chamber export show, and what the sweep sends again. Each handler sets the
 * row from the event alone (the attempt number is in the event), so a batch applied again leaves it.
 */
export const chamberCreditsProjection = defineProjection({
  name: 'chamber_credits',
  // 2: a credit may wait for its chamber (issue 32 item 4): the person's profession names none yet.
  version: 2,
  tables: ['chamber_credits'],
  setup: (table) => [
    sql.unsafe`create table ${table('chamber_credits')} (
      course_id integer not null, user_id integer not null, chamber smallint, points numeric(4, 1) not null,
      course_external_id text, earned_at timestamptz not null, status text not null, held_reason text,
      attempts integer not null default 0, last_error text, last_attempt_at timestamptz,
      receipt text, reported_at timestamptz, updated_at timestamptz not null,
      primary key (course_id, user_id))`,
    sql.unsafe`create index on ${table('chamber_credits')} (user_id)`,
    sql.unsafe`create index on ${table('chamber_credits')} (chamber, earned_at)`,
    sql.unsafe`create index on ${table('chamber_credits')} (updated_at) where status <> 'reported'`,
  ],
  handlers: {
    ChamberCreditEarned: async ({ tx, table }, event) => {
      const d = (event as unknown as Data<{ chamber: number | null; points: number; earnedAt: string; courseExternalId: string | null }>).data;
      const { courseId, userId } = keyOf(event);
      await tx.query(sql.unsafe`
        insert into ${table('chamber_credits')} (course_id, user_id, chamber, points, course_external_id, earned_at, status, updated_at)
        values (${courseId}, ${userId}, ${d.chamber}, ${d.points}, ${d.courseExternalId}, ${d.earnedAt}, 'pending', ${at(event)})
        on conflict (course_id, user_id) do nothing`);
    },
    ChamberCreditHeld: async ({ tx, table }, event) => {
      const d = (event as unknown as Data<{ reason: string }>).data;
      const { courseId, userId } = keyOf(event);
      await tx.query(sql.unsafe`
        update ${table('chamber_credits')} set status = 'held', held_reason = ${d.reason}, updated_at = ${at(event)}
         where course_id = ${courseId} and user_id = ${userId} and status <> 'reported'`);
    },
    ChamberCreditRouted: async ({ tx, table }, event) => {
      const d = (event as unknown as Data<{ chamber: number }>).data;
      const { courseId, userId } = keyOf(event);
      await tx.query(sql.unsafe`
        update ${table('chamber_credits')} set chamber = ${d.chamber}, status = 'pending', held_reason = null, updated_at = ${at(event)}
         where course_id = ${courseId} and user_id = ${userId} and status <> 'reported'`);
    },
    ChamberCreditReportFailed: async ({ tx, table }, event) => {
      const d = (event as unknown as Data<{ attempt: number; reason: string }>).data;
      const { courseId, userId } = keyOf(event);
      await tx.query(sql.unsafe`
        update ${table('chamber_credits')}
           set status = 'pending', held_reason = null, attempts = ${d.attempt}, last_error = ${d.reason}, last_attempt_at = ${at(event)}, updated_at = ${at(event)}
         where course_id = ${courseId} and user_id = ${userId} and status <> 'reported'`);
    },
    ChamberCreditReported: async ({ tx, table }, event) => {
      const d = (event as unknown as Data<{ attempt: number; receipt: string; reportedAt: string }>).data;
      const { courseId, userId } = keyOf(event);
      await tx.query(sql.unsafe`
        update ${table('chamber_credits')}
           set status = 'reported', held_reason = null, attempts = ${d.attempt}, receipt = ${d.receipt}, reported_at = ${d.reportedAt},
               last_attempt_at = ${at(event)}, updated_at = ${at(event)}
         where course_id = ${courseId} and user_id = ${userId}`);
    },
  },
});
