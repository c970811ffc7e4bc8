import { expect, type Page, test } from '@playwright/test';
import { type MenuItem, mainMenu, userMenuLinks } from '../../ui/src/app/layout/menu-model.ts';
import type { CurrentUser } from '../../ui/src/features/users/api/me.ts';
import { apiToken, courseIdByTitle, logIn, PHONE, resizeTo, seriousAxeViolations } from './support.ts';

/**
 * Issue 18 item 6: no serious or critical accessibility violation (axe-core) on the pages each demo
 * role reaches: its main menu and user menu (as menu-model.ts builds them from /api/users/me), the
 * links of its home page, and the key pages of its work. pages.e2e.ts checks every route as the admin;
 * this file checks what the other roles see there (their menus, refused actions, their own data).
 * Issue 33: each page is checked again as a 390x844 phone shows it (the same visit, resized: one
 * login and one load per page), with the links of the phone's footer too.
 */

/** extra: the role's key pages beside its menus; follow: pages whose first links (e.g. statistics of a course) are checked too. */
type Role = { username: string; extra: (ids: Ids) => string[]; follow?: string[] };
type Ids = { course: number; academy: number | null; company: number | null; participant: number };

const DESKTOP = { width: 1280, height: 720 };

const ROLES: Role[] = [
  {
    username: 'udelezenec',
    extra: ({ course, academy }) => [
      `/izobrazevanja/${course}`,
      '/izobrazevanja?filter=completed',
      ...(academy ? [`/powerclass/${academy}`] : []),
      '/profil/pogoji',
    ],
  },
  { username: 'urednik', extra: ({ course }) => ['/admin/courses', `/admin/courses/${course}/general`, '/admin/users/new'] },
  { username: 'vodja', extra: ({ company }) => (company ? [`/admin/companies/${company}`] : []), follow: ['/statistika'] },
  { username: 'direktor', extra: ({ company }) => (company ? [`/admin/companies/${company}`] : []), follow: ['/statistika'] },
  {
    username: 'racunovodja',
    extra: ({ course, company }) => [`/admin/courses/${course}/costs/0`, ...(company ? [`/admin/companies/${company}`] : [])],
    follow: ['/statistika'],
  },
  { username: 'narocnik', extra: ({ company }) => (company ? [`/admin/companies/${company}`] : []), follow: ['/statistika'] },
  // The consent history of one user, as the auditor reads it (issue 18: a contrast violation was seen there).
  { username: 'revizor', extra: ({ participant }) => ['/revizija/privolitve', `/revizija/privolitve?user=${participant}`] },
];

const flatten = (items: readonly MenuItem[]): string[] => items.flatMap((item) => [...(item.to ? [item.to] : []), ...flatten(item.children ?? [])]);
const isLive = (path: string) => /\/(nps|success|costs)\/|\/admin\/stats|\/stroski|\/statistika/.test(path);

/** `loaded`: the page has just been checked at another size, its data is in (no waiting for the network again). */
const axe = async (page: Page, path: string, loaded = false) => {
  if (!isLive(path) && !loaded) await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
  // The page's heading, or (where the role is refused) its message.
  await expect(page.locator('main h1, main [role="alert"]').first(), path).toBeVisible();
  // Loaders gone (recharts keeps a hidden tooltip with role=status on its charts).
  await expect(page.locator('.mantine-Loader-root'), path).toHaveCount(0);
  return (await seriousAxeViolations(page)).map((violation) => `${path} ${violation}`);
};

/** The page as a phone shows it (its footer in place), checked, and the desktop size back. */
const axeOnPhone = async (page: Page, path: string) => {
  await resizeTo(page, PHONE);
  await expect(page.getByTestId('mobile-footer'), path).toBeAttached();
  const violations = (await axe(page, path, true)).map((violation) => `390x844: ${violation}`);
  await resizeTo(page, DESKTOP);
  return violations;
};

