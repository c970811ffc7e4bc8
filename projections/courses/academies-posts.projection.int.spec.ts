import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenProjected, recorded } from '../../tests/support/projection-spec.ts';
import { createTestDatabase } from '../../tests/support/test-database.ts';
import { academiesProjection } from './academies.projection.ts';
import { postsProjection } from './posts.projection.ts';

describe('academies and posts projections', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => db.drop());

  const fields = { title: 'Akademija', description: 'Serija izobraževanj za lekarne.', cover: '/c.svg', courseIds: [3, 1] };

  it('holds each academy once with its latest fields and publication, however often a batch is applied', async () => {
    const { rows } = await givenProjected(db, academiesProjection, [
      recorded('academy-1', 'AcademyCreated', { academyId: 1, fields }),
      recorded('academy-1', 'AcademyUpdated', { fields: { ...fields, title: 'Akademija lekarniške prakse', courseIds: [1, 3, 4] } }),
      recorded('academy-1', 'AcademyPublished', {}),
      recorded('academy-2', 'AcademyCreated', { academyId: 2, fields }),
      recorded('academy-2', 'AcademyPublished', {}),
      recorded('academy-2', 'AcademyDeleted', {}),
      recorded('academy-3', 'AcademyCreated', { academyId: 3, fields }),
      recorded('academy-3', 'AcademyPublished', {}),
      recorded('academy-3', 'AcademyUnpublished', {}),
    ]);
    expect(
      (await rows('academies', 'id')).map((r) => ({ id: r.id, title: r.title, courseIds: r.course_ids, published: r.published, deleted: r.deleted })),
    ).toEqual([
      { id: 1, title: 'Akademija lekarniške prakse', courseIds: [1, 3, 4], published: true, deleted: false },
      { id: 2, title: 'Akademija', courseIds: [3, 1], published: false, deleted: true },
      { id: 3, title: 'Akademija', courseIds: [3, 1], published: false, deleted: false },
    ]);
  });

  it('holds each post once, with edits and deletions, however often a batch is applied', async () => {
    const { rows } = await givenProjected(db, postsProjection, [
      recorded('post-1', 'PostCreated', { postId: 1, courseId: 7, parentId: null, authorId: 10, message: 'Vprašanje?', anonymous: true }),
      recorded('post-2', 'PostCreated', { postId: 2, courseId: 7, parentId: 1, authorId: 11, message: 'Odgovor.', anonymous: false }),
      recorded('post-1', 'PostEdited', { message: 'Popravljeno vprašanje?', editorId: 10 }),
      recorded('post-3', 'PostCreated', { postId: 3, courseId: 7, parentId: null, authorId: 12, message: 'Izbrisano', anonymous: false }),
      recorded('post-3', 'PostDeleted', { deletedBy: 12 }),
    ]);
    expect(
      (await rows('posts', 'id')).map((r) => ({
        id: r.id,
        parentId: r.parent_id,
        message: r.message,
        anonymous: r.anonymous,
        edited: r.edited,
        deleted: r.deleted,
      })),
    ).toEqual([
      { id: 1, parentId: null, message: 'Popravljeno vprašanje?', anonymous: true, edited: true, deleted: false },
      { id: 2, parentId: 1, message: 'Odgovor.', anonymous: false, edited: false, deleted: false },
      { id: 3, parentId: null, message: 'Izbrisano', anonymous: false, edited: false, deleted: true },
    ]);
  });

  it('holds team replies and moderation (hidden, shown, answered) as the last event left them, however often a batch is applied', async () => {
    const { rows } = await givenProjected(db, postsProjection, [
      recorded('post-1', 'PostCreated', { postId: 1, courseId: 7, parentId: null, authorId: 10, message: 'Vprašanje?', anonymous: true }),
      recorded('post-2', 'PostCreated', { postId: 2, courseId: 7, parentId: 1, authorId: 1, message: 'Odgovor ekipe.', anonymous: false, team: true }),
      recorded('post-3', 'PostCreated', { postId: 3, courseId: 7, parentId: null, authorId: 12, message: 'Neprimerno', anonymous: false }),
      recorded('post-1', 'PostMarkedAnswered', { markedBy: 1 }),
      recorded('post-3', 'PostHidden', { hiddenBy: 1 }),
      recorded('post-1', 'PostHidden', { hiddenBy: 1 }),
      recorded('post-1', 'PostShown', { shownBy: 1 }),
      recorded('post-3', 'PostMarkedAnswered', { markedBy: 1 }),
      recorded('post-3', 'PostMarkedUnanswered', { markedBy: 1 }),
    ]);
    expect((await rows('posts', 'id')).map((r) => ({ id: r.id, team: r.team, hidden: r.hidden, answered: r.answered, anonymous: r.anonymous }))).toEqual([
      { id: 1, team: false, hidden: false, answered: true, anonymous: true },
      { id: 2, team: true, hidden: false, answered: false, anonymous: false },
      { id: 3, team: false, hidden: true, answered: false, anonymous: false },
    ]);
  });
});
