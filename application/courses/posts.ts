import { type PostEvent, postDecider, postStream } from '../../domain/courses/post.ts';
import { canWritePosts, mayChangePost } from '../../domain/courses/post-access.ts';
import { can, type Subject } from '../../domain/permissions/can.ts';
import { fold } from '../../domain/shared/decider.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { EventMetadata, EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { IdAllocator } from '../../infrastructure/ids/id-allocator.port.ts';
import { authorMembership, courseById, courseCompanies, type PostReadDb } from '../../projections/courses/posts.queries.ts';
import { getUserCourse } from '../../projections/courses/user-courses.queries.ts';
import { handleCommand } from '../shared/handle-command.ts';

export type PostsDeps = { readonly store: EventStore; readonly ids: IdAllocator; readonly db: PostReadDb };

const courseNotFound = () => new DomainError('404', 'Izobraževanje ne obstaja.', { status: 404 });
const forbidden = () => new DomainError('403', 'Nimate pravic za to dejanje.', { status: 403 });
const postNotFound = () => new DomainError('404', 'Komentar ne obstaja.', { status: 404 });

const loadPost = async (store: EventStore, postId: number) =>
  fold(
    postDecider,
    (await store.readStream(postStream(postId))).events.map((e) => ({ type: e.type, data: e.data }) as PostEvent),
  );

/**
 * The course a post goes on: one the caller may take (participants and community roles), or any
 * existing course for system post writers. Comments must be enabled on it (postsEnabled).
 */
const requireCommentableCourse = async (deps: PostsDeps, subject: Subject, courseId: number) => {
  if (!canWritePosts(subject)) throw forbidden();
  const course =
    (await getUserCourse(deps.db, subject.userId, courseId)) ?? (can(subject, 1041, { kind: 'system' }) ? await courseById(deps.db, courseId) : null);
  if (!course) throw courseNotFound();
  if (!course.postsEnabled) throw new DomainError('422', 'Komentarji pri tem izobraževanju niso omogočeni.', { status: 422 });
};

export const createPost = async (
  deps: PostsDeps,
  subject: Subject,
  input: { courseId: number; message: string; anonymous: boolean; parentId: number | null },
  metadata: EventMetadata,
) => {
  await requireCommentableCourse(deps, subject, input.courseId);
  const parent = input.parentId === null ? null : { state: await loadPost(deps.store, input.parentId) };
  const postId = await deps.ids.next('post');
  const result = await handleCommand(deps.store, {
    streamName: postStream(postId),
    decider: postDecider,
    command: { type: 'CreatePost', postId, courseId: input.courseId, authorId: subject.userId, message: input.message, anonymous: input.anonymous, parent },
    metadata,
  });
  return { id: postId, position: result.position };
};

export const changePost = async (
  deps: PostsDeps,
  subject: Subject,
  postId: number,
  change: { type: 'edit'; message: string } | { type: 'delete' },
  metadata: EventMetadata,
) => {
  const post = await loadPost(deps.store, postId);
  if (post.status !== 'active') throw new DomainError('404', 'Komentar ne obstaja.', { status: 404 });
  const access = mayChangePost(
    subject,
    change.type,
    post.authorId,
    await authorMembership(deps.db, post.authorId),
    await courseCompanies(deps.db, post.courseId),
  );
  // A post on a course the caller cannot see is answered as missing: its id reveals nothing.
  if (!access.allowed)
    throw (await getUserCourse(deps.db, subject.userId, post.courseId)) ? forbidden() : new DomainError('404', 'Komentar ne obstaja.', { status: 404 });
  const result = await handleCommand(deps.store, {
    streamName: postStream(postId),
    decider: postDecider,
    command:
      change.type === 'edit'
        ? { type: 'EditPost', actorId: subject.userId, moderator: access.moderator, message: change.message }
        : { type: 'DeletePost', actorId: subject.userId, moderator: access.moderator },
    metadata,
  });
  return { id: postId, position: result.position };
};

/**
 * Where the course team acts on a post (issue 15): the companies of the post's course, as community
 * scopes for 1036 (moderate) and 1042 (reply as the team). Null, answered as 404, for a post that
 * does not exist or is deleted; a course for no company (public) gives no scope, so only system
 * moderators act on it. The post is read from its stream, so a post written a moment ago is found.
 */
export const postCourseScopes = async (deps: PostsDeps, postId: number) => {
  const post = await loadPost(deps.store, postId);
  if (post.status !== 'active') return null;
  const companies = await courseCompanies(deps.db, post.courseId);
  return companies === null ? null : companies.map((companyId) => ({ companyId }));
};

/** A reply as the course team (the route has checked 1041, or 1042 in the course's company): signed, marked as the team's. */
export const replyAsTeam = async (deps: PostsDeps, subject: Subject, parentId: number, message: string, metadata: EventMetadata) => {
  const parent = await loadPost(deps.store, parentId);
  if (parent.status !== 'active') throw postNotFound();
  const course = await courseById(deps.db, parent.courseId);
  if (!course) throw courseNotFound();
  if (!course.postsEnabled) throw new DomainError('422', 'Komentarji pri tem izobraževanju niso omogočeni.', { status: 422 });
  const postId = await deps.ids.next('post');
  const result = await handleCommand(deps.store, {
    streamName: postStream(postId),
    decider: postDecider,
    command: {
      type: 'CreatePost',
      postId,
      courseId: parent.courseId,
      authorId: subject.userId,
      message,
      anonymous: false,
      parent: { state: parent },
      team: true,
    },
    metadata,
  });
  return { id: postId, position: result.position };
};

/** Hide or show a post, mark a question answered or not (the route has checked 1033, or 1036 in the course's company). */
export const moderatePost = async (
  deps: PostsDeps,
  subject: Subject,
  postId: number,
  change: { hidden: boolean } | { answered: boolean },
  metadata: EventMetadata,
) => {
  const result = await handleCommand(deps.store, {
    streamName: postStream(postId),
    decider: postDecider,
    command:
      'hidden' in change
        ? { type: 'SetPostHidden', actorId: subject.userId, hidden: change.hidden }
        : { type: 'SetPostAnswered', actorId: subject.userId, answered: change.answered },
    metadata,
  });
  return { id: postId, position: result.position };
};
