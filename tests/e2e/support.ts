import { expect, type Page } from '@playwright/test';

export const PASSWORD = 'Demo1234!';

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
