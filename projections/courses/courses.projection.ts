import { sql } from 'slonik';
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port.ts';
import { defineProjection, type ProjectionContext } from '../../infrastructure/projections/projection.port.ts';

type Data<T> = { data: T };
type Fields = {
  type: number;
  title: string;
  description: string;
  cover: string;
  creditPoints: number;
  public: boolean;
  audience: { byProfession: boolean; professionIds: number[]; unitIds: number[]; companyIds: number[]; groupIds: number[] };
  intervals: { startsAt: string; stopsAt: string }[];
  prerequisites: number[];
  certificateEnabled: boolean;
  postsEnabled: boolean;
};

const courseIdOf = (event: RecordedEvent) => Number(event.streamName.slice('course-'.length));
/** `enrollment-7_12` -> [7, 12] */
const enrollmentOf = (event: RecordedEvent) => event.streamName.slice('enrollment-'.length).split('_').map(Number) as [number, number];
const at = (event: RecordedEvent) => event.createdAt.toISOString();

const writeFields = async ({ tx, table }: ProjectionContext, id: number, f: Fields, event: RecordedEvent) => {
  await tx.query(sql.unsafe`
    update ${table('courses')} set type = ${f.type}, title = ${f.title}, description = ${f.description}, cover = ${f.cover}, credit_points = ${f.creditPoints},
      public = ${f.public}, intervals = ${sql.jsonb(f.intervals)}, prerequisites = ${sql.array(f.prerequisites, 'int4')},
      certificate_enabled = ${f.certificateEnabled}, posts_enabled = ${f.postsEnabled}, fields = ${sql.jsonb(f as never)}, updated_at = ${at(event)}
     where id = ${id}`);
  await tx.query(sql.unsafe`delete from ${table('course_audience')} where course_id = ${id}`);
  const rows: [string, number][] = [
    ...f.audience.professionIds.map((x) => ['profession', x] as [string, number]),
    ...f.audience.unitIds.map((x) => ['unit', x] as [string, number]),
    ...f.audience.companyIds.map((x) => ['company', x] as [string, number]),
    ...f.audience.groupIds.map((x) => ['group', x] as [string, number]),
  ];
  if (rows.length > 0) {
    await tx.query(sql.unsafe`
      insert into ${table('course_audience')} (course_id, kind, target_id)
      select ${id}, k, t from unnest(${sql.array(
        rows.map((r) => r[0]),
        'text',
      )}, ${sql.array(
        rows.map((r) => r[1]),
        'int4',
      )}) as x(k, t)
      on conflict do nothing`);
  }
};

const renumber = async ({ tx, table }: ProjectionContext, courseId: number) => {
  await tx.query(sql.unsafe`
    update ${table('course_blocks')} b set position = n.position - 1
      from (select block_id, row_number() over (order by position, block_id) as position from ${table('course_blocks')} where course_id = ${courseId}) n
     where b.course_id = ${courseId} and b.block_id = n.block_id`);
  await tx.query(
    sql.unsafe`update ${table('courses')} set blocks_count = (select count(*) from ${table('course_blocks')} where course_id = ${courseId}) where id = ${courseId}`,
  );
};

const record = async ({ tx, table }: ProjectionContext, event: RecordedEvent, blockId: number, set: ReturnType<typeof sql.fragment>) => {
  const [courseId, userId] = enrollmentOf(event);
  await tx.query(sql.unsafe`
    insert into ${table('course_records')} (course_id, user_id, block_id, updated_at) values (${courseId}, ${userId}, ${blockId}, ${at(event)})
    on conflict (course_id, user_id, block_id) do nothing`);
  await tx.query(
    sql.unsafe`update ${table('course_records')} set ${set}, updated_at = ${at(event)} where course_id = ${courseId} and user_id = ${userId} and block_id = ${blockId}`,
  );
};

/**
 * Courses with their blocks and audience, and each participant's enrollment and per-block records:
 * the participant's course list, the course page, GET /block and GET /record read these.
 */