const demoIds = async (page: Page): Promise<Ids> => {
  const headers = { authorization: `JWT ${await apiToken(page, 'admin')}` };
  const academies = (await (await page.request.get('/api/academies', { headers })).json().catch(() => ({ items: [] }))) as { items?: { id: number }[] };
  const companies = (await (await page.request.get('/api/companies', { headers })).json().catch(() => ({ items: [] }))) as {
    items?: { id: number; name: string }[];
  };
  const participant = (await (await page.request.get('/api/users/me', { headers: { authorization: `JWT ${await apiToken(page, 'udelezenec')}` } })).json()) as {
    id: number;
  };
  return {
    participant: participant.id,
    course: (await courseIdByTitle(page.request, headers, 'Interakcije zdravil v lekarni')) ?? 1,
    academy: academies.items?.[0]?.id ?? null,
    company: companies.items?.find((c) => c.name === 'Lekarne Zdravje d.o.o.')?.id ?? null,
  };
};

for (const role of ROLES) {
  test(`${role.username}: the pages of the menus, the home page and the role's work have no serious accessibility violation, on a desktop and a phone`, async ({
    page,
  }) => {
    test.setTimeout(300_000);
    const ids = await demoIds(page);
    const token = await apiToken(page, role.username);
    const me = (await (await page.request.get('/api/users/me', { headers: { authorization: `JWT ${token}` } })).json()) as CurrentUser;
    await page.setViewportSize(DESKTOP);
    await logIn(page, role.username);
    const violations = await axe(page, '/');
    violations.push(...(await axeOnPhone(page, '/')));
    // Where the home page leads (its own links in the main area).
    const homeLinks = await page
      .locator('main a[href^="/"]')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? '').filter((href) => href && !href.startsWith('/api/')));
    const paths = [
      ...new Set([...flatten(mainMenu(me)), ...flatten(userMenuLinks({ newsletters: true }, me)), ...homeLinks.slice(0, 6), ...role.extra(ids)]),
    ].filter((path) => path !== '/');
    // The phone's footer (its menu beside the user menu): a page it adds, not only another filter of a listed one.
    await resizeTo(page, PHONE);
    const footer = await page
      .getByTestId('mobile-footer')
      .locator('a[href^="/"]')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    await resizeTo(page, DESKTOP);
    const pathname = (path: string) => path.split('?')[0];
    paths.push(...new Set(footer.filter((href) => href !== '/' && !paths.some((path) => pathname(path) === pathname(href)))));
    for (let i = 0; i < paths.length; i++) {
      const path = paths[i] as string;
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      violations.push(...(await axe(page, path)));
      violations.push(...(await axeOnPhone(page, path)));
      if (role.follow?.includes(path)) {
        const links = await page.locator('main a[href^="/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
        paths.push(...[...new Set(links)].filter((href) => href && !paths.includes(href)).slice(0, 4));
      }
    }
    expect(violations).toEqual([]);
  });
}

/**
 * Issue 33 on a phone: the completed courses are cards whose certificate button is on the screen (it
 * sat at x=405 of 390), and a table wider than the screen scrolls in a region the keyboard reaches,
 * named as the table, with a visible hint.
 */
