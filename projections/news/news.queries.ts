import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { linksOf } from '../../domain/courses/course-links.ts';
import { COURSE_TYPE } from '../../domain/courses/course-types.rules.ts';
import type { NewsFields } from '../../domain/news/news.rules.ts';
import { isNewsFor, type NewsReader } from '../../domain/news/news.ts';
import { likePattern } from '../../infrastructure/postgres/search.port.ts';

export type NewsReadDb = DatabasePool;

const count = z.object({ times: z.number(), users: z.number() });
/** Reach and engagement of one news item: how often each action was recorded, and by how many readers. */
export const newsReach = z.object({ shown: count, declined: count, engaged: count, deferred: count });

const recipients = z.object({
  professionIds: z.array(z.number()),
  companyIds: z.array(z.number()),
  unitIds: z.array(z.number()),
  groupIds: z.array(z.number()),
});

export const newsItem = z.object({
  id: z.number(),
  title: z.string(),
  htmlContent: z.string(),
  image: z.string().nullable(),
  actionUrl: z.string().nullable(),
  actionButtonText: z.string().nullable(),
  active: z.boolean(),
  dateFrom: z.string(),
  dateTo: z.string(),
  location: z.union([z.literal(1), z.literal(2)]),
  recipients,
  updatedAt: z.string(),
});
export const adminNewsItem = newsItem.extend({ reach: newsReach });

/** What the pop-up shows (spec §7 GET /news/user: "a news item with id"). */
export const readerNewsItem = newsItem.pick({
  id: true,
  title: true,
  htmlContent: true,
  image: true,
  actionUrl: true,
  actionButtonText: true,
  location: true,
  dateFrom: true,
  dateTo: true,
});

