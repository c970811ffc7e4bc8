import { sql } from 'slonik';
import type { NewsFields } from '../../domain/news/news.rules.ts';
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port.ts';
import { defineProjection, type ProjectionContext } from '../../infrastructure/projections/projection.port.ts';

const idOf = (event: RecordedEvent) => Number(event.streamName.slice('news-'.length));
const ids = (values: readonly number[] | undefined) => sql.array([...(values ?? [])], 'int4');

const write = async ({ tx, table }: ProjectionContext, id: number, f: NewsFields, event: RecordedEvent) => {
  const at = event.createdAt.toISOString();
  const r = f.recipients;
  await tx.query(sql.unsafe`
    insert into ${table('news')} (id, title, html_content, image, action_url, action_button_text, active, date_from, date_to, location,
                                  profession_ids, company_ids, unit_ids, group_ids, created_at, updated_at)
    values (${id}, ${f.title}, ${f.htmlContent}, ${f.image}, ${f.actionUrl}, ${f.actionButtonText}, ${f.active}, ${f.dateFrom}, ${f.dateTo}, ${f.location},
            ${ids(r.professionIds)}, ${ids(r.companyIds)}, ${ids(r.unitIds)}, ${ids(r.groupIds)}, ${at}, ${at})
    on conflict (id) do update set title = excluded.title, html_content = excluded.html_content, image = excluded.image, action_url = excluded.action_url,
      action_button_text = excluded.action_button_text, active = excluded.active, date_from = excluded.date_from, date_to = excluded.date_to,
      location = excluded.location, profession_ids = excluded.profession_ids, company_ids = excluded.company_ids, unit_ids = excluded.unit_ids,
      group_ids = excluded.group_ids, updated_at = excluded.updated_at`);
};

/**
 * News items as the admin list, the editor and the pop-up read them, and every reader's action
 * (spec §4: 1 shown, 2 declined, 3 engaged, 4 deferred) as one row per recorded event, keyed by the
 * event, so applying a batch again counts nothing twice. Reach and engagement are counted from
 * those rows (times and distinct readers per action).
 */
export const newsProjection = defineProjection({
  name: 'news',
  version: 1,
  tables: ['news', 'news_actions'],
  setup: (table) => [
    sql.unsafe`create table ${table('news')} (
      id integer primary key, title text not null, html_content text not null, image text, action_url text, action_button_text text,
      active boolean not null, date_from timestamptz not null, date_to timestamptz not null, location smallint not null,
      profession_ids integer[] not null, company_ids integer[] not null, unit_ids integer[] not null, group_ids integer[] not null,
      created_at timestamptz not null, updated_at timestamptz not null)`,
    // The pop-up's question: what is on now at these locations.
    sql.unsafe`create index on ${table('news')} (location, date_from desc) where active`,
    sql.unsafe`create table ${table('news_actions')} (
      event_id uuid primary key, news_id integer not null, user_id integer not null, action smallint not null, at timestamptz not null)`,
    sql.unsafe`create index on ${table('news_actions')} (news_id, action)`,
    sql.unsafe`create index on ${table('news_actions')} (user_id, news_id)`,
  ],
  handlers: {
    NewsCreated: async (context, event) => {
      const d = (event as unknown as { data: { newsId: number; fields: NewsFields } }).data;
      await write(context, d.newsId, d.fields, event);
    },
    NewsUpdated: async (context, event) => write(context, idOf(event), (event as unknown as { data: { fields: NewsFields } }).data.fields, event),
    NewsDeleted: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`delete from ${table('news')} where id = ${idOf(event)}`);
      await tx.query(sql.unsafe`delete from ${table('news_actions')} where news_id = ${idOf(event)}`);
    },
    NewsActionRecorded: async ({ tx, table }, event) => {
      const d = (event as unknown as { data: { newsId: number; userId: number; action: number } }).data;
      // An action reported for a news item deleted since is no longer counted anywhere.
      await tx.query(sql.unsafe`
        insert into ${table('news_actions')} (event_id, news_id, user_id, action, at)
        select ${event.eventId}, ${d.newsId}, ${d.userId}, ${d.action}, ${event.createdAt.toISOString()}
         where exists (select 1 from ${table('news')} where id = ${d.newsId})
        on conflict (event_id) do nothing`);
    },
  },
});
