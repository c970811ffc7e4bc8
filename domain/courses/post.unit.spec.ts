import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../tests/support/decider-spec.ts';
import { postRule } from './post.rules.ts';
import { type PostEvent, postDecider } from './post.ts';

const created: PostEvent = { type: 'PostCreated', data: { postId: 1, courseId: 7, parentId: null, authorId: 10, message: 'Vprašanje?', anonymous: true } };
const reply: PostEvent = { type: 'PostCreated', data: { postId: 2, courseId: 7, parentId: 1, authorId: 11, message: 'Odgovor.', anonymous: false } };
const spec = deciderSpec(postDecider);
const create = (parent: { state: ReturnType<typeof stateOf> } | null, courseId = 7) =>
  ({ type: 'CreatePost', postId: 3, courseId, authorId: 12, message: 'Hvala', anonymous: false, parent }) as const;
const stateOf = (events: PostEvent[]) => events.reduce(postDecider.evolve, postDecider.initialState);

describe('post rules', () => {
  it('requires a message of at most 5000 characters, trimmed', () => {
    expect(postRule.safeParse({ message: '   ' }).error?.issues[0]?.message).toBe('Vnos je obvezen');
    expect(postRule.safeParse({ message: 'x'.repeat(5001) }).error?.issues[0]?.message).toBe('Sporočilo je predolgo (največ 5000 znakov)');
    expect(postRule.parse({ message: '  Kdaj bo naslednji termin? ' })).toEqual({ message: 'Kdaj bo naslednji termin?', anonymous: false });
  });
});

describe('post decider', () => {
  it('creates a post and a reply to a post of the same course, never a reply to a reply or to a deleted post', () => {
    spec
      .given([])
      .when(create(null))
      .thenExpect([{ type: 'PostCreated', data: { postId: 3, courseId: 7, parentId: null, authorId: 12, message: 'Hvala', anonymous: false } }]);
    spec
      .given([])
      .when(create({ state: stateOf([created]) }))
      .thenExpect([{ type: 'PostCreated', data: { postId: 3, courseId: 7, parentId: 1, authorId: 12, message: 'Hvala', anonymous: false } }]);
    spec
      .given([])
      .when(create({ state: stateOf([reply]) }))
      .thenFails('400', 'Na odgovor ni mogoče odgovoriti.');
    spec
      .given([])
      .when(create({ state: stateOf([created, { type: 'PostDeleted', data: { deletedBy: 10 } }]) }))
      .thenFails('404');
    spec
      .given([])
      .when(create({ state: stateOf([created]) }, 8))
      .thenFails('404');
    spec
      .given([])
      .when(create({ state: stateOf([]) }))
      .thenFails('404');
  });

  it('lets the author edit and delete their post, others only with moderation rights', () => {
    spec
      .given([created])
      .when({ type: 'EditPost', actorId: 10, moderator: false, message: 'Popravek' })
      .thenExpect([{ type: 'PostEdited', data: { message: 'Popravek', editorId: 10, authorId: 10 } }]);
    spec.given([created]).when({ type: 'EditPost', actorId: 10, moderator: false, message: 'Vprašanje?' }).thenExpect([]);
    spec.given([created]).when({ type: 'EditPost', actorId: 11, moderator: false, message: 'Tuje' }).thenFails('403', 'Urejate lahko le svoje komentarje.');
    spec.given([created]).when({ type: 'DeletePost', actorId: 11, moderator: false }).thenFails('403');
    spec
      .given([created])
      .when({ type: 'DeletePost', actorId: 11, moderator: true })
      .thenExpect([{ type: 'PostDeleted', data: { deletedBy: 11 } }]);
    spec
      .given([created, { type: 'PostDeleted', data: { deletedBy: 10 } }])
      .when({ type: 'DeletePost', actorId: 10, moderator: false })
      .thenFails('404');
  });
});
