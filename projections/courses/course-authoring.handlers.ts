import { sql } from 'slonik';
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port.ts';
import type { defineProjection, ProjectionContext } from '../../infrastructure/projections/projection.port.ts';

// How a course's own events (its authoring: fields, status, attachments, blocks) change the courses
// read model's course rows, blocks, block versions and audience; courses.projection.ts owns the tables.

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

/** The handlers of a course's own events, one at a time in order, each under the redelivery guard but the creation. */
export const courseAuthoringHandlers: Parameters<typeof defineProjection>[0]['handlers'] = {
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
};