const iso = (column: string) => sql.fragment`to_char(${sql.identifier([column])} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const columns = sql.fragment`n.id, n.title, n.html_content as "htmlContent", n.image, n.action_url as "actionUrl", n.action_button_text as "actionButtonText",
  n.active, ${iso('date_from')} as "dateFrom", ${iso('date_to')} as "dateTo", n.location::int as location,
  json_build_object('professionIds', n.profession_ids, 'companyIds', n.company_ids, 'unitIds', n.unit_ids, 'groupIds', n.group_ids) as recipients,
  ${iso('updated_at')} as "updatedAt"`;

/** Per action (1 shown, 2 declined, 3 engaged, 4 deferred): times recorded and distinct readers. */
const reach = sql.fragment`(select json_build_object(
    'shown', json_build_object('times', count(*) filter (where a.action = 1), 'users', count(distinct a.user_id) filter (where a.action = 1)),
    'declined', json_build_object('times', count(*) filter (where a.action = 2), 'users', count(distinct a.user_id) filter (where a.action = 2)),
    'engaged', json_build_object('times', count(*) filter (where a.action = 3), 'users', count(distinct a.user_id) filter (where a.action = 3)),
    'deferred', json_build_object('times', count(*) filter (where a.action = 4), 'users', count(distinct a.user_id) filter (where a.action = 4)))
  from rm.news_actions a where a.news_id = n.id) as reach`;

/** The admin list (1065): every news item with its reach, latest start first, searched by title. */
export const listNews = async (db: NewsReadDb, params: { search?: string | undefined; page?: number | undefined; pageSize?: number | undefined }) => {
  const size = Math.min(Math.max(params.pageSize ?? 20, 1), 100);
  const offset = (Math.max(params.page ?? 1, 1) - 1) * size;
  const where = params.search?.trim() ? sql.fragment`n.title ilike ${likePattern(params.search)}` : sql.fragment`true`;
  const items = await db.any(
    sql.type(adminNewsItem)`select ${columns}, ${reach} from rm.news n where ${where} order by n.date_from desc, n.id desc limit ${size} offset ${offset}`,
  );
  const total = await db.oneFirst(sql.type(z.object({ n: z.number() }))`select count(*)::int as n from rm.news n where ${where}`);
  return { items: [...items], total };
};

export const getNews = async (db: NewsReadDb, id: number) =>
  db.maybeOne(sql.type(adminNewsItem)`select ${columns}, ${reach} from rm.news n where n.id = ${id}`);

const readerRow = z.object({
  units: z.array(z.number().nullable()).nullable(),
  companies: z.array(z.number().nullable()).nullable(),
  groups: z.array(z.number().nullable()).nullable(),
  profession: z.number().nullable(),
});

/** The reader's side of targeting: units through any role, their companies, the groups containing them, the profession. */
export const newsReaderOf = async (db: NewsReadDb, userId: number): Promise<NewsReader> => {
  const row = await db.one(sql.type(readerRow)`
    select (select array_agg(r.unit_id) from rm.user_roles r where r.user_id = ${userId}) as units,
           (select array_agg(coalesce(r.company_id, un.company_id)) from rm.user_roles r left join rm.units un on un.id = r.unit_id where r.user_id = ${userId}) as companies,
           (select array_agg(gu.group_id) from rm.community_group_units gu join rm.user_roles g on g.unit_id = gu.unit_id where g.user_id = ${userId}) as groups,
           (select u.profession_id from rm.users u where u.id = ${userId}) as profession`);
  const set = (values: (number | null)[] | null) => new Set((values ?? []).filter((v): v is number => v !== null));
  return { unitIds: set(row.units), companyIds: set(row.companies), groupIds: set(row.groups), professionId: row.profession };
};

/**
 * The news items kept from this reader because they link an RX course (type 1) the reader may not
 * receive (issue 36, decision 0062: Directive 2001/83/EC art. 88, 91): their profession is not among
 * the course's or may not prescribe or supply medicines. Whoever the news item is addressed to. The
 * links are found in the button's address and the text however they are encoded (course-links.ts).
 */
export const rxNewsWithheld = async (db: NewsReadDb, userId: number, items: readonly { id: number; actionUrl: string | null; htmlContent: string }[]) => {
  const links = linksOf(items, (n) => [n.actionUrl, n.htmlContent]);
  if (links.courseIds.length === 0) return new Set<number>();
  const kept = new Set(
    await db.anyFirst(sql.type(z.object({ id: z.number() }))`
      select c.id from rm.courses c
       where c.id = any(${sql.array(links.courseIds, 'int4')}) and c.type = ${COURSE_TYPE.rx}
         and not exists (select 1 from rm.users u join rm.professions p on p.id = u.profession_id
                          where u.id = ${userId} and coalesce((to_jsonb(p) ->> 'may_prescribe')::boolean, false)
                            and p.id = any(c.audience_professions))`),
  );
  return links.linking(kept);
};

/**
 * The one news item a reader should see now (spec §7 GET /news/user): on (active, from its start
 * until its end), at one of the asked locations, for the reader (domain isNewsFor), and not yet
 * declined or engaged with by them; the latest start first (then the newest id). Deferred or only
 * shown items come again. At most a few hundred items are on at once, so the targeting runs here
 * on the candidates rather than as a second copy of the rule in SQL.
 */
export const newsForReader = async (db: NewsReadDb, userId: number, locations: readonly number[], now: Date) => {
  const candidates = await db.any(sql.type(newsItem)`
    select ${columns} from rm.news n
     where n.active and n.date_from <= ${now.toISOString()} and n.date_to > ${now.toISOString()}
       and n.location = any(${sql.array([...locations], 'int4')})
       and not exists (select 1 from rm.news_actions a where a.user_id = ${userId} and a.news_id = n.id and a.action in (2, 3))
     order by n.date_from desc, n.id desc
     limit 500`);
  if (candidates.length === 0) return null;
  const reader = await newsReaderOf(db, userId);
  const withheld = await rxNewsWithheld(db, userId, candidates);
  return candidates.find((n) => isNewsFor(n.recipients as NewsFields['recipients'], reader) && !withheld.has(n.id)) ?? null;
};

/** A news item (not deleted) whose recipients include the reader, whatever its dates: where a reader may record an action. */
export const newsOfReader = async (db: NewsReadDb, userId: number, newsId: number) => {
  const news = await db.maybeOne(sql.type(newsItem)`select ${columns} from rm.news n where n.id = ${newsId}`);
  if (!news) return null;
  if ((await rxNewsWithheld(db, userId, [news])).has(news.id)) return null;
  return isNewsFor(news.recipients as NewsFields['recipients'], await newsReaderOf(db, userId)) ? news : null;
};

/** Whether an uploaded image (`/api/files/{id}`) belongs to a news item the reader may see (file access, decision 0016). */
export const readsNewsWithFile = async (db: NewsReadDb, userId: number, fileId: number) => {
  const rows = await db.any(sql.type(newsItem)`select ${columns} from rm.news n where n.image = ${`/api/files/${fileId}`}`);
  if (rows.length === 0) return false;
  const reader = await newsReaderOf(db, userId);
  const withheld = await rxNewsWithheld(db, userId, rows);
  return rows.some((n) => isNewsFor(n.recipients as NewsFields['recipients'], reader) && !withheld.has(n.id));
};
