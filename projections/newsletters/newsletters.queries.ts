import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { linksOf } from '../../domain/courses/course-links.ts';
import { COURSE_TYPE } from '../../domain/courses/course-types.rules.ts';
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
 * reader's profession, newest first. An issue whose address or description links an RX course the
 * reader may not receive is kept from them whole (issue 36, decision 0062), whatever professions it
 * is for: the issue is what a reader gets, there are no items to drop from it.
 */
const forReader = (userId: number) => sql.fragment`published and (cardinality(profession_ids) = 0
  or (select u.profession_id from rm.users u where u.id = ${userId}) = any(profession_ids))`;

/**
 * The issues without those linking an RX course the reader may not receive: their profession is not
 * among the course's, or may not prescribe or supply medicines (the news filter's rule, whose query
 * this repeats, as a read model does not read another's queries).
 */
const withoutRxLinks = async <T extends { id: number; url: string | null; description: string }>(db: NewsletterReadDb, userId: number, items: readonly T[]) => {
  const links = linksOf(items, (n) => [n.url, n.description]);
  if (links.courseIds.length === 0) return [...items];
  const kept = new Set(
    await db.anyFirst(sql.type(z.object({ id: z.number() }))`
      select c.id from rm.courses c
       where c.id = any(${sql.array(links.courseIds, 'int4')}) and c.type = ${COURSE_TYPE.rx}
         and not exists (select 1 from rm.users u join rm.professions p on p.id = u.profession_id
                          where u.id = ${userId} and coalesce((to_jsonb(p) ->> 'may_prescribe')::boolean, false)
                            and p.id = any(c.audience_professions))`),
  );
  const withheld = links.linking(kept);
  return items.filter((n) => !withheld.has(n.id));
};

export const listReaderNewsletters = async (db: NewsletterReadDb, userId: number) =>
  withoutRxLinks(
    db,
    userId,
    await db.any(sql.type(newsletterItem)`select ${columns} from rm.newsletters where ${forReader(userId)} order by published_at desc, id desc limit 200`),
  );

export const getReaderNewsletter = async (db: NewsletterReadDb, userId: number, id: number) => {
  const item = await db.maybeOne(sql.type(newsletterItem)`select ${columns} from rm.newsletters where id = ${id} and ${forReader(userId)}`);
  return item ? ((await withoutRxLinks(db, userId, [item]))[0] ?? null) : null;
};

/**
 * Whether an uploaded cover (/api/files/{fileId}) belongs to a newsletter issue the user may read:
 * published, for every profession or the user's, and not kept from them for an RX link (decision
 * 0020: a file is served to those who see what it belongs to).
 */
export const readsNewsletterWithFile = async (db: NewsletterReadDb, userId: number, fileId: number) =>
  (
    await withoutRxLinks(
      db,
      userId,
      await db.any(sql.type(newsletterItem)`select ${columns} from rm.newsletters where image_url = ${`/api/files/${fileId}`} and ${forReader(userId)}`),
    )
  ).length > 0;

/** The ids among `ids` that name no profession. */
export const unknownProfessions = async (db: NewsletterReadDb, ids: readonly number[]) =>
  ids.length === 0
    ? []
    : db.anyFirst(sql.type(z.object({ id: z.number() }))`
        select id from unnest(${sql.array([...ids], 'int4')}) as t(id) where not exists (select 1 from rm.professions p where p.id = t.id)`);
