import { expect, type Page, test } from '@playwright/test';
import { CONSENT_TEXTS } from '../../domain/consents/consent.rules.ts';
import { apiToken, courseIdByTitle, logIn } from './support.ts';

/**
 * Issue 18 item 6: every accessible name is Slovenian. Mantine names some of its own controls in
 * English ("Toggle password visibility", "autosize measurement", a calendar's "Next month" ...) or
 * leaves them unnamed; the theme (ui/src/app/app.tsx) names them. This test reads every accessible
 * name Chromium computes (its accessibility tree) and every naming attribute in the page, hidden
 * elements included, on representative pages, and fails on English built-in labels.
 */
const ENGLISH = [
  'toggle password visibility',
  'autosize measurement',
  'close',
  'clear',
  'next',
  'previous',
  'next month',
  'previous month',
  'next year',
  'previous year',
  'next decade',
  'previous decade',
  'scroll left',
  'scroll right',
  'actions',
  'resize window',
  'loading',
  'loading...',
  'open',
  'menu',
  'remove',
  'search',
  'select',
  'first page',
  'last page',
  'previous page',
  'next page',
  'show more',
  'hide',
  'dismiss',
  'notification',
  'dialog',
];

const namesOn = async (page: Page) => {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: { name?: { value?: unknown } }[] };
  await cdp.detach();
  const tree = nodes.map((node) => node.name?.value).filter((name): name is string => typeof name === 'string');
  const attributes = await page.evaluate(() => {
    const names = ['aria-label', 'title', 'placeholder', 'alt', 'aria-roledescription', 'aria-valuetext', 'aria-placeholder'];
    return [...document.querySelectorAll(names.map((n) => `[${n}]`).join(','))].flatMap((el) =>
      names.map((n) => el.getAttribute(n)).filter((v): v is string => !!v),
    );
  });
  return [...new Set([...tree, ...attributes].map((name) => name.trim()).filter(Boolean))];
};

/** The names on the page that are one of Mantine's (or a browser's) English defaults. */
const english = async (page: Page, where: string) => {
  const names = await namesOn(page);
  expect(names.length, where).toBeGreaterThan(3);
  return names.filter((name) => ENGLISH.includes(name.toLowerCase())).map((name) => `${where}: ${name}`);
};

const settle = (page: Page) => page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);

test('the login page, forms with text areas, dialogs, calendars, tables and a quiz name their controls in Slovenian', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const found: string[] = [];

  // Signed out: the login form's password field and its visibility toggle.
  await page.goto('/prijava');
  await expect(page.getByRole('textbox', { name: 'Geslo' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pokaži znake' })).toHaveCount(1);
  found.push(...(await english(page, '/prijava')));

  await logIn(page, 'admin');
  const headers = { authorization: `JWT ${await apiToken(page, 'admin')}` };
  const course = await courseIdByTitle(page.request, headers, 'Interakcije zdravil v lekarni');
  const quizCourse = await courseIdByTitle(page.request, headers, 'Samozdravljenje prehlada');
  const scheduled = await courseIdByTitle(page.request, headers, 'Nova zdravila za sladkorno bolezen');

  // A dialog with a password field: the account switcher's "add account".
  await page.getByRole('button', { name: 'Zamenjaj račun' }).click();
  await page.getByRole('menuitem', { name: 'Dodaj račun' }).click();
  const dialog = page.getByRole('dialog', { name: 'Dodaj račun' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Zapri', exact: true })).toBeVisible();
  found.push(...(await english(page, 'account dialog')));
  await dialog.getByRole('button', { name: 'Zapri', exact: true }).click();
  await expect(dialog).toHaveCount(0);

  // A scheduled course's general form: text areas that grow (autosize) and date fields with their calendar.
  await page.goto(`/admin/courses/${scheduled}/general`);
  await settle(page);
  await expect(page.locator('main textarea').first()).toBeVisible();
  await page.getByRole('button', { name: 'Izberi datum v koledarju' }).first().click();
  await expect(page.getByRole('button', { name: 'Naslednji mesec' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Prejšnji mesec' })).toBeVisible();
  // Mantine's hidden measuring text area is there once an autosize field has measured itself.
  await expect(page.locator('body > textarea[aria-hidden="true"]')).toHaveAttribute('aria-label', 'Merjenje višine besedila');
  found.push(...(await english(page, 'course general form')));
  await page.keyboard.press('Escape');

  // Lists: a table with pagination and clearable filters; the course list with its publish dialog.
  for (const path of ['/admin/users', '/admin/courses', '/admin/news', `/admin/courses/${course}/posts`]) {
    await page.goto(path);
    await settle(page);
    await expect(page.locator('main h1').first()).toBeVisible();
    found.push(...(await english(page, path)));
  }

  // A participant: the course page with its comment form (autosize) and a quiz.
  const participant = { authorization: `JWT ${await apiToken(page, 'lekarnar')}` };
  await page.request.post('/api/users/me/consents', {
    headers: participant,
    data: { consents: CONSENT_TEXTS.map((t) => ({ type: t.type, textVersion: t.version })) },
  });
  await page.request.post(`/api/user-courses/${quizCourse}/start`, { headers: participant });
  // Its first block (an article) is read by opening it; the quiz is the second.
  const blocks = ((await (await page.request.get(`/api/courses/${quizCourse}`, { headers })).json()) as { blocks: { id: number; kind: string }[] }).blocks;
  const article = blocks.find((b) => b.kind === 'article')?.id as number;
  expect((await page.request.post(`/api/user-courses/${quizCourse}/blocks/${article}/open`, { headers: participant })).status()).toBeLessThan(300);
  const other = await browser.newPage();
  await logIn(other, 'lekarnar');
  await other.goto(`/izobrazevanja/${course}`);
  await settle(other);
  await expect(other.getByLabel('Vaš komentar ali vprašanje')).toBeVisible();
  found.push(...(await english(other, 'course page')));
  await other.goto(`/izobrazevanja/${quizCourse}/bloki/2`);
  await settle(other);
  await expect(other.getByRole('radio').first()).toBeVisible();
  found.push(...(await english(other, 'quiz')));
  await other.close();

  expect(found).toEqual([]);
});
