import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';

/**
 * A post (comment or question) on a course, or a reply to one: each post is its own stream, so
 * edits to different posts never conflict. Replies are one level deep (a reply to a post, not to a
 * reply). Who may write or moderate is decided by the route (spec §6 1040, 1043, 1044, 1031 to
 * 1041); the decider keeps ownership: only the author edits or deletes without moderation rights.
 */
export const postStream = (postId: number) => `post-${postId}`;

const id = z.number().int().positive();

export const postEvents = [
  // A comment's text is its author's (decision 0019). An edit names the author since issue 14; older edits do not and stay plain.
  defineEvent('PostCreated', z.object({ postId: id, courseId: id, parentId: id.nullable(), authorId: id, message: z.string(), anonymous: z.boolean() }), {
    personal: { fields: ['message'], owner: (data) => data.authorId as number },
  }),
  defineEvent('PostEdited', z.object({ message: z.string(), editorId: id, authorId: id.optional() }), {
    personal: { fields: ['message'], owner: (data) => (typeof data.authorId === 'number' ? data.authorId : null) },
  }),
  defineEvent('PostDeleted', z.object({ deletedBy: id })),
] as const;

export type PostEvent = EventsOf<typeof postEvents>;

export type Post = {
  readonly status: 'active' | 'deleted';
  readonly id: number;
  readonly courseId: number;
  readonly parentId: number | null;
  readonly authorId: number;
  readonly message: string;
};
export type PostState = { readonly status: 'none' } | Post;

/** What the application knows about the post replied to (read from its stream). */
export type ReplyTarget = { readonly state: PostState } | null;

export type PostCommand =
  | { type: 'CreatePost'; postId: number; courseId: number; authorId: number; message: string; anonymous: boolean; parent: ReplyTarget }
  | { type: 'EditPost'; actorId: number; moderator: boolean; message: string }
  | { type: 'DeletePost'; actorId: number; moderator: boolean };

export const evolvePost = (state: PostState, event: PostEvent): PostState => {
  switch (event.type) {
    case 'PostCreated':
      return {
        status: 'active',
        id: event.data.postId,
        courseId: event.data.courseId,
        parentId: event.data.parentId,
        authorId: event.data.authorId,
        message: event.data.message,
      };
    case 'PostEdited':
      return state.status === 'none' ? state : { ...state, message: event.data.message };
    case 'PostDeleted':
      return state.status === 'none' ? state : { ...state, status: 'deleted' };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};

const notFound = () => new DomainError('404', 'Komentar ne obstaja.', { status: 404 });
const notYours = () => new DomainError('403', 'Urejate lahko le svoje komentarje.', { status: 403 });

const checkParent = (courseId: number, parent: ReplyTarget) => {
  if (parent === null) return null;
  const p = parent.state;
  if (p.status !== 'active' || p.courseId !== courseId) throw new DomainError('404', 'Komentar, na katerega odgovarjate, ne obstaja.', { status: 404 });
  if (p.parentId !== null) throw new DomainError('400', 'Na odgovor ni mogoče odgovoriti.', { status: 400, field: 'parentId' });
  return p.id;
};

export const decidePost = (command: PostCommand, state: PostState): PostEvent[] => {
  if (command.type === 'CreatePost') {
    if (state.status !== 'none') throw new DomainError('409', 'Komentar že obstaja.', { status: 409 });
    const parentId = checkParent(command.courseId, command.parent);
    return [
      {
        type: 'PostCreated',
        data: {
          postId: command.postId,
          courseId: command.courseId,
          parentId,
          authorId: command.authorId,
          message: command.message,
          anonymous: command.anonymous,
        },
      },
    ];
  }
  if (state.status !== 'active') throw notFound();
  if (!command.moderator && command.actorId !== state.authorId) throw notYours();
  if (command.type === 'EditPost') {
    return state.message === command.message
      ? []
      : [{ type: 'PostEdited', data: { message: command.message, editorId: command.actorId, authorId: state.authorId } }];
  }
  return [{ type: 'PostDeleted', data: { deletedBy: command.actorId } }];
};

export const postDecider: Decider<PostCommand, PostEvent, PostState> = { initialState: { status: 'none' }, evolve: evolvePost, decide: decidePost };
