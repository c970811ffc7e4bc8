import { sql } from 'slonik';
import { certificateNumber } from '../../domain/courses/certificate.ts';
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port.ts';
import { defineProjection, type Projection, type ProjectionContext } from '../../infrastructure/projections/projection.port.ts';

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
      certificate_enabled = ${f.certificateEnabled}, posts_enabled = ${f.postsEnabled}, fields = ${sql.jsonb(f as never)}, updated_at = ${at(event)},
      audience_units = ${sql.array(f.audience.unitIds, 'int4')}, audience_companies = ${sql.array(f.audience.companyIds, 'int4')},
      audience_groups = ${sql.array(f.audience.groupIds, 'int4')}, audience_professions = ${sql.array(f.audience.professionIds, 'int4')},
      org_audience = ${f.audience.unitIds.length + f.audience.companyIds.length + f.audience.groupIds.length > 0},
      profession_audience = ${f.audience.professionIds.length > 0}
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

/**
 * A block change is a new content version (decision 0021, as the course decider counts them): the
 * course's version moves on and the blocks as they now are are kept under it, for the enrollments
 * that start on it. Runs once per event (the claim guard), so versions match the decider's.
 */
const snapshot = async ({ tx, table }: ProjectionContext, courseId: number) => {
  await tx.query(sql.unsafe`
    with course as (update ${table('courses')} set content_version = content_version + 1 where id = ${courseId} returning content_version)
    insert into ${table('course_block_versions')} (course_id, version, blocks)
    select ${courseId}, course.content_version,
           coalesce((select jsonb_agg(jsonb_build_object('id', b.block_id, 'position', b.position, 'kind', b.kind, 'name', b.name, 'fields', b.fields)
                                        order by b.position, b.block_id)
                       from ${table('course_blocks')} b where b.course_id = ${courseId}), '[]'::jsonb)
      from course
    on conflict (course_id, version) do nothing`);
};

/**
 * Redelivery guard for a course's own events. Block positions are relative ("add at 1", "move to
 * 2"), so applying a course's events again over a later state can reorder its blocks; each course
 * row keeps the position of the last of its events applied, and older ones are skipped. (Enrollment
 * handlers need no guard: they set absolute values or only move forward, so applying a suffix of the
 * events again ends in the same rows.)
 */
const claim = async ({ tx, table }: ProjectionContext, courseId: number, event: RecordedEvent) => {
  const { commit, prepare } = event.position;
  const claimed = await tx.query(sql.unsafe`
    update ${table('courses')} set applied_commit = ${commit.toString()}::bigint, applied_prepare = ${prepare.toString()}::bigint
     where id = ${courseId} and (applied_commit, applied_prepare) < (${commit.toString()}::bigint, ${prepare.toString()}::bigint)`);
  return claimed.rowCount === 1;
};

