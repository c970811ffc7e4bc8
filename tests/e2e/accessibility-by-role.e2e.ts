import { expect, type Page, test } from '@playwright/test';
import { type MenuItem, mainMenu, userMenuLinks } from '../../ui/src/app/layout/menu-model.ts';
import type { CurrentUser } from '../../ui/src/features/users/api/me.ts';
import { apiToken, logIn, seriousAxeViolations } from './support.ts';

/**
 * Issue 18 item 6: no serious or critical accessibility violation (axe-core) on the pages each demo
 * role reaches: its main menu and user menu (as menu-model.ts builds them from /api/users/me), the
 * links of its home page, and the key pages of its work. pages.e2e.ts checks every route as the admin;
 * this file checks what the other roles see there (their menus, refused actions, their own data).
 */

/** extra: the role's key pages beside its menus; follow: pages whose first links (e.g. statistics of a course) are checked too. */
type Role = { username: string; extra: (ids: Ids) => string[]; follow?: string[] };
type Ids = { course: number; academy: number | null; company: number | null; participant: number };

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

const axe = async (page: Page, path: string) => {
  if (!isLive(path)) await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
  // The page's heading, or (where the role is refused) its message.
  await expect(page.locator('main h1, main [role="alert"]').first(), path).toBeVisible();
  // Loaders gone (recharts keeps a hidden tooltip with role=status on its charts).
  await expect(page.locator('.mantine-Loader-root'), path).toHaveCount(0);
  return (await seriousAxeViolations(page)).map((violation) => `${path} ${violation}`);
};

const demoIds = async (page: Page): Promise<Ids> => {
  const headers = { authorization: `JWT ${await apiToken(page, 'admin')}` };
  const courses = (await (await page.request.get('/api/courses', { headers })).json()) as { items: { id: number; title: string }[] };
  const academies = (await (await page.request.get('/api/academies', { headers })).json().catch(() => ({ items: [] }))) as { items?: { id: number }[] };
  const companies = (await (await page.request.get('/api/companies', { headers })).json().catch(() => ({ items: [] }))) as {
    items?: { id: number; name: string }[];
  };
  const participant = (await (await page.request.get('/api/users/me', { headers: { authorization: `JWT ${await apiToken(page, 'udelezenec')}` } })).json()) as {
    id: number;
  };
  return {
    participant: participant.id,
    course: courses.items.find((c) => c.title === 'Interakcije zdravil v lekarni')?.id ?? 1,
    academy: academies.items?.[0]?.id ?? null,
    company: companies.items?.find((c) => c.name === 'Lekarne Zdravje d.o.o.')?.id ?? null,
  };
};

for (const role of ROLES) {
  test(`${role.username}: the pages of the menus, the home page and the role's work have no serious accessibility violation`, async ({ page }) => {
    test.setTimeout(120_000);
    const ids = await demoIds(page);
    const token = await apiToken(page, role.username);
    const me = (await (await page.request.get('/api/users/me', { headers: { authorization: `JWT ${token}` } })).json()) as CurrentUser;
    await logIn(page, role.username);
    const violations = await axe(page, '/');
    // Where the home page leads (its own links in the main area).
    const homeLinks = await page
      .locator('main a[href^="/"]')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? '').filter((href) => href && !href.startsWith('/api/')));
    const paths = [
      ...new Set([...flatten(mainMenu(me)), ...flatten(userMenuLinks({ newsletters: true }, me)), ...homeLinks.slice(0, 6), ...role.extra(ids)]),
    ].filter((path) => path !== '/');
    for (let i = 0; i < paths.length; i++) {
      const path = paths[i] as string;
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      violations.push(...(await axe(page, path)));
      if (role.follow?.includes(path)) {
        const links = await page.locator('main a[href^="/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
        paths.push(...[...new Set(links)].filter((href) => href && !paths.includes(href)).slice(0, 4));
      }
    }
    expect(violations).toEqual([]);
  });
}
