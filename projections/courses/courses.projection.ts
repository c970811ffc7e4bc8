import { sql } from 'slonik';
import { defineProjection, type Projection } from '../../infrastructure/projections/projection.port.ts';
import { courseAuthoringHandlers } from './course-authoring.handlers.ts';
import { applyEnrollments, ENROLLMENT_EVENTS } from './enrollment-steps.handlers.ts';

const perCourseEvent = defineProjection({
  name: 'courses',
  // 2: courses remember the position of their last applied event (redelivery guard) and carry their audience as arrays.
  // 3: an index on that position: its maximum is the version of the participants' course catalogue (user-courses.queries.ts).
  // 4: content versions (decision 0021): each course's block lists per version, and the version each enrollment takes.
  // 5: attachments. 6: the community that owns a client's course. 7: live webinar presence per enrollment.
  // 8: a certificate's short number and its issuer (issue 18 item 3, decision 0032).
  // 9: what follows a quiz's last failed attempt, and its sets of attempts (issue 33, decision 0053).
  version: 9,
  tables: ['courses', 'course_blocks', 'course_block_versions', 'course_audience', 'enrollments', 'course_records'],
  setup: (table) => [
    sql.unsafe`create table ${table('courses')} (
      id integer primary key, type smallint not null, title text not null, description text not null, cover text not null,
      credit_points numeric(3,1) not null, public boolean not null, intervals jsonb not null, prerequisites integer[] not null,
      certificate_enabled boolean not null, posts_enabled boolean not null, fields jsonb not null,
      published boolean not null default false, status text not null default 'draft', blocks_count integer not null default 0,
      content_version integer not null default 0, attachments jsonb not null default '[]', owner_company_id integer, owner_unit_id integer,
      created_at timestamptz not null, updated_at timestamptz not null, applied_commit bigint not null, applied_prepare bigint not null,
      audience_units integer[] not null default '{}', audience_companies integer[] not null default '{}',
      audience_groups integer[] not null default '{}', audience_professions integer[] not null default '{}',
      org_audience boolean not null default false, profession_audience boolean not null default false)`,
    sql.unsafe`create index on ${table('courses')} (applied_commit desc, applied_prepare desc)`,
    // The admins' course list, newest change first (migration 0018 adds it to generations made before).
    sql.unsafe`create index on ${table('courses')} (updated_at desc, id desc)`,
    sql.unsafe`create table ${table('course_blocks')} (course_id integer not null, block_id integer not null, position integer not null, kind text not null, name text not null,
      fields jsonb not null, primary key (course_id, block_id))`,
    sql.unsafe`create table ${table('course_block_versions')} (course_id integer not null, version integer not null, blocks jsonb not null,
      primary key (course_id, version))`,
    sql.unsafe`create table ${table('course_audience')} (course_id integer not null, kind text not null, target_id integer not null, primary key (course_id, kind, target_id))`,
    sql.unsafe`create index on ${table('course_audience')} (kind, target_id)`,
    sql.unsafe`create table ${table('enrollments')} (course_id integer not null, user_id integer not null, status text not null, started_at timestamptz not null,
      completed_at timestamptz, credit_points numeric(3,1), certificate_id uuid, certificate_issued_at timestamptz,
      certificate_number text, certificate_issuer jsonb,
      content_version integer, blocks_total integer, presence integer[] not null default '{}', primary key (course_id, user_id))`,
    sql.unsafe`create index on ${table('enrollments')} (user_id, status)`,
    sql.unsafe`create index on ${table('enrollments')} (certificate_number) where certificate_number is not null`,
    sql.unsafe`create table ${table('course_records')} (course_id integer not null, user_id integer not null, block_id integer not null,
      opened boolean not null default false, done boolean not null default false, video_seconds numeric not null default 0,
      quiz_attempts integer not null default 0, quiz_score numeric, quiz_passed boolean, nps_score smallint, updated_at timestamptz not null,
      quiz_round_from integer not null default 0, quiz_next text, quiz_retry_at timestamptz,
      primary key (course_id, user_id, block_id))`,
  ],
  handlers: courseAuthoringHandlers,
});

/**
 * Courses with their blocks and audience, and each participant's enrollment and per-block records:
 * the participant's course list, the course page, GET /block and GET /record read these. A course's
 * own events are applied one by one; the batch's enrollment steps after them, together (the two
 * touch different tables).
 */
export const coursesProjection: Projection = {
  ...perCourseEvent,
  handles: [...perCourseEvent.handles, ...ENROLLMENT_EVENTS],
  apply: async (context, events) => {
    await perCourseEvent.apply(context, events);
    await applyEnrollments(
      context,
      events.filter((e) => ENROLLMENT_EVENTS.has(e.type)),
    );
  },
};
