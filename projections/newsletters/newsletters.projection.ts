import { sql } from 'slonik';
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port.ts';
import { defineProjection, type ProjectionContext } from '../../infrastructure/projections/projection.port.ts';

type Fields = {
  title: string;
  issue: string | null;
  description: string;
  keywords: string[];
  imageUrl: string | null;
  url: string | null;
  professionIds: number[];
  published: boolean;
};

const idOf = (event: RecordedEvent) => Number(event.streamName.slice('newsletter-'.length));

const write = async ({ tx, table }: ProjectionContext, id: number, f: Fields, event: RecordedEvent) => {
  const at = event.createdAt.toISOString();
  await tx.query(sql.unsafe`
    insert into ${table('newsletters')} (id, title, issue, description, keywords, image_url, url, profession_ids, published, published_at, created_at, updated_at)
    values (${id}, ${f.title}, ${f.issue}, ${f.description}, ${sql.array(f.keywords, 'text')}, ${f.imageUrl}, ${f.url}, ${sql.array(f.professionIds, 'int4')},
            ${f.published}, ${f.published ? at : null}, ${at}, ${at})
    on conflict (id) do update set title = excluded.title, issue = excluded.issue, description = excluded.description, keywords = excluded.keywords,
      image_url = excluded.image_url, url = excluded.url, profession_ids = excluded.profession_ids, published = excluded.published,
      -- Published once, the issue keeps the time it first came out; unpublishing clears it.
      published_at = case when excluded.published then coalesce(${table('newsletters')}.published_at, excluded.published_at) end,
      updated_at = excluded.updated_at`);
};

/** Newsletters as the admin list and the participants' /novicnik read them. */
export const newslettersProjection = defineProjection({
  name: 'newsletters',
  version: 1,
  tables: ['newsletters'],
  setup: (table) => [
    sql.unsafe`create table ${table('newsletters')} (
      id integer primary key, title text not null, issue text, description text not null, keywords text[] not null, image_url text, url text,
      profession_ids integer[] not null, published boolean not null, published_at timestamptz, created_at timestamptz not null, updated_at timestamptz not null)`,
    sql.unsafe`create index on ${table('newsletters')} (published_at desc) where published`,
  ],
  handlers: {
    NewsletterCreated: async (context, event) => {
      const d = (event as unknown as { data: { newsletterId: number; fields: Fields } }).data;
      await write(context, d.newsletterId, d.fields, event);
    },
    NewsletterUpdated: async (context, event) => write(context, idOf(event), (event as unknown as { data: { fields: Fields } }).data.fields, event),
    NewsletterDeleted: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`delete from ${table('newsletters')} where id = ${idOf(event)}`);
    },
  },
});