export const coursesProjection = defineProjection({
  name: 'courses',
  version: 1,
  tables: ['courses', 'course_blocks', 'course_audience', 'enrollments', 'course_records'],
  setup: (table) => [
    sql.unsafe`create table ${table('courses')} (
      id integer primary key, type smallint not null, title text not null, description text not null, cover text not null,
      credit_points numeric(3,1) not null, public boolean not null, intervals jsonb not null, prerequisites integer[] not null,
      certificate_enabled boolean not null, posts_enabled boolean not null, fields jsonb not null,
      published boolean not null default false, status text not null default 'draft', blocks_count integer not null default 0,
      created_at timestamptz not null, updated_at timestamptz not null)`,
    sql.unsafe`create table ${table('course_blocks')} (course_id integer not null, block_id integer not null, position integer not null, kind text not null, name text not null,
      fields jsonb not null, primary key (course_id, block_id))`,
    sql.unsafe`create table ${table('course_audience')} (course_id integer not null, kind text not null, target_id integer not null, primary key (course_id, kind, target_id))`,
    sql.unsafe`create index on ${table('course_audience')} (kind, target_id)`,
    sql.unsafe`create table ${table('enrollments')} (course_id integer not null, user_id integer not null, status text not null, started_at timestamptz not null,
      completed_at timestamptz, credit_points numeric(3,1), certificate_id uuid, certificate_issued_at timestamptz, primary key (course_id, user_id))`,
    sql.unsafe`create index on ${table('enrollments')} (user_id, status)`,
    sql.unsafe`create table ${table('course_records')} (course_id integer not null, user_id integer not null, block_id integer not null,
      opened boolean not null default false, done boolean not null default false, video_seconds numeric not null default 0,
      quiz_attempts integer not null default 0, quiz_score numeric, quiz_passed boolean, nps_score smallint, updated_at timestamptz not null,
      primary key (course_id, user_id, block_id))`,
  ],
  handlers: {
    CourseCreated: async (context, event) => {
      const d = (event as Data<{ courseId: number; fields: Fields }>).data;
      await context.tx.query(sql.unsafe`
        insert into ${context.table('courses')} (id, type, title, description, cover, credit_points, public, intervals, prerequisites, certificate_enabled, posts_enabled, fields, created_at, updated_at)
        values (${d.courseId}, 0, '', '', '', 0, false, '[]', '{}', false, false, '{}', ${at(event)}, ${at(event)})
        on conflict (id) do nothing`);
      await writeFields(context, d.courseId, d.fields, event);
    },
    CourseUpdated: async (context, event) => writeFields(context, courseIdOf(event), (event as Data<{ fields: Fields }>).data.fields, event),
    CoursePublished: async ({ tx, table }, event) => {
      await tx.query(
        sql.unsafe`update ${table('courses')} set published = true, status = case when status = 'archived' then status else 'published' end where id = ${courseIdOf(event)}`,
      );
    },
    CourseUnpublished: async ({ tx, table }, event) => {
      await tx.query(
        sql.unsafe`update ${table('courses')} set published = false, status = case when status = 'archived' then status else 'draft' end where id = ${courseIdOf(event)}`,
      );
    },
    CourseArchived: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`update ${table('courses')} set status = 'archived' where id = ${courseIdOf(event)}`);
    },
    CourseRestored: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`update ${table('courses')} set status = case when published then 'published' else 'draft' end where id = ${courseIdOf(event)}`);
    },
    CourseDeleted: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`update ${table('courses')} set status = 'deleted' where id = ${courseIdOf(event)}`);
    },
    CourseBlockAdded: async (context, event) => {
      const id = courseIdOf(event);
      const d = (event as Data<{ blockId: number; position: number; block: { kind: string; name: string } }>).data;
      await context.tx.query(
        sql.unsafe`update ${context.table('course_blocks')} set position = position + 1 where course_id = ${id} and position >= ${d.position}`,
      );
      await context.tx.query(sql.unsafe`
        insert into ${context.table('course_blocks')} (course_id, block_id, position, kind, name, fields) values (${id}, ${d.blockId}, ${d.position}, ${d.block.kind}, ${d.block.name}, ${sql.jsonb(d.block as never)})
        on conflict (course_id, block_id) do update set kind = excluded.kind, name = excluded.name, fields = excluded.fields`);
      await renumber(context, id);
    },
    CourseBlockUpdated: async ({ tx, table }, event) => {
      const d = (event as Data<{ blockId: number; block: { kind: string; name: string } }>).data;
      await tx.query(sql.unsafe`
        update ${table('course_blocks')} set name = ${d.block.name}, fields = ${sql.jsonb(d.block as never)} where course_id = ${courseIdOf(event)} and block_id = ${d.blockId}`);
    },
    CourseBlockRemoved: async (context, event) => {
      const id = courseIdOf(event);
      await context.tx.query(
        sql.unsafe`delete from ${context.table('course_blocks')} where course_id = ${id} and block_id = ${(event as Data<{ blockId: number }>).data.blockId}`,
      );
      await renumber(context, id);
    },
    CourseBlockMoved: async ({ tx, table }, event) => {
      const id = courseIdOf(event);
      const d = (event as Data<{ blockId: number; position: number }>).data;
      const order = (await tx.anyFirst(
        sql.unsafe`select block_id from ${table('course_blocks')} where course_id = ${id} order by position, block_id`,
      )) as number[];
      const rest = order.filter((b) => b !== d.blockId);
      rest.splice(Math.min(d.position, rest.length), 0, d.blockId);
      await tx.query(sql.unsafe`
        update ${table('course_blocks')} b set position = n.position - 1
          from unnest(${sql.array(rest, 'int4')}) with ordinality as n(block_id, position)
         where b.course_id = ${id} and b.block_id = n.block_id`);
    },
    CourseStarted: async ({ tx, table }, event) => {
      const [courseId, userId] = enrollmentOf(event);
      await tx.query(sql.unsafe`
        insert into ${table('enrollments')} (course_id, user_id, status, started_at) values (${courseId}, ${userId}, 'started', ${at(event)}) on conflict do nothing`);
    },
    BlockOpened: async (context, event) => {
      const d = (event as Data<{ blockId: number; done: boolean }>).data;
      await record(context, event, d.blockId, d.done ? sql.fragment`opened = true, done = true` : sql.fragment`opened = true`);
    },
    VideoProgressed: async (context, event) => {
      const d = (event as Data<{ blockId: number; seconds: number }>).data;
      await record(context, event, d.blockId, sql.fragment`opened = true, video_seconds = greatest(video_seconds, ${d.seconds})`);
    },
    VideoCompleted: async (context, event) =>
      record(context, event, (event as Data<{ blockId: number }>).data.blockId, sql.fragment`opened = true, done = true`),
    AlternativeRead: async (context, event) =>
      record(context, event, (event as Data<{ blockId: number }>).data.blockId, sql.fragment`opened = true, done = true`),
    QuizPassed: async (context, event) => {
      const d = (event as Data<{ blockId: number; attempt: number; score: number }>).data;
      await record(
        context,
        event,
        d.blockId,
        sql.fragment`opened = true, done = true, quiz_attempts = ${d.attempt}, quiz_score = ${d.score}, quiz_passed = true`,
      );
    },
    QuizFailed: async (context, event) => {
      const d = (event as Data<{ blockId: number; attempt: number; score: number }>).data;
      await record(context, event, d.blockId, sql.fragment`opened = true, quiz_attempts = ${d.attempt}, quiz_score = ${d.score}, quiz_passed = false`);
    },
    NpsAnswered: async (context, event) => {
      const d = (event as Data<{ blockId: number; score: number }>).data;
      await record(context, event, d.blockId, sql.fragment`opened = true, done = true, nps_score = ${d.score}`);
    },
    CourseCompleted: async ({ tx, table }, event) => {
      const [courseId, userId] = enrollmentOf(event);
      await tx.query(sql.unsafe`
        update ${table('enrollments')} set status = 'completed', completed_at = ${at(event)}, credit_points = ${(event as Data<{ creditPoints: number }>).data.creditPoints}
         where course_id = ${courseId} and user_id = ${userId}`);
    },
    CertificateIssued: async ({ tx, table }, event) => {
      const [courseId, userId] = enrollmentOf(event);
      await tx.query(sql.unsafe`
        update ${table('enrollments')} set certificate_id = ${(event as Data<{ certificateId: string }>).data.certificateId}, certificate_issued_at = ${at(event)}
         where course_id = ${courseId} and user_id = ${userId}`);
    },
  },
});
