import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page } from '@playwright/test';

export const PASSWORD = 'Demo1234!';

/**
 * A course's id by its exact title, as the admin API finds it. Searched: the list's first page holds
 * the most recently changed courses, and the suites create enough to push the demo's off it.
 */
export const courseIdByTitle = async (request: APIRequestContext, headers: Record<string, string>, title: string) => {
  const response = await request.get(`/api/courses?search=${encodeURIComponent(title)}&pageSize=100`, { headers });
  const list = (await response.json()) as { items: { id: number; title: string }[] };
  return list.items.find((c) => c.title === title)?.id as number;
};

/** Logs in through the login page and waits for the signed-in home page. */
export const logIn = async (page: Page, username: string, path = '/prijava') => {
  await page.goto(path);
  await page.getByLabel('Uporabniško ime ali e-naslov').fill(username);
  await page.getByLabel('Geslo').fill(PASSWORD);
  await page.getByRole('button', { name: 'Prijava' }).click();
  await expect(page.getByTestId('user-menu')).toBeVisible();
};

/** A session token from the API, for flows that start from a link. */
export const apiToken = async (page: Page, username: string) => {
  const response = await page.request.post('/api/auth/login', { data: { usernameOrEmail: username, password: PASSWORD } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { authToken: string }).authToken;
};

export const menuLabels = async (page: Page) => (await page.locator('header [data-menu]').allTextContents()).map((text) => text.trim());

/**
 * A public course published through the API for a test of its own (an admin's token), with the given
 * blocks: returns its id once it is published. The fields are the course's spec §3 fields.
 */
export const publishCourse = async (page: Page, token: string, course: Record<string, unknown>, blocks: Record<string, unknown>[]) => {
  const headers = { authorization: `JWT ${token}` };
  const created = await page.request.post('/api/courses', {
    headers,
    data: { type: 3, description: 'Izobraževanje za preizkus.', cover: '/c.svg', public: true, ...course },
  });
  expect(created.status(), await created.text()).toBe(201);
  const courseId = ((await created.json()) as { id: number }).id;
  for (const block of blocks) {
    const added = await page.request.post(`/api/courses/${courseId}/blocks`, { headers, data: { block } });
    expect(added.status(), await added.text()).toBe(201);
  }
  expect((await page.request.post(`/api/courses/${courseId}/publish`, { headers })).status()).toBe(200);
  return courseId;
};

/** The phone size of issue 33's walk (and of mobile.e2e.ts). */
export const PHONE = { width: 390, height: 844 };

/** Resizes the page and lets it settle (its media queries, resize observers and the renders they cause). */
export const resizeTo = async (page: Page, size: { width: number; height: number }) => {
  await page.setViewportSize(size);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
};

/** The colours axe measured for a contrast failure (empty for other rules), so the failure says what to change. */
const measuredColours = (data: unknown) => {
  const d = data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | null | undefined;
  return d?.fgColor ? ` (${d.fgColor} on ${d.bgColor}: ${d.contrastRatio})` : '';
};

/**
 * The page (or, with `include`, the part of it that selector picks) must have no serious or critical
 * accessibility violation (axe-core): runs axe in the state the page is in and returns those
 * violations as `rule: targets`, so a test expects an empty list. The caller waits first for what
 * must be gone (loaders, toasts).
 */
export const seriousAxeViolations = async (page: Page, options: { include?: string } = {}): Promise<string[]> => {
  const builder = new AxeBuilder({ page });
  if (options.include) builder.include(options.include);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')}${measuredColours(n.any[0]?.data)}`).join(', ')}`);
};
