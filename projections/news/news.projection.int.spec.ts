import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenProjected, recorded } from '../../tests/support/projection-spec.ts';
import { createTestDatabase } from '../../tests/support/test-database.ts';
import { newsProjection } from './news.projection.ts';

describe('news projection', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => db.drop());

  const fields = {
    title: 'Nova smernica',
    htmlContent: '<p>Vsebina</p>',
    image: null,
    actionUrl: null,
    actionButtonText: null,
    active: true,
    dateFrom: '2026-03-01T08:00:00.000Z',
    dateTo: '2026-03-31T08:00:00.000Z',
    location: 1,
    recipients: { professionIds: [3], companyIds: [], unitIds: [11], groupIds: [] },
  };
  const action = (newsId: number, userId: number, a: number) => recorded(`newsreader-${newsId}_${userId}`, 'NewsActionRecorded', { newsId, userId, action: a });

  it('holds each item once with its latest fields and each action once, however often a batch is applied', async () => {
    const { rows } = await givenProjected(db, newsProjection, [
      recorded('news-1', 'NewsCreated', { newsId: 1, fields }),
      recorded('news-1', 'NewsUpdated', { fields: { ...fields, title: 'Popravljena smernica', active: false, location: 2 } }),
      recorded('news-2', 'NewsCreated', { newsId: 2, fields }),
      action(1, 5, 1),
      action(1, 5, 4),
      action(1, 6, 1),
      action(2, 5, 1),
      recorded('news-2', 'NewsDeleted', {}),
      // An action reported after its item was deleted counts nowhere.
      action(2, 6, 1),
    ]);
    expect((await rows('news', 'id')).map((r) => ({ id: r.id, title: r.title, active: r.active, location: r.location, units: r.unit_ids }))).toEqual([
      { id: 1, title: 'Popravljena smernica', active: false, location: 2, units: [11] },
    ]);
    expect((await rows('news_actions', 'news_id, user_id, action')).map((r) => [r.news_id, r.user_id, r.action])).toEqual([
      [1, 5, 1],
      [1, 5, 4],
      [1, 6, 1],
    ]);
  });
});
