import { expect, test } from '@playwright/test';
import { apiToken, logIn } from './support.ts';

/**
 * Issue 17 "done when": a participant confirms presence in a live course. The webinar started five
 * minutes ago, so its presence check is open: the page counts down its seconds, the participant
 * confirms, and the course is completed.
 */
test('a participant confirms presence at a live webinar and the course is completed', async ({ page }) => {
  const token = await apiToken(page, 'admin');
  const title = `Seminar v živo ${Date.now().toString(36)}`;
  const startsAt = new Date(Date.now() - (5 * 60 * 1000 + 5_000)).toISOString();
  const stopsAt = new Date(Date.now() + 4 * 60 * 1000).toISOString();
  const headers = { authorization: `JWT ${token}` };
  const created = await page.request.post('/api/courses', {
    headers,
    data: {
      type: 8,
      title,
      description: 'Predavanje v živo za farmacevte.',
      cover: '/c.svg',
      creditPoints: 1,
      public: true,
      live: { roomId: 'soba-7', startsAt, stopsAt },
    },
  });
  expect(created.status()).toBe(201);
  const courseId = ((await created.json()) as { id: number }).id;
  expect(
    (await page.request.post(`/api/courses/${courseId}/blocks`, { headers, data: { block: { kind: 'points', name: 'Točke', points: 1 } } })).status(),
  ).toBe(201);
  expect((await page.request.post(`/api/courses/${courseId}/publish`, { headers })).status()).toBe(200);

  await logIn(page, 'udelezenec');
  await page.goto(`/izobrazevanja/${courseId}`);
  const panel = page.getByTestId('live-panel');
  await expect(panel).toContainText('V živo');
  await expect(panel.getByRole('alert')).toContainText('Potrdite prisotnost');
  const before = await page.getByTestId('presence-countdown').textContent();
  await expect(page.getByTestId('presence-countdown')).not.toHaveText(before ?? '', { timeout: 3000 });
  await panel.getByRole('button', { name: 'Sem prisoten/prisotna' }).click();
  await expect(page.getByTestId('presence-checks')).toContainText('potrjeno');
  // Presence was the last thing the course asked for: the points block opens and completes it.
  await page.goto(`/izobrazevanja/${courseId}/bloki/1`);
  await expect(page).toHaveURL(new RegExp(`/izobrazevanja/${courseId}/konec$`));
  await expect(page.getByRole('heading', { name: 'Čestitamo! Izobraževanje je zaključeno.' })).toBeVisible();
});
