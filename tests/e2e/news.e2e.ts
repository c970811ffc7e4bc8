import { expect, type Page, test } from '@playwright/test';
import { DEMO_NEWS_TITLES } from '../../infrastructure/main/demo-news.ts';
import { logIn, seriousAxeViolations } from './support.ts';

/**
 * Issue 16 item 1, news in Chromium: the admin writes an active news item for the demo
 * participant's profession (Magister farmacije), told first what is wrong; the participant sees the
 * pop-up once on /izobrazevanja, defers it ("Kasneje") and does not see it again in that browser
 * session (the 24 hours of spec §9), though the server would still offer it; in a new session the
 * participant sees it again and declines it; the admin reads both actions counted.
 */
test.describe.configure({ mode: 'serial' });

const stamp = Date.now().toString(36);
const title = `Nova smernica za antikoagulante v lekarni ${stamp}`;
let newsUrl = '';

const accessible = async (page: Page, where: string) => {
  await expect(page.locator('[role="status"]')).toHaveCount(0);
  expect(await seriousAxeViolations(page), where).toEqual([]);
};

/** The pop-up asks once the page is there; give it the time a slow machine needs before saying it did not come. */
const noPopup = async (page: Page) => {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  await expect(page.getByRole('dialog')).toHaveCount(0);
};

test.afterAll(async ({ request }) => {
  // Whatever happened above, no item of this test stays on for the suites after it.
  if (!newsUrl) return;
  const login = await request.post('/api/auth/login', { data: { usernameOrEmail: 'admin', password: 'Demo1234!' } });
  const { authToken } = (await login.json()) as { authToken: string };
  await request.delete(`/api${newsUrl.replace('/admin', '')}`, { headers: { Authorization: `JWT ${authToken}` } });
});

test('an admin writes an active news item for Magister farmacije', async ({ page }) => {
  await logIn(page, 'admin');
  await page.locator('header [data-menu="news"]').click();
  await page.locator('[data-menu="newsItems"]').click();
  await expect(page).toHaveURL(/\/admin\/news$/);
  await expect(page.getByRole('heading', { name: 'Novice', level: 1 })).toBeVisible();
  await accessible(page, '/admin/news');
  // The demo's own items are listed (issue 33 item 9: the list was empty).
  for (const demo of Object.values(DEMO_NEWS_TITLES)) await expect(page.getByText(demo, { exact: true }).first()).toBeVisible();
  await page.getByRole('link', { name: 'Nova novica' }).click();
  await expect(page).toHaveURL(/\/admin\/news\/new$/);

  // What is wrong is said on its field, in Slovenian, and nothing is created.
  await page.getByRole('textbox', { name: 'Naslov, ki ga odpre gumb' }).fill('http://zdravje.si');
  await page.getByRole('textbox', { name: 'Besedilo gumba' }).fill('Preberite celotno smernico na spletni strani');
  await page.getByRole('button', { name: 'Ustvari' }).click();
  await expect(page.getByText('Vnos je obvezen').first()).toBeVisible();
  await expect(page.getByText('Vnesite veljaven naslov (https://…)')).toBeVisible();
  await expect(page.getByText('Besedilo gumba je predolgo (največ 40 znakov)')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/news\/new$/);
  await accessible(page, '/admin/news/new with messages');

  await page.getByRole('textbox', { name: 'Naslov', exact: true }).fill(title);
  await page.getByRole('textbox', { name: /Vsebina/ }).click();
  await page.keyboard.type('Nova priporočila za svetovanje pri antikoagulantih.');
  await page.getByRole('textbox', { name: 'Naslov, ki ga odpre gumb' }).fill('https://zdravje.si/smernice');
  await page.getByRole('textbox', { name: 'Besedilo gumba' }).fill('Preberi smernico');
  await page.getByRole('combobox', { name: 'Poklici' }).click();
  await page.getByRole('option', { name: 'Magister farmacije' }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('switch', { name: 'Aktivna' }).check();
  await page.getByRole('button', { name: 'Ustvari' }).click();
  await expect(page).toHaveURL(/\/admin\/news\/\d+$/);
  newsUrl = new URL(page.url()).pathname;
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.getByTestId('news-state')).toHaveText('Prikazuje se');
  await expect(page.getByTestId('news-item-reach-shown')).toContainText('0');
  await accessible(page, '/admin/news/{id}');
});

test('the participant sees the pop-up once on /izobrazevanja, defers it and does not see it again in the session', async ({ page }) => {
  await logIn(page, 'udelezenec', '/prijava?redirect=%2Fizobrazevanja');
  await expect(page).toHaveURL(/\/izobrazevanja$/);
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  // The header line is the title cut at 32 characters plus an ellipsis; the body has it whole.
  await expect(dialog.getByRole('heading').first()).toHaveText(`${title.slice(0, 32).trimEnd()}…`);
  await expect(dialog.getByText(title, { exact: true })).toBeVisible();
  await expect(dialog.getByTestId('news-popup-content')).toContainText('Nova priporočila za svetovanje pri antikoagulantih.');
  await expect(dialog.getByRole('link', { name: 'Preberi smernico' })).toHaveAttribute('href', 'https://zdravje.si/smernice');
  await accessible(page, 'news pop-up');
  expect(await page.evaluate(() => sessionStorage.getItem('news_shown_date'))).toMatch(/^\d{4}-\d\d-\d\dT/);

  await dialog.getByRole('button', { name: 'Kasneje' }).click();
  await expect(dialog).toHaveCount(0);
  // Deferred, the server would still offer it; the browser session keeps it away for 24 hours.
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  const offered = await page.request.get('/api/news/user?location[]=1', { headers: { Authorization: `JWT ${token}` } });
  expect(offered.status()).toBe(200);
  expect(((await offered.json()) as { title: string }).title).toBe(title);
  for (const path of ['/', '/izobrazevanja', '/powerclass']) {
    await page.goto(path);
    await expect(page.getByTestId('user-menu')).toBeVisible();
    await noPopup(page);
  }
  await page.reload();
  await noPopup(page);
});

test('in a new session the participant sees it again and declines it; then it is gone for them', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await logIn(page, 'udelezenec');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Ne zanima me' }).click();
  await expect(dialog).toHaveCount(0);
  // Declined, it leaves the home page's news card too.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('home-news').filter({ hasText: title })).toHaveCount(0);
  await context.close();

  const again = await browser.newContext();
  const next = await again.newPage();
  await logIn(next, 'udelezenec', '/prijava?redirect=%2Fpowerclass');
  await noPopup(next);
  await again.close();
});

test('the admin sees the actions counted', async ({ page }) => {
  await logIn(page, 'admin');
  await page.goto('/admin/news');
  const row = page.locator('tr', { hasText: title });
  await expect(row.getByTestId('news-state')).toHaveText('Prikazuje se');
  await expect(row.getByTestId('news-reach-shown')).toHaveText('2× (1 oseba)');
  await expect(row.getByTestId('news-reach-deferred')).toHaveText('1× (1 oseba)');
  await expect(row.getByTestId('news-reach-declined')).toHaveText('1× (1 oseba)');
  await expect(row.getByTestId('news-reach-engaged')).toHaveText('0× (0 oseb)');
  await accessible(page, '/admin/news with reach');

  await row.getByRole('link', { name: title }).click();
  await expect(page.getByTestId('news-item-reach-shown')).toContainText('2');
  await page.getByRole('button', { name: 'Izbriši' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Izbriši' }).click();
  await expect(page).toHaveURL(/\/admin\/news$/);
  await expect(page.locator('tr', { hasText: title })).toHaveCount(0);
  newsUrl = '';
});
