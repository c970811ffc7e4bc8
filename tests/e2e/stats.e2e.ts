import { type APIRequestContext, expect, test } from '@playwright/test';
import { CONSENT_TEXTS } from '../../domain/consents/consent.rules.ts';
import { apiToken, courseIdByTitle, logIn } from './support.ts';

const COURSE = 'Interakcije zdravil v lekarni';

/** The demo course and its NPS block, as the admin API lists them. */
const demoCourse = async (request: APIRequestContext, adminToken: string) => {
  const headers = { authorization: `JWT ${adminToken}` };
  const id = await courseIdByTitle(request, headers, COURSE);
  const course = (await (await request.get(`/api/courses/${id}`, { headers })).json()) as { blocks: { id: number; kind: string }[] };
  const block = (kind: string) => course.blocks.find((b) => b.kind === kind)?.id as number;
  return { id, video: block('video'), quiz: block('quiz'), nps: block('nps'), points: block('points') };
};

test("an admin's open NPS page changes when a participant answers in another browser, without a reload", async ({ page, browser }) => {
  await logIn(page, 'admin');
  const course = await demoCourse(page.request, await apiToken(page, 'admin'));
  // From the menu: Podatki > Statistika, then the course's NPS.
  await page.locator('header [data-menu="data"]').click();
  await page.getByRole('menuitem', { name: 'Statistika' }).click();
  await expect(page).toHaveURL(/\/admin\/stats$/);
  await page.getByRole('row').filter({ hasText: COURSE }).getByRole('link', { name: 'NPS' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/courses/${course.id}/nps/${course.nps}/overview/0$`));
  await expect(page.getByRole('heading', { name: 'NPS – pregled' })).toBeVisible();
  const answers = page.getByTestId('nps-answers');
  await expect(answers).toHaveText(/\d+/);
  const before = Number(await answers.textContent());
  // /admin/stats open in a second tab (issue 33 item 4): it kept an old figure until a reload.
  const platform = await page.context().newPage();
  await platform.goto('/admin/stats');
  const completions = platform.getByTestId('platform-completions');
  await expect(completions).toHaveText(/^\d+$/);
  const completedBefore = Number(await completions.textContent());

  // Another browser: the participant nov goes through the course up to the NPS block.
  const other = await browser.newContext();
  const token = await apiToken(await other.newPage(), 'nov');
  const post = async (path: string, data?: object) => {
    const response = await other.request.post(`/api/user-courses/${course.id}${path}`, {
      headers: { authorization: `JWT ${token}` },
      ...(data ? { data } : {}),
    });
    expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
  };
  await other.request.post('/api/users/me/consents', {
    headers: { authorization: `JWT ${token}` },
    data: { consents: CONSENT_TEXTS.map((t) => ({ type: t.type, textVersion: t.version })) },
  });
  await post('/start');
  await post(`/blocks/${course.video}/open`);
  await post(`/blocks/${course.video}/video-progress`, { seconds: 8, duration: 8 });
  await post(`/blocks/${course.quiz}/open`);
  await post(`/blocks/${course.quiz}/quiz`, { answers: { q1: 'a', q2: 'b' } });
  await post(`/blocks/${course.nps}/open`);
  const answeredAt = Date.now();
  await post(`/blocks/${course.nps}/nps`, { score: 10, reasons: ['Uporabno za delo'], comment: 'Zelo uporabno' });

  await expect(answers).toHaveText(String(before + 1), { timeout: 2_000 });
  expect(Date.now() - answeredAt).toBeLessThan(2_000);
  await expect(page.getByText('Zelo uporabno')).toBeVisible();
  // The participant finishes the course: the open /admin/stats counts it within 2 s.
  await post(`/blocks/${course.points}/open`);
  await expect(completions).toHaveText(String(completedBefore + 1), { timeout: 2_000 });
  await platform.close();
  await other.close();

  // As of a time before the answer: the figure as it stood then.
  await page.getByTestId('stats-as-of').fill('1. 1. 2020 00:00');
  await page.getByRole('button', { name: 'Prikaži', exact: true }).click();
  await expect(answers).toHaveText('0');
});

test('the accountant reads the cost timeline of their company and has no edit control; the admin is told why the active course’s costs are not edited', async ({
  page,
}) => {
  await logIn(page, 'racunovodja');
  const course = await demoCourse(page.request, await apiToken(page, 'admin'));
  // From the menu: the company's costs, then the course.
  await page.locator('header [data-menu="companyCosts"]').click();
  await expect(page.getByRole('heading', { name: 'Stroški podjetja' })).toBeVisible();
  await expect(page.getByText('Lekarne Zdravje d.o.o.')).toBeVisible();
  await page.getByTestId('company-courses').getByRole('link', { name: COURSE }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/courses/${course.id}/costs/0$`));
  await expect(page.getByRole('heading', { name: 'Stroški' })).toBeVisible();
  await expect(page.getByTestId('costs-items')).toContainText('Produkcija');
  await expect(page.getByTestId('costs-items')).toContainText('450,00 €');
  await expect(page.getByTestId('costs-final')).toContainText('€');
  await expect(page.getByTestId('costs-timeline')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Uredi stroške' })).toHaveCount(0);
  // The course's tabs are for its authors (1017): the accountant reaches this one page only.
  await expect(page.getByRole('navigation', { name: 'Zavihki izobraževanja' })).toHaveCount(0);

  await page.goto('/prijava');
  await page.evaluate(() => localStorage.clear());
  await logIn(page, 'admin');
  await page.goto(`/admin/courses/${course.id}/costs/0`);
  // The demo course is published and open (spec §4: costs are not edited while it is active).
  await expect(page.getByTestId('costs-locked')).toHaveText('Stroškov ni mogoče urejati, ko je izobraževanje aktivno.');
  await expect(page.getByRole('button', { name: 'Uredi stroške' })).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Zavihki izobraževanja' }).getByRole('link', { name: 'Stroški' })).toHaveAttribute('aria-current', 'page');
});
