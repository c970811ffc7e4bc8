import { type PostEvent, postDecider, postStream } from '../../domain/courses/post.ts';
import { canWritePosts, mayChangePost } from '../../domain/courses/post-access.ts';
import { can, type Subject } from '../../domain/permissions/can.ts';
import { fold } from '../../domain/shared/decider.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { EventMetadata, EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { IdAllocator } from '../../infrastructure/ids/id-allocator.port.ts';
import { authorMembership, courseById, type PostReadDb } from '../../projections/courses/posts.queries.ts';
import { getUserCourse } from '../../projections/courses/user-courses.queries.ts';
import { handleCommand } from '../shared/handle-command.ts';

export type PostsDeps = { readonly store: EventStore; readonly ids: IdAllocator; readonly db: PostReadDb };

const courseNotFound = () => new DomainError('404', 'Izobraževanje ne obstaja.', { status: 404 });
const forbidden = () => new DomainError('403', 'Nimate pravic za to dejanje.', { status: 403 });

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
  const access = mayChangePost(subject, change.type, post.authorId, await authorMembership(deps.db, post.authorId));
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
