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
