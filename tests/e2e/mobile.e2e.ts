import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { apiToken, logIn, seriousAxeViolations } from './support.ts';

/**
 * Issue 18 item 5: a 390x844 phone. The course page's primary action is above the fold however long
 * the comment thread, no label or button is cut (the footer's eight links, the finished course's
 * button, badges), admin tables scroll inside their card instead of clipping the page, tooltips close;
 * and each role's main task can be done on the phone.
 */
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

const post = async (request: APIRequestContext, token: string, url: string, data?: unknown) => {
  const response = await request.post(url, { headers: { authorization: `JWT ${token}` }, ...(data === undefined ? {} : { data }) });
  expect(response.status(), `${url}: ${await response.text()}`).toBeLessThan(300);
  return (await response.json()) as { id: number };
};

/** Whether the text of the element is shown whole: nothing clipped or replaced by an ellipsis. */
const whole = async (locator: Locator) =>
  locator.evaluate((element) => {
    const clipped = (e: Element) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible';
    return ![element, ...element.querySelectorAll('*')].some(clipped) && !(element.textContent ?? '').includes('…');
  });

/** The page itself does not scroll sideways: nothing sticks out of a 390 px screen. */
const noSidewaysPage = async (page: Page) => expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

test('a participant on a phone: every footer label whole, the course action above a long comment thread, the finished button whole', async ({ page }) => {
  // A course for everyone with a long thread of questions, as a busy course has.
  const admin = await apiToken(page, 'admin');
  const title = `Mobilno izobraževanje ${Date.now()}`;
  const course = await post(page.request, admin, '/api/courses', {
    type: 3,
    title,
    description: 'Izobraževanje z dolgim opisom, ki ga preberemo na telefonu. '.repeat(6),
    cover: '/c.svg',
    creditPoints: 1,
    public: true,
    postsEnabled: true,
  });
  await post(page.request, admin, `/api/courses/${course.id}/blocks`, { block: { kind: 'article', name: 'Uvod', html: '<p>Kratko besedilo.</p>' } });
  await post(page.request, admin, `/api/courses/${course.id}/publish`);
  const pharmacist = await apiToken(page, 'lekarnar');
  // The published course reaches the participant's read model a moment later.
  await expect(async () => {
    const response = await page.request.get(`/api/user-courses/${course.id}`, { headers: { authorization: `JWT ${pharmacist}` } });
    expect(response.status()).toBe(200);
  }).toPass();
  for (let i = 1; i <= 6; i++) {
    await post(page.request, pharmacist, '/api/post', { courseId: course.id, message: `Vprašanje številka ${i}: ${'kako svetujemo bolniku? '.repeat(8)}` });
  }

  await logIn(page, 'lekarnar');
  const footer = page.getByRole('navigation', { name: 'Hitra navigacija' });
  await expect(footer.getByRole('link')).toHaveCount(8);
  for (const link of await footer.getByRole('link').all()) expect(await whole(link), (await link.textContent()) ?? '').toBe(true);
  await expect(footer.getByRole('link', { name: 'Izobraževanja' })).toBeVisible();

  await page.goto('/izobrazevanja');
  await page.locator('[data-course]').filter({ hasText: title }).click();
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await expect(page.getByText('Vprašanje številka 6').first()).toBeAttached();
  const start = page.getByRole('button', { name: 'Začni izobraževanje' });
  await expect(start).toBeInViewport({ ratio: 1 });
  await noSidewaysPage(page);
  await start.tap();
  // Its only block is an article: opening it completes the course.
  await expect(page).toHaveURL(new RegExp(`/izobrazevanja/${course.id}/konec$`));
  await noSidewaysPage(page);

  // Back on the course page: the finished course's button says all of it, and is still first.
  await page.goto(`/izobrazevanja/${course.id}`);
  const finished = page.getByRole('link', { name: 'Čestitamo! Izobraževanje je zaključeno.' });
  await expect(finished).toBeInViewport({ ratio: 1 });
  expect(await whole(finished)).toBe(true);
});