/** A handler of a course event, run only when the event is newer than the course row (see claim). */
const courseEvent =
  (handle: (context: ProjectionContext, event: RecordedEvent, courseId: number) => Promise<unknown>) =>
  async (context: ProjectionContext, event: RecordedEvent) => {
    const id = courseIdOf(event);
    if (await claim(context, id, event)) await handle(context, event, id);
  };

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
  handlers: {
    CourseCreated: async (context, event) => {
      const d = (event as Data<{ courseId: number; fields: Fields; owner?: { companyId: number; unitId: number } }>).data;
      const { commit, prepare } = event.position;
      // A course that exists already was created by this very event: a redelivery.
      const created = await context.tx.query(sql.unsafe`
        insert into ${context.table('courses')} (id, type, title, description, cover, credit_points, public, intervals, prerequisites, certificate_enabled, posts_enabled, fields,
          created_at, updated_at, applied_commit, applied_prepare, owner_company_id, owner_unit_id)
        values (${d.courseId}, 0, '', '', '', 0, false, '[]', '{}', false, false, '{}', ${at(event)}, ${at(event)}, ${commit.toString()}::bigint, ${prepare.toString()}::bigint,
          ${d.owner?.companyId ?? null}, ${d.owner?.unitId ?? null})
        on conflict (id) do nothing`);
      if (created.rowCount === 1) await writeFields(context, d.courseId, d.fields, event);
    },
    CourseUpdated: courseEvent((context, event, id) => writeFields(context, id, (event as Data<{ fields: Fields }>).data.fields, event)),
    CoursePublished: courseEvent(({ tx, table }, _, id) =>
      tx.query(
        sql.unsafe`update ${table('courses')} set published = true, status = case when status = 'archived' then status else 'published' end where id = ${id}`,
      ),
    ),
    CourseUnpublished: courseEvent(({ tx, table }, _, id) =>
      tx.query(
        sql.unsafe`update ${table('courses')} set published = false, status = case when status = 'archived' then status else 'draft' end where id = ${id}`,
      ),
    ),
    CourseArchived: courseEvent(({ tx, table }, _, id) => tx.query(sql.unsafe`update ${table('courses')} set status = 'archived' where id = ${id}`)),
    CourseRestored: courseEvent(({ tx, table }, _, id) =>
      tx.query(sql.unsafe`update ${table('courses')} set status = case when published then 'published' else 'draft' end where id = ${id}`),
    ),
    CourseDeleted: courseEvent(({ tx, table }, _, id) => tx.query(sql.unsafe`update ${table('courses')} set status = 'deleted' where id = ${id}`)),
    CourseAttachmentAdded: courseEvent(({ tx, table }, event, id) => {
      const attachment = (event as Data<{ attachment: { fileId: number } }>).data.attachment;
      return tx.query(sql.unsafe`
        update ${table('courses')} set attachments = attachments || ${sql.jsonb([attachment] as never)}
         where id = ${id} and not attachments @> ${sql.jsonb([{ fileId: attachment.fileId }])}`);
    }),
    CourseAttachmentRemoved: courseEvent(({ tx, table }, event, id) => {
      const { fileId } = (event as Data<{ fileId: number }>).data;
      return tx.query(sql.unsafe`
        update ${table('courses')} set attachments = coalesce((select jsonb_agg(a) from jsonb_array_elements(attachments) a where (a->>'fileId')::int <> ${fileId}), '[]')
         where id = ${id}`);
    }),
    CourseBlockAdded: courseEvent(async (context, event, id) => {
      const d = (event as Data<{ blockId: number; position: number; block: { kind: string; name: string } }>).data;
      await context.tx.query(
        sql.unsafe`update ${context.table('course_blocks')} set position = position + 1 where course_id = ${id} and position >= ${d.position}`,
      );
      await context.tx.query(sql.unsafe`
        insert into ${context.table('course_blocks')} (course_id, block_id, position, kind, name, fields) values (${id}, ${d.blockId}, ${d.position}, ${d.block.kind}, ${d.block.name}, ${sql.jsonb(d.block as never)})
        on conflict (course_id, block_id) do update set kind = excluded.kind, name = excluded.name, fields = excluded.fields`);
      await renumber(context, id);
      await snapshot(context, id);
    }),
    CourseBlockUpdated: courseEvent(async (context, event, id) => {
      const d = (event as Data<{ blockId: number; block: { kind: string; name: string } }>).data;
      await context.tx.query(sql.unsafe`
        update ${context.table('course_blocks')} set name = ${d.block.name}, fields = ${sql.jsonb(d.block as never)} where course_id = ${id} and block_id = ${d.blockId}`);
      await snapshot(context, id);
    }),
    CourseBlockRemoved: courseEvent(async (context, event, id) => {
      await context.tx.query(
        sql.unsafe`delete from ${context.table('course_blocks')} where course_id = ${id} and block_id = ${(event as Data<{ blockId: number }>).data.blockId}`,
      );
      await renumber(context, id);
      await snapshot(context, id);
    }),
    CourseBlockMoved: courseEvent(async (context, event, id) => {
      const { tx, table } = context;
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
      await snapshot(context, id);
    }),
  },
});

type BlockRecord = {
  course_id: number;
  user_id: number;
  block_id: number;
  opened: boolean;
  done: boolean;
  video_seconds: number;
  /** The last quiz outcome; null when the batch has none for this block. */
  quiz: { attempts: number; score: number; passed: boolean } | null;
  /** The batch's last word on what follows the last failed attempt (decision 0053); null when it has none. */
  lock: { next: 'ended' | 'wait' | null; retryAt: string | null } | null;
  /** Attempts of earlier sets, when the batch renewed them. */
  round_from: number | null;
  nps_score: number | null;
  at: string;
};

type EnrollmentChange = {
  course_id: number;
  user_id: number;
  started_at: string | null;
  content_version: number | null;
  completed_at: string | null;
  credit_points: number | null;
  certificate_id: string | null;
  certificate_issued_at: string | null;
  certificate_number: string | null;
  certificate_issuer: unknown;
};

