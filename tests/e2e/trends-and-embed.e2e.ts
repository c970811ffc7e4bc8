import { type APIRequestContext, expect, test } from '@playwright/test';
import { apiToken, logIn } from './support.ts';

/**
 * Issue 17 item 7: /admin/stats shows the platform's trends per month (charts and a table), live;
 * /glp lists the public courses without logging in, opens them in the whole window, and is the one
 * page other sites may frame.
 */
const thisMonth = () => {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Ljubljana', year: 'numeric', month: '2-digit' }).formatToParts(new Date());
  return `${parts.find((p) => p.type === 'year')?.value}-${parts.find((p) => p.type === 'month')?.value}`;
};
/** "nov. 2026", as the page writes a month. */
const monthLabel = (month: string) =>
  new Intl.DateTimeFormat('sl-SI', { timeZone: 'Europe/Ljubljana', month: 'short', year: 'numeric' }).format(new Date(`${month}-15T12:00:00Z`));

/** A published course made by the admin through the API; its id. */
const publishedCourse = async (request: APIRequestContext, token: string, course: object, block: object) => {
  const headers = { authorization: `JWT ${token}` };
  const created = await request.post('/api/courses', { headers, data: course });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { id: number }).id;
  expect((await request.post(`/api/courses/${id}/blocks`, { headers, data: { block } })).status()).toBe(201);
  const published = await request.post(`/api/courses/${id}/publish`, { headers });
  expect(published.status(), await published.text()).toBe(200);
  return id;
};

test("an admin sees the platform's trends per month, this month's numbers in the table, updated live", async ({ page, browser }) => {
  await logIn(page, 'admin');
  const token = await apiToken(page, 'admin');
  const surveyId = await publishedCourse(
    page.request,
    token,
    {
      type: 9,
      title: `Anketa o trendih ${Date.now().toString(36)}`,
      description: 'Kako ste zadovoljni z izobraževanji?',
      cover: '/c.svg',
      creditPoints: 0,
      public: true,
    },
    {
      kind: 'nps',
      name: 'Mnenje',
      question: 'Kako verjetno bi nas priporočili?',
      set: 8,
      reasons: { detractor: ['Slabo'], neutral: ['V redu'], promoter: ['Odlično'] },
    },
  );

  await page.goto('/admin/stats');
  const trends = page.getByTestId('platform-trends');
  await expect(trends.getByRole('heading', { name: 'Gibanje po mesecih' })).toBeVisible();
  // Three charts, their x axis in Slovenian months.
  await expect(trends.getByRole('img', { name: 'Uporabniki in izobraževanja po mesecih' })).toBeVisible();
  await expect(trends.getByRole('img', { name: 'Certifikati in kreditne točke po mesecih' })).toBeVisible();
  await expect(trends.getByRole('img', { name: 'NPS po mesecih' })).toBeVisible();
  const month = thisMonth();
  // The x axis's own labels: recharts draws every axis's labels in one layer, in no fixed order.
  await expect(
    trends.getByRole('img', { name: 'NPS po mesecih' }).locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value').last(),
  ).toHaveText(monthLabel(month));

  // The table: 12 months, the last this one, with the numbers the API gives.
  const table = page.getByTestId('trends-table');
  await expect(table.locator('tbody tr')).toHaveCount(12);
  const row = table.locator(`tr[data-month="${month}"]`);
  await expect(row.getByRole('rowheader')).toHaveText(monthLabel(month));
  const api = (await (await page.request.get('/api/stats/trends', { headers: { authorization: `JWT ${token}` } })).json()) as {
    months: { month: string; users: number; enrollments: number; completions: number; certificates: number; nps: { answers: number } }[];
  };
  const now = api.months.at(-1);
  expect(now?.month).toBe(month);
  // The demo users were all registered this month.
  expect(now?.users).toBeGreaterThan(0);
  const cells = row.getByRole('cell');
  await expect(cells.nth(0)).toHaveText(new Intl.NumberFormat('sl-SI', { useGrouping: 'always' }).format(now?.users ?? 0));
  await expect(cells.nth(1)).toHaveText(String(now?.enrollments));
  await expect(cells.nth(2)).toHaveText(String(now?.completions));
  await expect(cells.nth(3)).toHaveText(String(now?.certificates));
  const answers = cells.nth(6);
  await expect(answers).toHaveText(String(now?.nps.answers));

  // A stranger answers the survey in another browser: this month's NPS answers grow without a reload.
  const other = await browser.newContext();
  const opened = await surveyOpened(other.request, surveyId);
  const answered = await other.request.post(`/api/surveys/${surveyId}/answers`, {
    data: { ballot: opened.ballot, answers: [{ blockId: opened.questions[0]?.blockId as number, score: 10 }] },
  });
  expect(answered.status(), await answered.text()).toBe(201);
  await other.close();
  await expect(answers).toHaveText(String((now?.nps.answers ?? 0) + 1), { timeout: 5_000 });
});

/** The survey as a stranger's browser is handed it: its questions and the ballot to answer with (decision 0049). */
const surveyOpened = async (request: APIRequestContext, surveyId: number) =>
  (await (await request.get(`/api/surveys/${surveyId}`)).json()) as { questions: { blockId: number }[]; ballot: string };

test('/glp lists a public course without logging in, opens it in the whole window, and only it may be framed', async ({ page, browser }) => {
  const admin = await browser.newContext();
  const token = await apiToken(await admin.newPage(), 'admin');
  const title = `Javno izobraževanje za partnerje ${Date.now().toString(36)}`;
  const courseId = await publishedCourse(
    admin.request,
    token,
    {
      type: 3,
      title,
      description: 'Izobraževanje, ki ga partnerji pokažejo na svoji strani.',
      cover: '/c.svg',
      creditPoints: 2,
      public: true,
      lecturer: 'dr. Ana Kovač',
    },
    { kind: 'points', name: 'Točke', points: 2 },
  );
  await admin.close();

  // Nobody is signed in on this page.
  const response = await page.goto('/glp');
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(/\/glp$/);
  const headers = response?.headers() ?? {};
  expect(headers['x-frame-options']).toBeUndefined();
  expect(headers['content-security-policy']).toContain('frame-ancestors *');
  expect(headers['content-security-policy']).not.toContain("frame-ancestors 'self'");
  // No app chrome: no header, menus or footer.
  await expect(page.getByRole('heading', { level: 1, name: 'Izobraževanja na platformi Medilearn' })).toBeVisible();
  await expect(page.locator('header')).toHaveCount(0);
  await expect(page.locator('footer')).toHaveCount(0);
  const link = page.getByRole('link', { name: new RegExp(title) });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('target', '_top');
  await expect(link).toHaveAttribute('href', `/izobrazevanja/${courseId}`);
  await expect(link).toContainText('Strokovno izobraževanje');
  await expect(link).toContainText('2 kreditni točki');
  await expect(link).toContainText('Predavatelj: dr. Ana Kovač');

  // Any other page still refuses to be framed.
  const courses = await page.request.get('/izobrazevanja');
  expect(courses.headers()['x-frame-options']).toBe('SAMEORIGIN');
  expect(courses.headers()['content-security-policy']).toContain("frame-ancestors 'self'");

  // Signed in: the same list, still without the app's chrome.
  await logIn(page, 'udelezenec');
  await page.goto('/glp');
  await expect(page.getByRole('link', { name: new RegExp(title) })).toHaveAttribute('target', '_top');
  await expect(page.getByTestId('user-menu')).toHaveCount(0);
});
