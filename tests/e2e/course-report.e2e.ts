import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { CONSENT_TEXTS } from '../../domain/consents/consent.rules.ts';
import { pdfRenderers, pngInk, renderPdfPage } from '../support/pdf-render.ts';
import { pdfText } from '../support/pdf-text.ts';
import { apiToken, courseIdByTitle, logIn, seriousAxeViolations } from './support.ts';

const COURSE = 'Interakcije zdravil v lekarni';
const number = new Intl.NumberFormat('sl-SI', { useGrouping: 'always', maximumFractionDigits: 1 });

/** The demo course and its blocks, as the admin API lists them. */
const demoCourse = async (request: APIRequestContext, headers: Record<string, string>) => {
  const id = await courseIdByTitle(request, headers, COURSE);
  const course = (await (await request.get(`/api/courses/${id}`, { headers })).json()) as { blocks: { id: number; kind: string }[] };
  const block = (kind: string) => course.blocks.find((b) => b.kind === kind)?.id as number;
  return { id, video: block('video'), quiz: block('quiz'), nps: block('nps'), points: block('points') };
};

/**
 * A participant of the demo's Lekarna Center, made for this test (so no other suite's participant
 * changes), who takes the course to the end, answers its NPS survey and leaves a comment.
 */
const participantTakesCourse = async (request: APIRequestContext, admin: Record<string, string>, course: Awaited<ReturnType<typeof demoCourse>>) => {
  const template = (await (await request.get('/api/users/me', { headers: { authorization: `JWT ${await tokenOf(request, 'udelezenec')}` } })).json()) as {
    profession: { id: number } | null;
    userRoles: { role_id: number; unit_id: number; company_id: number }[];
  };
  const place = template.userRoles.find((r) => r.role_id === 10) as { unit_id: number; company_id: number };
  const tag = Date.now().toString(36);
  const created = await request.post('/api/users', {
    headers: admin,
    data: {
      username: `porocilo${tag}`,
      email: `porocilo${tag}@demo.si`,
      firstName: 'Zala',
      lastName: 'Poročilna',
      phone: '041 123 456',
      professionId: template.profession?.id ?? null,
      licenceNumber: '12345',
      roles: [{ roleId: 10, companyId: place.company_id, unitId: place.unit_id }],
      sendWelcome: false,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const userId = ((await created.json()) as { id: number }).id;
  const link = (await (await request.post(`/api/users/${userId}/login-tokens`, { headers: admin })).json()) as { token: string };
  const session = (await (await request.post('/api/auth/token', { data: { token: link.token } })).json()) as { authToken: string };
  const headers = { authorization: `JWT ${session.authToken}` };
  const consents = await request.post('/api/users/me/consents', {
    headers,
    data: { consents: CONSENT_TEXTS.map((t) => ({ type: t.type, textVersion: t.version })) },
  });
  expect(consents.status(), await consents.text()).toBeLessThan(300);
  const step = async (path: string, data?: object) => {
    const response = await request.post(`/api/user-courses/${course.id}${path}`, { headers, ...(data ? { data } : {}) });
    expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
  };
  await step('/start');
  await step(`/blocks/${course.video}/open`);
  await step(`/blocks/${course.video}/video-progress`, { seconds: 8, duration: 8 });
  await step(`/blocks/${course.quiz}/open`);
  await step(`/blocks/${course.quiz}/quiz`, { answers: { q1: 'a', q2: 'b' } });
  await step(`/blocks/${course.nps}/open`);
  await step(`/blocks/${course.nps}/nps`, { score: 9, reasons: ['Jasna razlaga'], comment: null });
  await step(`/blocks/${course.points}/open`);
  const comment = await request.post('/api/post', { headers, data: { courseId: course.id, message: 'Odlično izobraževanje, več primerov iz prakse prosim.' } });
  expect(comment.status(), await comment.text()).toBe(201);
};

/** No serious or critical accessibility violation (axe-core), and a screenshot kept for review. */
const accessible = async (page: Page, name: string) => {
  await expect(page.locator('[role="status"]')).toHaveCount(0);
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.screenshot({ path: join('test-results', 'screenshots', `${name}.png`), fullPage: true });
};

const tokenOf = async (request: APIRequestContext, username: string) => {
  const response = await request.post('/api/auth/login', { data: { usernameOrEmail: username, password: 'Demo1234!' } });
  return ((await response.json()) as { authToken: string }).authToken;
};

test('an admin generates the report of the demo course, prints it, downloads its PDF, and finds it in the log', async ({ page }) => {
  test.setTimeout(120_000);
  const adminToken = await apiToken(page, 'admin');
  const admin = { authorization: `JWT ${adminToken}` };
  const course = await demoCourse(page.request, admin);
  await participantTakesCourse(page.request, admin, course);

  // The report tab, from the course's tabs.
  await logIn(page, 'admin');
  await page.goto(`/admin/courses/${course.id}/general`);
  await page.getByRole('navigation', { name: 'Zavihki izobraževanja' }).getByRole('link', { name: 'Poročilo' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/courses/${course.id}/report$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Poročilo o izobraževanju' })).toBeVisible();
  await expect(page.getByText(COURSE).first()).toBeVisible();
  const logRows = page.getByTestId('report-log-row');
  const before = await logRows.count();

  // Interval: all time (the default); per unit and NPS reasons on.
  await expect(page.getByTestId('report-interval')).toHaveValue('Ves čas');
  await page.getByLabel('Po enotah').check();
  await page.getByLabel('Razlogi NPS').check();
  await page.getByRole('button', { name: 'Pripravi poročilo' }).click();
  await expect(page.getByText('Poročilo je pripravljeno.')).toBeVisible();
  await expect(page).toHaveURL(/\?reportId=\d+$/);
  const reportId = Number(new URL(page.url()).searchParams.get('reportId'));
  await expect(page.getByTestId('report-heading')).toHaveText(`Poročilo št. ${reportId}`);

  // The figures are those of the statistics, as of the report's date.
  const log = (await (await page.request.get(`/api/courses/${course.id}/reports`, { headers: admin })).json()) as {
    items: { id: number; date: string; user: { name: string } }[];
  };
  const entry = log.items.find((i) => i.id === reportId) as { date: string; user: { name: string } };
  const stats = (await (
    await page.request.get(`/api/courses/${course.id}/success?intervalId=0&asOf=${encodeURIComponent(entry.date)}`, { headers: admin })
  ).json()) as { success: { started: number; completed: number } };
  expect(stats.success.completed).toBeGreaterThan(0);
  await expect(page.getByTestId('report-participants')).toHaveText(number.format(stats.success.started));
  await expect(page.getByTestId('report-completions')).toHaveText(number.format(stats.success.completed));
  await expect(page.getByTestId('report-comment').first()).toContainText('Odlično izobraževanje');
  await expect(page.getByText('Jasna razlaga')).toBeVisible();

  // The report appears in the log, with who made it.
  await expect(logRows).toHaveCount(before + 1);
  const row = logRows.filter({ hasText: String(reportId) }).first();
  await expect(row).toContainText(entry.user.name);
  await expect(row).toContainText('Ves čas');
  await mkdir(join('test-results', 'screenshots'), { recursive: true });
  await accessible(page, 'course-report-tab');

  // The print view: the same report, no app chrome, ready for paper.
  await page.getByRole('link', { name: 'Pogled za tisk' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/courses/${course.id}/report/print\\?reportId=${reportId}$`));
  await expect(page.locator('main h1')).toHaveText('Poročilo o izobraževanju');
  await expect(page.getByTestId('user-menu')).toHaveCount(0);
  await expect(page.getByTestId('report-participants')).toHaveText(number.format(stats.success.started));
  await accessible(page, 'course-report-print-screen');
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('button', { name: 'Natisni' })).toBeHidden();
  await page.screenshot({ path: join('test-results', 'screenshots', 'course-report-print.png'), fullPage: true });
  await page.emulateMedia({ media: 'screen' });
  await page.getByRole('link', { name: 'Nazaj na poročilo' }).click();

  // The PDF: its first page shows the course's figures, drawn.
  await expect(page.getByTestId('report-heading')).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Prenesi PDF' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/courses/${course.id}/report/download/${reportId}$`));
  const file = await download;
  expect(file.suggestedFilename()).toBe(`porocilo-${course.id}-${reportId}.pdf`);
  const pdf = await readFile((await file.path()) as string);
  await expect(page.getByTestId('report-download-done')).toBeVisible();
  await accessible(page, 'course-report-download');
  const text = await pdfText(pdf);
  const firstPage = text.split('stran 1 od')[0] ?? '';
  for (const expected of [
    'Poročilo o izobraževanju',
    COURSE,
    'Obdobje: ves čas',
    `Udeleženci ${number.format(stats.success.started)}`,
    `Zaključili ${number.format(stats.success.completed)}`,
    'Podeljene kreditne točke',
    `poročilo št. ${reportId}`,
  ])
    expect(firstPage, expected).toContain(expected);
  expect(text).toContain('Odlično izobraževanje, več primerov iz prakse prosim.');
  for (const renderer of pdfRenderers()) {
    const png = await renderPdfPage(pdf, renderer, 1);
    await test.info().attach(`report-page-1-${renderer}.png`, { body: png, contentType: 'image/png' });
    const ink = await pngInk(png);
    expect(ink.ink, renderer).toBeGreaterThan(0.03);
    expect(ink.colour, renderer).toBeGreaterThan(0.005);
  }
});
