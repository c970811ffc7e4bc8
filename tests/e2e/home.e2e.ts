import { expect, test } from '@playwright/test';
import { apiToken, logIn } from './support.ts';

/**
 * Issue 18 items 1 and 2: a home page per role and a way in to every screen. A participant finds
 * where they stopped and what closes soon; a manager their community's figures and, from them, the
 * statistics of a course; an admin what needs attention, the platform's figures and the professions
 * in the menu.
 */
test('a participant continues where they stopped and sees the course that closes soon', async ({ page }) => {
  const token = await apiToken(page, 'admin');
  const headers = { authorization: `JWT ${token}` };
  const title = `Zaključi kmalu ${Date.now().toString(36)}`;
  const created = await page.request.post('/api/courses', {
    headers,
    data: {
      type: 3,
      title,
      description: 'Izobraževanje, ki se zaključi čez tri dni.',
      cover: '/c.svg',
      creditPoints: 1,
      public: true,
      intervals: [{ startsAt: new Date(Date.now() - 86_400_000).toISOString(), stopsAt: new Date(Date.now() + 3 * 86_400_000).toISOString() }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const courseId = ((await created.json()) as { id: number }).id;
  for (const name of ['Uvod', 'Nadaljevanje']) {
    const block = await page.request.post(`/api/courses/${courseId}/blocks`, {
      headers,
      data: { block: { kind: 'article', name, html: `<p>${name} za farmacevte v lekarni.</p>` } },
    });
    expect(block.status()).toBe(201);
  }
  expect((await page.request.post(`/api/courses/${courseId}/publish`, { headers })).status()).toBe(200);

  await logIn(page, 'udelezenec');
  await page.goto(`/izobrazevanja/${courseId}`);
  await page.getByRole('button', { name: 'Začni izobraževanje' }).click();
  await expect(page.getByTestId('block-position')).toHaveText('Vsebina 1 od 2');

  await page.goto('/');
  const continuing = page.getByTestId('home-continue');
  await expect(continuing).toContainText(title);
  await expect(continuing).toContainText('Opravljeno 1 od 2');
  await expect(page.getByTestId('home-due').getByRole('link', { name: title })).toBeVisible();
  await expect(page.getByTestId('home-year')).toContainText(`Leto ${new Date().getFullYear()}`);
  await continuing.getByRole('link', { name: 'Nadaljuj' }).click();
  await expect(page).toHaveURL(new RegExp(`/izobrazevanja/${courseId}/bloki/2$`));
  await expect(page.getByTestId('block-position')).toHaveText('Vsebina 2 od 2');
});

test('a manager opens their community’s figures from home and the statistics of a course from the list', async ({ page }) => {
  await logIn(page, 'vodja');
  await page.goto('/');
  const community = page.getByTestId('home-community');
  await expect(community).toContainText('Moja skupnost');
  await community.getByRole('link', { name: 'Odpri statistiko' }).click();
  await expect(page).toHaveURL(/\/statistika$/);
  await expect(page.getByRole('heading', { name: 'Statistika moje skupnosti', level: 1 })).toBeVisible();
  // The menu leads here too.
  await expect(page.locator('header [data-menu]').filter({ hasText: 'Statistika' })).toBeVisible();
  const row = page.getByTestId('community-courses').getByRole('row').nth(1);
  await row.getByRole('link', { name: 'Uspešnost' }).click();
  await expect(page).toHaveURL(/\/admin\/courses\/\d+\/success\/0$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('Nimate pravic')).toHaveCount(0);
});

test('an admin sees what needs attention and the platform’s figures, and finds the professions in the menu', async ({ page }) => {
  await logIn(page, 'admin');
  await page.goto('/');
  await expect(page.getByTestId('home-attention')).toContainText('Potrebuje pozornost');
  await expect(page.getByTestId('home-platform')).toContainText('Udeleženci');
  await page.locator('header [data-menu]').filter({ hasText: 'Skupnosti' }).click();
  await page.getByRole('menuitem', { name: 'Poklici', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/professions$/);
});
