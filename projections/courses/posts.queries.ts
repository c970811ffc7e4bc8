import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';

export type PostReadDb = DatabasePool;

/** The units and companies a post's author belongs to: community moderators act where the author is a member. */
export const authorMembership = async (db: PostReadDb, userId: number) => {
  const rows = await db.any(sql.type(z.object({ unit_id: z.number(), company_id: z.number().nullable() }))`
    select r.unit_id, coalesce(r.company_id, u.company_id) as company_id from rm.user_roles r left join rm.units u on u.id = r.unit_id where r.user_id = ${userId}`);
  return {
    unitIds: rows.map((r) => r.unit_id).filter((id) => id > 0),
    companyIds: rows.flatMap((r) => (r.company_id === null ? [] : [r.company_id])),
  };
};

/** Any course that is not deleted, for system post readers and writers. */
export const courseById = async (db: PostReadDb, courseId: number) =>
  db.maybeOne(
    sql.type(z.object({ postsEnabled: z.boolean() }))`select posts_enabled as "postsEnabled" from rm.courses where id = ${courseId} and status <> 'deleted'`,
  );

/**
 * The companies a course is for, which community post permissions (1035, 1036, 1037, 1042) are
 * scoped to: the companies of its audience, the companies of its units and of its community groups'
 * units. A public course or one for professions only belongs to no company. Null when the course
 * does not exist or is deleted.
 */
export const courseCompanies = async (db: PostReadDb, courseId: number): Promise<number[] | null> => {
  const found = await db.maybeOne(sql.type(z.object({ companies: z.array(z.number()) }))`
    select array(
      select unnest(c.audience_companies)
      union select u.company_id from rm.units u where u.id = any(c.audience_units)
      union select u.company_id from rm.community_group_units gu join rm.units u on u.id = gu.unit_id where gu.group_id = any(c.audience_groups)
    ) as companies
      from rm.courses c where c.id = ${courseId} and c.status <> 'deleted'`);
  return found ? found.companies.filter((id) => id !== null) : null;
};

const row = z.object({
  id: z.number(),
  parentId: z.number().nullable(),
  authorId: z.number(),
  authorName: z.string().nullable(),
  message: z.string(),
  anonymous: z.boolean(),
  edited: z.boolean(),
  deleted: z.boolean(),
  team: z.boolean(),
  hidden: z.boolean(),
  answered: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const postItem = z.object({
  id: z.number(),
  courseId: z.number(),
  parentId: z.number().nullable(),
  message: z.string(),
  anonymous: z.boolean(),
  /** null for an anonymous post seen by anyone but its author and system post readers. */
  author: z.object({ id: z.number(), name: z.string() }).nullable(),
  mine: z.boolean(),
  edited: z.boolean(),
  deleted: z.boolean(),
  /** A reply written as the course team. */
  team: z.boolean(),
  /** Hidden by a moderator: only moderators get hidden posts, marked; everyone else never sees them. */
  hidden: z.boolean(),
  /** A question the course team marked answered. */
  answered: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const postThread = postItem.extend({ replies: z.array(postItem) });
export type PostThread = z.infer<typeof postThread>;

/** Threads shown per request: the newest posts first, each with all its replies, oldest first. */
export const POSTS_PAGE = 200;

/**
 * spec §7 GET /post?courseId=: the course's posts with their replies. A deleted post stays as a
 * placeholder while it has replies, so the conversation still reads; its text and author go. A
 * hidden post (with its replies) is left out for everyone but moderators, who get it marked.
 */
export const listPosts = async (
  db: PostReadDb,
  courseId: number,
  viewer: { userId: number; revealAuthors: boolean; moderator: boolean },
): Promise<PostThread[]> => {
  const shown = viewer.moderator ? sql.fragment`true` : sql.fragment`not p.hidden`;
  const rows = await db.any(sql.type(row)`
    with threads as (
      select p.id from rm.posts p where p.course_id = ${courseId} and p.parent_id is null and ${shown} order by p.created_at desc, p.id desc limit ${POSTS_PAGE})
    select p.id, p.parent_id as "parentId", p.author_id as "authorId", nullif(trim(concat_ws(' ', u.first_name, u.last_name)), '') as "authorName",
           p.message, p.anonymous, p.edited, p.deleted, p.team, p.hidden, p.answered, to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt",
           to_char(p.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "updatedAt"
      from rm.posts p left join rm.users u on u.id = p.author_id
     where p.course_id = ${courseId} and (p.id in (select id from threads) or p.parent_id in (select id from threads)) and ${shown}
     order by p.created_at, p.id`);
  const toItem = (r: z.infer<typeof row>) => {
    const mine = r.authorId === viewer.userId;
    const authorUnseen = r.deleted || (r.anonymous && !mine && !viewer.revealAuthors);
    return {
      id: r.id,
      courseId,
      parentId: r.parentId,
      message: r.deleted ? '' : r.message,
      anonymous: r.anonymous,
      author: authorUnseen ? null : { id: r.authorId, name: r.authorName ?? '' },
      mine: mine && !r.deleted,
      edited: r.edited,
      deleted: r.deleted,
      team: r.team,
      hidden: r.hidden,
      answered: r.answered,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    };
  };
  const replies = new Map<number, ReturnType<typeof toItem>[]>();
  for (const r of rows) if (r.parentId !== null && !r.deleted) replies.set(r.parentId, [...(replies.get(r.parentId) ?? []), toItem(r)]);
  return rows
    .filter((r) => r.parentId === null && (!r.deleted || (replies.get(r.id)?.length ?? 0) > 0))
    .reverse()
    .map((r) => ({ ...toItem(r), replies: replies.get(r.id) ?? [] }));
};
