import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { likePattern } from '../../infrastructure/postgres/search.port.ts';

export type NewsletterReadDb = DatabasePool;

export const newsletterItem = z.object({
  id: z.number(),
  title: z.string(),
  issue: z.string().nullable(),
  description: z.string(),
  keywords: z.array(z.string()),
  imageUrl: z.string().nullable(),
  url: z.string().nullable(),
  professionIds: z.array(z.number()),
  published: z.boolean(),
  publishedAt: z.string().nullable(),
  updatedAt: z.string(),
});

const columns = sql.fragment`id, title, issue, description, keywords, image_url as "imageUrl", url, profession_ids as "professionIds", published,
  to_char(published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "publishedAt",
  to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "updatedAt"`;

/** The admin list: every issue, newest change first, searched by title, issue and keywords. */
export const listNewsletters = async (
  db: NewsletterReadDb,
  params: { search?: string | undefined; page?: number | undefined; pageSize?: number | undefined },
) => {
  const size = Math.min(Math.max(params.pageSize ?? 20, 1), 100);
  const offset = (Math.max(params.page ?? 1, 1) - 1) * size;
  const where = params.search?.trim()
    ? sql.fragment`(title ilike ${likePattern(params.search)} or issue ilike ${likePattern(params.search)} or array_to_string(keywords, ' ') ilike ${likePattern(params.search)})`
    : sql.fragment`true`;
  const items = await db.any(
    sql.type(newsletterItem)`select ${columns} from rm.newsletters where ${where} order by updated_at desc, id desc limit ${size} offset ${offset}`,
  );
  const total = await db.oneFirst(sql.type(z.object({ n: z.number() }))`select count(*)::int as n from rm.newsletters where ${where}`);
  return { items: [...items], total };
};

export const getNewsletter = async (db: NewsletterReadDb, id: number) =>
  db.maybeOne(sql.type(newsletterItem)`select ${columns} from rm.newsletters where id = ${id}`);

/**
 * Published issues for a reader (spec §2 /novicnik): those for every profession and those for the
 * reader's profession, newest first.
 */
const forReader = (userId: number) => sql.fragment`published and (cardinality(profession_ids) = 0
  or (select u.profession_id from rm.users u where u.id = ${userId}) = any(profession_ids))`;

export const listReaderNewsletters = async (db: NewsletterReadDb, userId: number) =>
  db.any(sql.type(newsletterItem)`select ${columns} from rm.newsletters where ${forReader(userId)} order by published_at desc, id desc limit 200`);

export const getReaderNewsletter = async (db: NewsletterReadDb, userId: number, id: number) =>
  db.maybeOne(sql.type(newsletterItem)`select ${columns} from rm.newsletters where id = ${id} and ${forReader(userId)}`);

/**
 * Whether an uploaded cover (/api/files/{fileId}) belongs to a newsletter issue the user may read:
 * published, and for every profession or the user's (decision 0020: a file is served to those who
 * see what it belongs to).
 */
export const readsNewsletterWithFile = async (db: NewsletterReadDb, userId: number, fileId: number) =>
  db.exists(sql.unsafe`select 1 from rm.newsletters where image_url = ${`/api/files/${fileId}`} and ${forReader(userId)}`);

/** The ids among `ids` that name no profession. */
export const unknownProfessions = async (db: NewsletterReadDb, ids: readonly number[]) =>
  ids.length === 0
    ? []
    : db.anyFirst(sql.type(z.object({ id: z.number() }))`
        select id from unnest(${sql.array([...ids], 'int4')}) as t(id) where not exists (select 1 from rm.professions p where p.id = t.id)`);
