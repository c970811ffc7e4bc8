import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';

/**
 * A post (comment or question) on a course, or a reply to one: each post is its own stream, so
 * edits to different posts never conflict. Replies are one level deep (a reply to a post, not to a
 * reply). Who may write or moderate is decided by the route (spec §6 1040, 1043, 1044, 1031 to
 * 1041); the decider keeps ownership: only the author edits or deletes without moderation rights.
 * The course team moderates (issue 15): it hides and shows posts again (a hidden post is gone for
 * participants, its author included), replies as the team, and marks a question answered.
 */
export const postStream = (postId: number) => `post-${postId}`;

const id = z.number().int().positive();

export const postEvents = [
  // A comment's text is its author's (decision 0019). An edit names the author since issue 14; older edits do not and stay plain.
  // `team`: a reply written as the course team (issue 15); absent on everything else and on older posts.
  defineEvent(
    'PostCreated',
    z.object({
      postId: id,
      courseId: id,
      parentId: id.nullable(),
      authorId: id,
      message: z.string(),
      anonymous: z.boolean(),
      team: z.literal(true).optional(),
    }),
    { personal: { fields: ['message'], owner: (data) => data.authorId as number } },
  ),
  defineEvent('PostEdited', z.object({ message: z.string(), editorId: id, authorId: id.optional() }), {
    personal: { fields: ['message'], owner: (data) => (typeof data.authorId === 'number' ? data.authorId : null) },
  }),
  defineEvent('PostDeleted', z.object({ deletedBy: id })),
  defineEvent('PostHidden', z.object({ hiddenBy: id })),
  defineEvent('PostShown', z.object({ shownBy: id })),
  defineEvent('PostMarkedAnswered', z.object({ markedBy: id })),
  defineEvent('PostMarkedUnanswered', z.object({ markedBy: id })),
] as const;

export type PostEvent = EventsOf<typeof postEvents>;

export type Post = {
  readonly status: 'active' | 'deleted';
  readonly id: number;
  readonly courseId: number;
  readonly parentId: number | null;
  readonly authorId: number;
  readonly message: string;
  readonly team: boolean;
  readonly hidden: boolean;
  readonly answered: boolean;
};
export type PostState = { readonly status: 'none' } | Post;

/** What the application knows about the post replied to (read from its stream). */
export type ReplyTarget = { readonly state: PostState } | null;

export type PostCommand =
  | {
      type: 'CreatePost';
      postId: number;
      courseId: number;
      authorId: number;
      message: string;
      anonymous: boolean;
      parent: ReplyTarget;
      /** A reply as the course team: never anonymous, and it may answer a hidden post. */
      team?: boolean;
    }
  | { type: 'EditPost'; actorId: number; moderator: boolean; message: string }
  | { type: 'DeletePost'; actorId: number; moderator: boolean }
  /** Moderation by the course team (the route has checked 1033 or 1036). */
  | { type: 'SetPostHidden'; actorId: number; hidden: boolean }
  | { type: 'SetPostAnswered'; actorId: number; answered: boolean };

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
        team: event.data.team === true,
        hidden: false,
        answered: false,
      };
    case 'PostEdited':
      return state.status === 'none' ? state : { ...state, message: event.data.message };
    case 'PostDeleted':
      return state.status === 'none' ? state : { ...state, status: 'deleted' };
    case 'PostHidden':
      return state.status === 'none' ? state : { ...state, hidden: true };
    case 'PostShown':
      return state.status === 'none' ? state : { ...state, hidden: false };
    case 'PostMarkedAnswered':
      return state.status === 'none' ? state : { ...state, answered: true };
    case 'PostMarkedUnanswered':
      return state.status === 'none' ? state : { ...state, answered: false };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};

const notFound = () => new DomainError('404', 'Komentar ne obstaja.', { status: 404 });
const notYours = () => new DomainError('403', 'Urejate lahko le svoje komentarje.', { status: 403 });

const checkParent = (courseId: number, parent: ReplyTarget, team: boolean) => {
  if (parent === null) return null;
  const p = parent.state;
  // A hidden post is gone for participants; only the team still answers it.
  if (p.status !== 'active' || p.courseId !== courseId || (p.hidden && !team))
    throw new DomainError('404', 'Komentar, na katerega odgovarjate, ne obstaja.', { status: 404 });
  if (p.parentId !== null) throw new DomainError('400', 'Na odgovor ni mogoče odgovoriti.', { status: 400, field: 'parentId' });
  return p.id;
};

type Command<T extends PostCommand['type']> = Extract<PostCommand, { type: T }>;

const createPost = (command: Command<'CreatePost'>, state: PostState): PostEvent[] => {
  if (state.status !== 'none') throw new DomainError('409', 'Komentar že obstaja.', { status: 409 });
  const team = command.team === true;
  if (team && command.parent === null)
    throw new DomainError('400', 'Ekipa izobraževanja odgovarja na komentarje in vprašanja.', { status: 400, field: 'parentId' });
  const parentId = checkParent(command.courseId, command.parent, team);
  return [
    {
      type: 'PostCreated',
      data: {
        postId: command.postId,
        courseId: command.courseId,
        parentId,
        authorId: command.authorId,
        message: command.message,
        // The team signs its answers.
        anonymous: team ? false : command.anonymous,
        ...(team ? { team: true as const } : {}),
      },
    },
  ];
};

/** Edit and delete: the author, or a moderator; a hidden post is gone for its author too. */
const changeOwnPost = (command: Command<'EditPost' | 'DeletePost'>, state: Post): PostEvent[] => {
  if (state.hidden && !command.moderator) throw notFound();
  if (!command.moderator && command.actorId !== state.authorId) throw notYours();
  if (command.type === 'DeletePost') return [{ type: 'PostDeleted', data: { deletedBy: command.actorId } }];
  return state.message === command.message
    ? []
    : [{ type: 'PostEdited', data: { message: command.message, editorId: command.actorId, authorId: state.authorId } }];
};

/** Hiding what is hidden (or showing what is shown) changes nothing. */
const setHidden = (command: Command<'SetPostHidden'>, state: Post): PostEvent[] => {
  if (state.hidden === command.hidden) return [];
  return command.hidden ? [{ type: 'PostHidden', data: { hiddenBy: command.actorId } }] : [{ type: 'PostShown', data: { shownBy: command.actorId } }];
};

/** Only a question (a post, not a reply) is answered. */
const setAnswered = (command: Command<'SetPostAnswered'>, state: Post): PostEvent[] => {
  if (state.parentId !== null) throw new DomainError('400', 'Kot odgovorjeno lahko označite le vprašanje, ne odgovora.', { status: 400 });
  if (state.answered === command.answered) return [];
  return [{ type: command.answered ? 'PostMarkedAnswered' : 'PostMarkedUnanswered', data: { markedBy: command.actorId } }];
};

export const decidePost = (command: PostCommand, state: PostState): PostEvent[] => {
  if (command.type === 'CreatePost') return createPost(command, state);
  if (state.status !== 'active') throw notFound();
  switch (command.type) {
    case 'EditPost':
    case 'DeletePost':
      return changeOwnPost(command, state);
    case 'SetPostHidden':
      return setHidden(command, state);
    case 'SetPostAnswered':
      return setAnswered(command, state);
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
};

export const postDecider: Decider<PostCommand, PostEvent, PostState> = { initialState: { status: 'none' }, evolve: evolvePost, decide: decidePost };
