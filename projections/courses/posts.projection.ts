import { sql } from 'slonik';
import { ERASED_PERSON } from '../../domain/shared/event.ts';
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port.ts';
import { defineProjection } from '../../infrastructure/projections/projection.port.ts';

const postIdOf = (event: RecordedEvent) => Number(event.streamName.slice('post-'.length));
const at = (event: RecordedEvent) => event.createdAt.toISOString();

type Created = { postId: number; courseId: number; parentId: number | null; authorId: number; message: string; anonymous: boolean; team?: true };

/**
 * Comments and questions on courses with their replies; GET /post reads this. Every write is by key
 * and sets absolute values (hidden, answered), so applying a suffix of the events again ends in the
 * same rows.
 */
export const postsProjection = defineProjection({
  name: 'posts',
  // 2: erasure (decision 0019). 3: moderation (issue 15): team replies, hidden and answered posts.
  version: 3,
  tables: ['posts'],
  setup: (table) => [
    sql.unsafe`create table ${table('posts')} (
      id integer primary key, course_id integer not null, parent_id integer, author_id integer not null, message text not null,
      anonymous boolean not null, edited boolean not null default false, deleted boolean not null default false,
      team boolean not null default false, hidden boolean not null default false, answered boolean not null default false,
      created_at timestamptz not null, updated_at timestamptz not null)`,
    sql.unsafe`create index on ${table('posts')} (course_id, parent_id, created_at)`,
  ],
  handlers: {
    PostCreated: async ({ tx, table }, event) => {
      const d = (event as unknown as { data: Created }).data;
      await tx.query(sql.unsafe`
        insert into ${table('posts')} (id, course_id, parent_id, author_id, message, anonymous, team, created_at, updated_at)
        values (${d.postId}, ${d.courseId}, ${d.parentId}, ${d.authorId}, ${d.message}, ${d.anonymous}, ${d.team === true}, ${at(event)}, ${at(event)})
        on conflict (id) do nothing`);
    },
    PostEdited: async ({ tx, table }, event) => {
      const message = (event as unknown as { data: { message: string } }).data.message;
      await tx.query(sql.unsafe`update ${table('posts')} set message = ${message}, edited = true, updated_at = ${at(event)} where id = ${postIdOf(event)}`);
    },
    PostDeleted: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`update ${table('posts')} set deleted = true, updated_at = ${at(event)} where id = ${postIdOf(event)}`);
    },
    // Moderation changes what participants see, not what the post says: updated_at stays the author's.
    PostHidden: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`update ${table('posts')} set hidden = true where id = ${postIdOf(event)}`);
    },
    PostShown: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`update ${table('posts')} set hidden = false where id = ${postIdOf(event)}`);
    },
    PostMarkedAnswered: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`update ${table('posts')} set answered = true where id = ${postIdOf(event)}`);
    },
    PostMarkedUnanswered: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`update ${table('posts')} set answered = false where id = ${postIdOf(event)}`);
    },
    // Decision 0019: an erased person's words go at once (a rebuild reads the placeholder from the log anyway).
    UserErased: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`update ${table('posts')} set message = ${ERASED_PERSON} where author_id = ${Number(event.streamName.slice('user-'.length))}`);
    },
  },
});
