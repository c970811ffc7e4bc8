import { sql } from 'slonik';
import { interactionsOfEvent } from '../../domain/packages/package-runtime.ts';
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port.ts';
import { defineProjection, type ProjectionContext } from '../../infrastructure/projections/projection.port.ts';

const enrollmentOf = (event: RecordedEvent) => event.streamName.slice('enrollment-'.length).split('_').map(Number) as [number, number];

/**
 * The answers packages report (issue 35 item 3, the interactions of SCORM and cmi5 content): each
 * participant's last answer to each question of a package block, for the per-question view of the
 * statistics. Keyed by participant and question, so applying an event again changes nothing; the
 * answers are the participant's (a personal field of the event), so an erased person's go.
 */
export const packageAnswersProjection = defineProjection({
  name: 'package_answers',
  version: 1,
  tables: ['package_answers'],
  setup: (table) => [
    sql.unsafe`create table ${table('package_answers')} (
      course_id integer not null,
      block_id integer not null,
      item_id text not null,
      user_id integer not null,
      question_id text not null,
      type text,
      description text,
      response text,
      result text,
      answered_at timestamptz not null,
      primary key (course_id, block_id, item_id, user_id, question_id))`,
  ],
  handlers: {
    PackageReported: async ({ tx, table }: ProjectionContext, event) => {
      const answers = interactionsOfEvent((event.data as { interactions?: string | null }).interactions);
      if (!answers || answers.length === 0) return;
      const [courseId, userId] = enrollmentOf(event);
      const { blockId, itemId } = event.data as { blockId: number; itemId: string };
      const rows = answers.map((a) => ({ question_id: a.id, type: a.type, description: a.description, response: a.response, result: a.result }));
      await tx.query(sql.unsafe`
        insert into ${table('package_answers')} (course_id, block_id, item_id, user_id, question_id, type, description, response, result, answered_at)
        select ${courseId}, ${blockId}, ${itemId}, ${userId}, x.question_id, x.type, x.description, x.response, x.result, ${event.createdAt.toISOString()}::timestamptz
          from jsonb_to_recordset(${sql.jsonb(rows)}) as x(question_id text, type text, description text, response text, result text)
        on conflict (course_id, block_id, item_id, user_id, question_id) do update
          set type = excluded.type, description = excluded.description, response = excluded.response, result = excluded.result,
              answered_at = excluded.answered_at
          where package_answers.answered_at <= excluded.answered_at`);
    },
    UserErased: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`delete from ${table('package_answers')} where user_id = ${Number(event.streamName.slice('user-'.length))}`);
    },
  },
});
