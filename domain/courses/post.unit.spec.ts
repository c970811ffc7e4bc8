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

describe('moderation by the course team', () => {
  const hidden: PostEvent = { type: 'PostHidden', data: { hiddenBy: 1 } };

  it('hides a post and shows it again; hiding what is hidden, or showing what is shown, changes nothing', () => {
    spec.given([created]).when({ type: 'SetPostHidden', actorId: 1, hidden: true }).thenExpect([hidden]);
    spec.given([created, hidden]).when({ type: 'SetPostHidden', actorId: 1, hidden: true }).thenExpect([]);
    spec
      .given([created, hidden])
      .when({ type: 'SetPostHidden', actorId: 2, hidden: false })
      .thenExpect([{ type: 'PostShown', data: { shownBy: 2 } }]);
    spec.given([created]).when({ type: 'SetPostHidden', actorId: 1, hidden: false }).thenExpect([]);
    spec
      .given([reply])
      .when({ type: 'SetPostHidden', actorId: 1, hidden: true })
      .thenExpect([{ type: 'PostHidden', data: { hiddenBy: 1 } }]);
    spec
      .given([created, { type: 'PostDeleted', data: { deletedBy: 1 } }])
      .when({ type: 'SetPostHidden', actorId: 1, hidden: true })
      .thenFails('404');
    spec.given([]).when({ type: 'SetPostHidden', actorId: 1, hidden: true }).thenFails('404');
  });

  it('keeps a hidden post from its author and from participants replying, not from moderators', () => {
    spec.given([created, hidden]).when({ type: 'EditPost', actorId: 10, moderator: false, message: 'Popravek' }).thenFails('404');
    spec.given([created, hidden]).when({ type: 'DeletePost', actorId: 10, moderator: false }).thenFails('404');
    spec
      .given([created, hidden])
      .when({ type: 'DeletePost', actorId: 1, moderator: true })
      .thenExpect([{ type: 'PostDeleted', data: { deletedBy: 1 } }]);
    spec
      .given([])
      .when(create({ state: stateOf([created, hidden]) }))
      .thenFails('404', 'Komentar, na katerega odgovarjate, ne obstaja.');
  });

  it('replies as the team: signed (never anonymous), only to a post, also to a hidden one', () => {
    const team = { ...create({ state: stateOf([created, hidden]) }), anonymous: true, team: true };
    spec
      .given([])
      .when(team)
      .thenExpect([{ type: 'PostCreated', data: { postId: 3, courseId: 7, parentId: 1, authorId: 12, message: 'Hvala', anonymous: false, team: true } }]);
    spec
      .given([])
      .when({ ...team, parent: null })
      .thenFails('400', 'Ekipa izobraževanja odgovarja na komentarje in vprašanja.');
    spec
      .given([])
      .when({ ...team, parent: { state: stateOf([reply]) } })
      .thenFails('400');
    expect(
      stateOf([{ type: 'PostCreated', data: { postId: 3, courseId: 7, parentId: 1, authorId: 12, message: 'Hvala', anonymous: false, team: true } }]),
    ).toMatchObject({
      team: true,
      hidden: false,
      answered: false,
    });
    // Posts written before the team existed read as the participants' own.
    expect(stateOf([created])).toMatchObject({ team: false });
  });

  it('marks a question answered and unanswered, once each way, never a reply', () => {
    const answered: PostEvent = { type: 'PostMarkedAnswered', data: { markedBy: 1 } };
    spec.given([created]).when({ type: 'SetPostAnswered', actorId: 1, answered: true }).thenExpect([answered]);
    spec.given([created, answered]).when({ type: 'SetPostAnswered', actorId: 1, answered: true }).thenExpect([]);
    spec
      .given([created, answered])
      .when({ type: 'SetPostAnswered', actorId: 2, answered: false })
      .thenExpect([{ type: 'PostMarkedUnanswered', data: { markedBy: 2 } }]);
    spec.given([created]).when({ type: 'SetPostAnswered', actorId: 1, answered: false }).thenExpect([]);
    spec
      .given([reply])
      .when({ type: 'SetPostAnswered', actorId: 1, answered: true })
      .thenFails('400', 'Kot odgovorjeno lahko označite le vprašanje, ne odgovora.');
    spec
      .given([created, { type: 'PostDeleted', data: { deletedBy: 10 } }])
      .when({ type: 'SetPostAnswered', actorId: 1, answered: true })
      .thenFails('404');
  });
});