test('a participant on a phone: the NPS scale in one row, the certificate button on screen, a wide table in a focusable, labelled region with a hint', async ({
  page,
}) => {
  // A course of an NPS survey and credit points, for everyone.
  const admin = { authorization: `JWT ${await apiToken(page, 'admin')}` };
  const title = `Certifikat na telefonu ${Date.now().toString(36)}`;
  const created = await page.request.post('/api/courses', {
    headers: admin,
    data: { type: 3, title, description: 'Izobraževanje za preizkus na telefonu.', cover: '/c.svg', public: true, creditPoints: 1 },
  });
  const courseId = ((await created.json()) as { id: number }).id;
  const block = async (data: Record<string, unknown>) =>
    ((await (await page.request.post(`/api/courses/${courseId}/blocks`, { headers: admin, data: { block: data } })).json()) as { id: number }).id;
  const nps = await block({
    kind: 'nps',
    name: 'Mnenje',
    question: 'Bi izobraževanje priporočili?',
    set: 1,
    reasons: { detractor: [], neutral: [], promoter: [] },
    commentEnabled: false,
  });
  const points = await block({ kind: 'points', name: 'Točke', points: 1 });
  expect((await page.request.post(`/api/courses/${courseId}/publish`, { headers: admin })).status()).toBe(200);
  const participant = { authorization: `JWT ${await apiToken(page, 'udelezenec')}` };
  // The published course reaches the participant's read model a moment later.
  await expect(async () => expect((await page.request.get(`/api/user-courses/${courseId}`, { headers: participant })).status()).toBe(200)).toPass();

  await page.setViewportSize(PHONE);
  await logIn(page, 'udelezenec');
  await page.goto(`/izobrazevanja/${courseId}`);
  await page.getByRole('button', { name: 'Začni izobraževanje' }).click();
  await expect(page).toHaveURL(new RegExp(`/izobrazevanja/${courseId}/bloki/1$`));
  // The scale 0 to 10 is one row on the screen (it wrapped to two), each score at least 24 px wide (WCAG 2.2 2.5.8).
  const scores = page.locator('[data-score]');
  await expect(scores).toHaveCount(11);
  const boxes = await scores.evaluateAll((cards) => cards.map((card) => card.getBoundingClientRect().toJSON() as DOMRect));
  expect(new Set(boxes.map((box) => Math.round(box.top))).size).toBe(1);
  for (const box of boxes) {
    expect(box.width).toBeGreaterThanOrEqual(24);
    expect(box.right).toBeLessThanOrEqual(PHONE.width);
  }
  for (const path of [`blocks/${nps}/nps`, `blocks/${points}/open`]) {
    const data = path.endsWith('nps') ? { score: 9, reasons: [], comment: null, followUps: [] } : undefined;
    const response = await page.request.post(`/api/user-courses/${courseId}/${path}`, { headers: participant, ...(data ? { data } : {}) });
    expect(response.status(), await response.text()).toBeLessThan(300);
  }

  await page.goto('/profil/izobrazevanja');
  const card = page.locator('[data-course-card]').filter({ hasText: title });
  const download = card.getByRole('button', { name: 'Prenesi certifikat (PDF)' });
  await download.scrollIntoViewIfNeeded();
  const box = await download.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= PHONE.width, JSON.stringify(box)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

  // The consent history (four columns, at least 560 px): a region named as the table, in the Tab order, with the hint.
  await page.goto('/profil/pogoji');
  const history = page.getByRole('region', { name: 'Zgodovina mojih privolitev' });
  await expect(history).toHaveAttribute('tabindex', '0');
  await expect(page.getByText('Povlecite vstran za več stolpcev.')).toBeVisible();
  await history.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => history.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
  // On a desktop the same table fits: no hint and no extra tab stop.
  await page.setViewportSize(DESKTOP);
  await expect(page.getByText('Povlecite vstran za več stolpcev.')).toHaveCount(0);
  await expect(history).not.toHaveAttribute('tabindex', '0');
});

/**
 * Issue 33 on a phone: a course's admin tabs keep their labels whole and scroll sideways (all eleven were
 * squeezed to 38 px), the page's own tab is in sight, the keyboard reaches and opens another; the
 * breadcrumbs say where the page is ("Izobraževanja › <course> › <tab>").
 */
