import { sql } from 'slonik';
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port.ts';
import { defineProjection } from '../../infrastructure/projections/projection.port.ts';

type Fields = { title: string; description: string; cover: string; courseIds: number[] };

const academyIdOf = (event: RecordedEvent) => Number(event.streamName.slice('academy-'.length));
const at = (event: RecordedEvent) => event.createdAt.toISOString();

/**
 * Academies (powerclass series) as authored. A participant's progress through a series is read
 * from the courses read model's enrollments, so it is never stored twice.
 */
export const academiesProjection = defineProjection({
  name: 'academies',
  version: 1,
  tables: ['academies'],
  setup: (table) => [
    sql.unsafe`create table ${table('academies')} (
      id integer primary key, title text not null, description text not null, cover text not null, course_ids integer[] not null,
      published boolean not null default false, deleted boolean not null default false, created_at timestamptz not null, updated_at timestamptz not null)`,
  ],
  handlers: {
    // Upserts by id: a redelivered event writes the same row again.
    AcademyCreated: async ({ tx, table }, event) => {
      const d = (event as unknown as { data: { academyId: number; fields: Fields } }).data;
      await tx.query(sql.unsafe`
        insert into ${table('academies')} (id, title, description, cover, course_ids, created_at, updated_at)
        values (${d.academyId}, ${d.fields.title}, ${d.fields.description}, ${d.fields.cover}, ${sql.array(d.fields.courseIds, 'int4')}, ${at(event)}, ${at(event)})
        on conflict (id) do nothing`);
    },
    AcademyUpdated: async ({ tx, table }, event) => {
      const f = (event as unknown as { data: { fields: Fields } }).data.fields;
      await tx.query(sql.unsafe`
        update ${table('academies')} set title = ${f.title}, description = ${f.description}, cover = ${f.cover},
          course_ids = ${sql.array(f.courseIds, 'int4')}, updated_at = ${at(event)} where id = ${academyIdOf(event)}`);
    },
    AcademyPublished: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`update ${table('academies')} set published = true, updated_at = ${at(event)} where id = ${academyIdOf(event)}`);
    },
    AcademyUnpublished: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`update ${table('academies')} set published = false, updated_at = ${at(event)} where id = ${academyIdOf(event)}`);
    },
    AcademyDeleted: async ({ tx, table }, event) => {
      await tx.query(
        sql.unsafe`update ${table('academies')} set deleted = true, published = false, updated_at = ${at(event)} where id = ${academyIdOf(event)}`,
      );
    },
  },
});