const ENROLLMENT_EVENTS = new Set([
  'CourseStarted',
  'BlockOpened',
  'VideoProgressed',
  'VideoCompleted',
  'AlternativeRead',
  'QuizPassed',
  'QuizFailed',
  'QuizAttemptsExhausted',
  'QuizAttemptsRenewed',
  'NpsAnswered',
  'CourseCompleted',
  'CertificateIssued',
  'LivePresenceConfirmed',
]);

/**
 * A participant's steps are nearly all of this projection's events (a video reports its progress
 * every few seconds), so a batch's steps are folded in memory, one row per enrollment and per
 * block record, and written with three statements instead of two per event: catch-up went from
 * about 2,000 to about 20,000 events/s (docs/benchmarks.md, courses). Each field only moves
 * forward (opened, done, longest video position) or takes the batch's last value (quiz outcome,
 * NPS, completion), so applying a suffix of the events again leaves the same rows.
 */
const applyEnrollments = async ({ tx, table }: ProjectionContext, events: readonly RecordedEvent[]) => {
  const enrollments = new Map<string, EnrollmentChange>();
  const records = new Map<string, BlockRecord>();
  const presence: { course_id: number; user_id: number; check: number }[] = [];
  for (const event of events) {
    const [courseId, userId] = enrollmentOf(event);
    if (event.type === 'LivePresenceConfirmed') {
      presence.push({ course_id: courseId, user_id: userId, check: (event.data as { checkIndex: number }).checkIndex });
      continue;
    }
    const d = event.data as {
      blockId: number;
      done?: boolean;
      seconds?: number;
      attempt?: number;
      score?: number;
      creditPoints?: number;
      certificateId?: string;
      issuer?: unknown;
      next?: 'ended' | 'wait';
      retryAt?: string;
      afterAttempt?: number;
    };
    if (event.type === 'CourseStarted' || event.type === 'CourseCompleted' || event.type === 'CertificateIssued') {
      const key = `${courseId}_${userId}`;
      const e = enrollments.get(key) ?? {
        course_id: courseId,
        user_id: userId,
        started_at: null,
        content_version: null,
        completed_at: null,
        credit_points: null,
        certificate_id: null,
        certificate_issued_at: null,
        certificate_number: null,
        certificate_issuer: null,
      };
      enrollments.set(key, e);
      if (event.type === 'CourseStarted') {
        e.started_at ??= at(event);
        e.content_version ??= (event.data as { contentVersion?: number }).contentVersion ?? null;
      } else if (event.type === 'CourseCompleted') Object.assign(e, { completed_at: at(event), credit_points: d.creditPoints });
      else
        Object.assign(e, {
          certificate_id: d.certificateId,
          certificate_issued_at: at(event),
          certificate_number: certificateNumber(d.certificateId as string, event.createdAt),
          certificate_issuer: d.issuer ?? null,
        });
      continue;
    }
    const key = `${courseId}_${userId}_${d.blockId}`;
    const r = records.get(key) ?? {
      course_id: courseId,
      user_id: userId,
      block_id: d.blockId,
      opened: true,
      done: false,
      video_seconds: 0,
      quiz: null,
      lock: null,
      round_from: null,
      nps_score: null,
      at: at(event),
    };
    records.set(key, r);
    r.at = at(event);
    if (event.type === 'BlockOpened') r.done ||= d.done === true;
    else if (event.type === 'VideoProgressed') r.video_seconds = Math.max(r.video_seconds, d.seconds ?? 0);
    else if (event.type === 'VideoCompleted' || event.type === 'AlternativeRead') r.done = true;
    else if (event.type === 'QuizPassed' || event.type === 'QuizFailed') {
      r.quiz = { attempts: d.attempt ?? 0, score: d.score ?? 0, passed: event.type === 'QuizPassed' };
      r.done ||= r.quiz.passed;
    } else if (event.type === 'QuizAttemptsExhausted') r.lock = { next: d.next ?? 'ended', retryAt: d.next === 'wait' ? (d.retryAt ?? null) : null };
    else if (event.type === 'QuizAttemptsRenewed') {
      r.lock = { next: null, retryAt: null };
      r.round_from = d.afterAttempt ?? 0;
    } else if (event.type === 'NpsAnswered') {
      r.nps_score = d.score ?? null;
      r.done = true;
    }
  }
  const started = [...enrollments.values()].filter((e) => e.started_at !== null);
  if (started.length > 0) {
    await tx.query(sql.unsafe`
      insert into ${table('enrollments')} (course_id, user_id, status, started_at, content_version, blocks_total)
      select x.course_id, x.user_id, 'started', x.started_at, x.content_version, jsonb_array_length(v.blocks)
        from jsonb_to_recordset(${sql.jsonb(started)}) as x(course_id int, user_id int, started_at timestamptz, content_version int)
        left join ${table('course_block_versions')} v on v.course_id = x.course_id and v.version = x.content_version
      on conflict do nothing`);
  }
  if (presence.length > 0) {
    // A set of confirmed checks: applying the same confirmation again changes nothing.
    await tx.query(sql.unsafe`
      update ${table('enrollments')} e set presence = array(select distinct unnest(e.presence || x.checks) order by 1)
        from (select course_id, user_id, array_agg(distinct "check") as checks
                from jsonb_to_recordset(${sql.jsonb(presence)}) as p(course_id int, user_id int, "check" int) group by course_id, user_id) x
       where e.course_id = x.course_id and e.user_id = x.user_id`);
  }
  const finished = [...enrollments.values()].filter((e) => e.completed_at !== null || e.certificate_id !== null);
  if (finished.length > 0) {
    await tx.query(sql.unsafe`
      update ${table('enrollments')} e
         set status = case when x.completed_at is null then e.status else 'completed' end,
             completed_at = coalesce(x.completed_at, e.completed_at),
             credit_points = case when x.completed_at is null then e.credit_points else x.credit_points end,
             certificate_id = coalesce(x.certificate_id, e.certificate_id),
             certificate_issued_at = coalesce(x.certificate_issued_at, e.certificate_issued_at),
             certificate_number = coalesce(x.certificate_number, e.certificate_number),
             certificate_issuer = case when x.certificate_id is null then e.certificate_issuer else x.certificate_issuer end
        from jsonb_to_recordset(${sql.jsonb(finished)})
             as x(course_id int, user_id int, completed_at timestamptz, credit_points numeric, certificate_id uuid, certificate_issued_at timestamptz,
                  certificate_number text, certificate_issuer jsonb)
       where e.course_id = x.course_id and e.user_id = x.user_id`);
  }
  if (records.size > 0) {
    const rows = [...records.values()].map(({ quiz, lock, ...r }) => ({
      ...r,
      quiz_attempts: quiz?.attempts ?? 0,
      quiz_score: quiz?.score ?? null,
      quiz_passed: quiz?.passed ?? null,
      lock_set: lock !== null,
      quiz_next: lock?.next ?? null,
      quiz_retry_at: lock?.retryAt ?? null,
    }));
    // A quiz outcome always sets quiz_passed, so a null there means "no quiz step in this batch".
    await tx.query(sql.unsafe`
      insert into ${table('course_records')} as r (course_id, user_id, block_id, opened, done, video_seconds, quiz_attempts, quiz_score, quiz_passed, nps_score, updated_at)
      select x.course_id, x.user_id, x.block_id, x.opened, x.done, x.video_seconds, x.quiz_attempts, x.quiz_score, x.quiz_passed, x.nps_score, x.at
        from jsonb_to_recordset(${sql.jsonb(rows)}) as x(course_id int, user_id int, block_id int, opened boolean, done boolean, video_seconds numeric,
        quiz_attempts int, quiz_score numeric, quiz_passed boolean, nps_score smallint, at timestamptz)
      on conflict (course_id, user_id, block_id) do update
         set opened = true,
             done = r.done or excluded.done,
             video_seconds = greatest(r.video_seconds, excluded.video_seconds),
             quiz_attempts = case when excluded.quiz_passed is null then r.quiz_attempts else excluded.quiz_attempts end,
             quiz_score = case when excluded.quiz_passed is null then r.quiz_score else excluded.quiz_score end,
             quiz_passed = coalesce(excluded.quiz_passed, r.quiz_passed),
             nps_score = coalesce(excluded.nps_score, r.nps_score),
             updated_at = greatest(r.updated_at, excluded.updated_at)`);
    // What follows a set's last failed attempt takes the batch's last word (rare: one statement more only then).
    const locks = rows.filter((r) => r.lock_set);
    if (locks.length > 0) {
      await tx.query(sql.unsafe`
        update ${table('course_records')} r
           set quiz_next = x.quiz_next, quiz_retry_at = x.quiz_retry_at, quiz_round_from = coalesce(x.round_from, r.quiz_round_from)
          from jsonb_to_recordset(${sql.jsonb(locks)}) as x(course_id int, user_id int, block_id int, round_from int, quiz_next text, quiz_retry_at timestamptz)
         where r.course_id = x.course_id and r.user_id = x.user_id and r.block_id = x.block_id`);
    }
  }
};

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