test('an admin on a phone: the course tabs readable and keyboard operable, breadcrumbs on nested pages, charts with axis titles and values', async ({
  page,
}) => {
  const ids = await demoIds(page);
  await page.setViewportSize(PHONE);
  await logIn(page, 'admin');
  await page.goto(`/admin/courses/${ids.course}/success/0`);
  const tabs = page.getByRole('navigation', { name: 'Zavihki izobraževanja' });
  await expect(tabs.getByRole('link')).not.toHaveCount(0);
  for (const tab of await tabs.getByRole('link').all()) {
    const { width, text } = await tab.evaluate((element) => ({
      width: element.getBoundingClientRect().width,
      text: element.scrollWidth - element.clientWidth,
    }));
    expect(width, (await tab.textContent()) ?? '').toBeGreaterThan(44);
    expect(text, (await tab.textContent()) ?? '').toBeLessThanOrEqual(1);
  }
  await expect(tabs.getByRole('link', { name: 'Uspešnost' })).toHaveAttribute('aria-current', 'page');
  await expect(tabs.getByRole('link', { name: 'Uspešnost' })).toBeInViewport({ ratio: 1 });

  const crumbs = page.getByRole('navigation', { name: 'Drobtine' });
  await expect(crumbs.getByRole('link', { name: 'Izobraževanja' })).toHaveAttribute('href', '/admin/courses');
  await expect(crumbs.getByRole('link', { name: 'Interakcije zdravil v lekarni' })).toHaveAttribute('href', `/admin/courses/${ids.course}/general`);
  await expect(crumbs.locator('[aria-current="page"]')).toHaveText('Uspešnost');

  // The last tab, off to the right, by keyboard: focus brings it into sight, Enter opens it.
  const last = tabs.getByRole('link', { name: 'Priponke' });
  await last.focus();
  await expect(last).toBeInViewport({ ratio: 1 });
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/admin/courses/${ids.course}/attachments$`));
  await expect(crumbs.locator('[aria-current="page"]')).toHaveText('Priponke');
  // Another nested page names the list it belongs to.
  await page.goto(`/admin/users/${ids.participant}`);
  await expect(crumbs.getByRole('link', { name: 'Uporabniki' })).toHaveAttribute('href', '/admin/users');
  await expect(crumbs.locator('[aria-current="page"]')).toHaveText('Uporabnik');

  // The statistics' charts say what their axes count (issue 33 item 10: a chart of unlabelled bars).
  await page.goto('/admin/stats');
  const activity = page.getByRole('img', { name: 'Uporabniki in izobraževanja po mesecih' });
  await expect(activity.locator('.recharts-label').filter({ hasText: 'Mesec' })).toHaveCount(1);
  await expect(activity.locator('.recharts-label').filter({ hasText: 'Število oseb' })).toHaveCount(1);
  // The demo's people were registered this month: its bar of new users says how many.
  await expect(activity.locator('.recharts-label-list').first()).toHaveText(/^\d+$/);
  const nps = page.getByRole('img', { name: 'NPS po mesecih' });
  await expect(nps.locator('.recharts-label').filter({ hasText: 'NPS (od −100 do 100)' })).toHaveCount(1);

  // /stroski: a course billed to the company and opened once is one bar, with its axes, legend and amount written out.
  const admin = { authorization: `JWT ${await apiToken(page, 'admin')}` };
  const created = await page.request.post('/api/courses', {
    headers: admin,
    data: {
      type: 3,
      title: `Obračunano ${Date.now().toString(36)}`,
      description: 'Izobraževanje, ki ga plača podjetje.',
      cover: '/c.svg',
      public: true,
      creditPoints: 1,
    },
  });
  const billed = ((await created.json()) as { id: number }).id;
  await page.request.post(`/api/courses/${billed}/blocks`, { headers: admin, data: { block: { kind: 'points', name: 'Točke', points: 1 } } });
  expect((await page.request.post(`/api/courses/${billed}/costs`, { headers: admin, data: { companyId: ids.company } })).status()).toBe(200);
  expect((await page.request.post(`/api/courses/${billed}/publish`, { headers: admin })).status()).toBe(200);
  const participant = { authorization: `JWT ${await apiToken(page, 'udelezenec')}` };
  await expect(async () =>
    expect((await page.request.post(`/api/user-courses/${billed}/start`, { headers: participant })).status()).toBeLessThan(300),
  ).toPass();
  await page.goto(`/stroski?company=${ids.company}`);
  const costs = page.getByRole('img', { name: 'Časovnica' });
  await expect(costs.locator('.recharts-label').filter({ hasText: 'Obdobje' })).toHaveCount(1);
  await expect(costs.locator('.recharts-label').filter({ hasText: 'Znesek (EUR)' })).toHaveCount(1);
  await expect(costs.getByText('Znesek ogledov')).toBeVisible();
  await expect(costs.locator('.recharts-label-list')).toContainText('€');
});