test('an admin on a phone: a wide table scrolls inside its card, its badges whole, and a hint closes when tapped elsewhere', async ({ page }) => {
  await logIn(page, 'admin');
  await page.goto('/admin/courses');
  const table = page.getByRole('table', { name: 'Izobraževanja' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  await noSidewaysPage(page);
  // The table is wider than the screen and scrolls sideways within its labelled region (decision 0056).
  const region = page.locator('[data-table-region]').filter({ has: table });
  const scroll = await region.evaluate((e) => ({ scrollWidth: e.scrollWidth, clientWidth: e.clientWidth, overflowX: getComputedStyle(e).overflowX }));
  expect(scroll.overflowX).toBe('auto');
  expect(scroll.scrollWidth).toBeGreaterThan(scroll.clientWidth);
  for (const badge of await table.locator('.mantine-Badge-root').all()) expect(await whole(badge), (await badge.textContent()) ?? '').toBe(true);

  // The account switcher's hint: shown on a tap, gone when the menu opens and after it closes.
  await page.getByTestId('account-switcher').tap();
  await expect(page.getByRole('menu')).toBeVisible();
  await expect(page.getByRole('tooltip')).toHaveCount(0);
  await page.getByRole('heading', { name: 'Izobraževanja', level: 1 }).tap();
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(page.getByRole('tooltip')).toHaveCount(0);
});

test('each role’s main task on a phone', async ({ browser }) => {
  test.setTimeout(120_000);
  const tasks: [string, (page: Page) => Promise<void>][] = [
    [
      'vodja',
      async (page) => {
        // The manager reaches their community's figures through the mobile menu.
        await page.getByRole('button', { name: 'Odpri meni' }).tap();
        await page.getByRole('link', { name: 'Statistika' }).tap();
        await expect(page).toHaveURL(/\/statistika$/);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      },
    ],
    [
      'racunovodja',
      async (page) => {
        // No menu button for the accountant (spec §2): their pages are in the user menu on a phone.
        await expect(page.getByTestId('mobile-menu-button')).toHaveCount(0);
        await page.getByTestId('user-menu').tap();
        await page.getByRole('menuitem', { name: 'Stroški' }).tap();
        await expect(page).toHaveURL(/\/stroski$/);
        await expect(page.getByRole('heading', { name: 'Stroški podjetja', level: 1 })).toBeVisible();
      },
    ],
    [
      'revizor',
      async (page) => {
        await page.getByTestId('user-menu').tap();
        await page.getByRole('menuitem', { name: 'Revizija privolitev' }).tap();
        await expect(page).toHaveURL(/\/revizija\/privolitve$/);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      },
    ],
    [
      'udelezenec',
      async (page) => {
        await page.getByRole('navigation', { name: 'Hitra navigacija' }).getByRole('link', { name: 'Zaključeno' }).tap();
        await expect(page).toHaveURL(/filter=completed/);
      },
    ],
  ];
  for (const [username, task] of tasks) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, locale: 'sl-SI', timezoneId: 'Europe/Ljubljana' });
    const page = await context.newPage();
    await logIn(page, username);
    await task(page);
    await noSidewaysPage(page);
    await context.close();
  }
});

test('issue 33: on a phone the header and footer, hidden after scrolling, are out of the Tab order; a Tab brings them back', async ({ page }) => {
  // The login page's social buttons say their whole labels on a phone ("Prijava z Googl" before).
  await page.goto('/prijava');
  for (const name of ['Prijava z Googlom', 'Prijava s Facebookom']) expect(await whole(page.getByRole('link', { name })), name).toBe(true);

  await logIn(page, 'udelezenec');
  await page.goto('/izobrazevanja');
  await expect(page.locator('[data-course]').first()).toBeVisible();
  const header = page.getByTestId('app-header');
  const footer = page.getByTestId('mobile-footer');
  await page.mouse.wheel(0, 400);
  await expect(header).toHaveAttribute('data-hidden', 'true');
  await expect(footer).toHaveAttribute('data-hidden', 'true');
  for (const bar of [header, footer]) {
    await expect(bar).toHaveAttribute('inert', '');
    await expect(bar).toHaveAttribute('aria-hidden', 'true');
  }
  // Hidden, their links take no focus (they were reached off the screen, at y=845 on an 844 px screen).
  const footerLink = footer.getByRole('link', { name: 'Domov', includeHidden: true });
  await footerLink.evaluate((link: HTMLElement) => link.focus());
  expect(await footerLink.evaluate((link) => link === document.activeElement)).toBe(false);

  // A keyboard user is not left without them: a Tab shows them again, in the Tab order, and the focus stays on the screen.
  await page.keyboard.press('Tab');
  await expect(header).toHaveAttribute('data-hidden', 'false');
  await expect(footer).not.toHaveAttribute('inert');
  await expect(page.locator(':focus')).toBeInViewport();
  // Scrolled away again from a course further down, Shift+Tab (towards the header) shows them as well.
  await page.locator('[data-course] a, a[data-course]').nth(1).focus();
  await page.mouse.wheel(0, 600);
  await expect(header).toHaveAttribute('inert', '');
  await page.keyboard.press('Shift+Tab');
  await expect(header).not.toHaveAttribute('inert');
  await expect(page.locator(':focus')).toBeInViewport();
});

test('issue 33: the auditor on a phone meets no page that refuses: footer and home offer only what the role opens', async ({ page }) => {
  const refused: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 403) refused.push(`${response.request().method()} ${new URL(response.url()).pathname}`);
  });
  await logIn(page, 'revizor');
  const footer = page.getByRole('navigation', { name: 'Hitra navigacija' });
  await expect(footer.getByRole('link')).toHaveText(['Domov', 'Novice']);
  // The home page names the auditor's own pages as links (it said courses were in a main menu the auditor has not).
  const pages = page.getByRole('navigation', { name: 'Strani, ki so vam na voljo:' });
  await expect(pages.getByRole('link')).toHaveText(['Revizija privolitev', 'Revizijska sled odobritev', 'Izvozi']);
  for (const name of ['Revizija privolitev', 'Revizijska sled odobritev', 'Izvozi']) {
    await page.goto('/');
    await pages.getByRole('link', { name }).tap();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
  }
  await page.getByTestId('mobile-footer').getByRole('link', { name: 'Novice' }).tap();
  await expect(page).toHaveURL(/\/novicnik$/);
  await page.waitForLoadState('networkidle');
  expect(refused).toEqual([]);

  // Typed in by hand, the course lists still refuse the auditor: they say so of the list, readably (contrast).
  for (const [path, message] of [
    ['/izobrazevanja', 'Izobraževanj ni bilo mogoče naložiti.'],
    ['/powerclass', 'Akademij ni bilo mogoče naložiti.'],
  ]) {
    await page.goto(path);
    await expect(page.getByText(message)).toBeVisible();
    expect(await seriousAxeViolations(page), path).toEqual([]);
  }
});
