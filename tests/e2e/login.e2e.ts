import { expect, test } from '@playwright/test';

test('the login page loads and a demo user logs in', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/prijava\?redirect=%2F$/);
  await expect(page.getByRole('heading', { name: 'Prijava' })).toBeVisible();
  await page.getByLabel('Uporabniško ime ali e-naslov').fill('Admin');
  await page.getByLabel('Geslo').fill('Demo1234!');
  await page.getByRole('button', { name: 'Prijava' }).click();
  await expect(page.getByRole('heading', { name: 'Pozdravljeni, Ana Skrbnik' })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  const jwt = await page.evaluate(() => localStorage.getItem('jwt'));
  expect(jwt).toBeTruthy();
  await page.screenshot({ path: 'test-results/screenshots/login-home.png', fullPage: true });
});

test('a wrong password shows the Slovenian message and keeps the user on the login page', async ({ page }) => {
  await page.goto('/prijava');
  await page.getByLabel('Uporabniško ime ali e-naslov').fill('vodja');
  await page.getByLabel('Geslo').fill('napačno geslo');
  await page.getByRole('button', { name: 'Prijava' }).click();
  await expect(page.getByText('Prijava ni uspela. Poskusite ponovno.')).toBeVisible();
  await expect(page).toHaveURL(/\/prijava/);
  expect(await page.evaluate(() => localStorage.getItem('jwt'))).toBeNull();
});

test('empty fields show "Vnos je obvezen" without calling the server', async ({ page }) => {
  await page.goto('/prijava');
  let calls = 0;
  page.on('request', (request) => {
    if (request.url().includes('/api/auth/login')) calls++;
  });
  await page.getByRole('button', { name: 'Prijava' }).click();
  await expect(page.getByText('Vnos je obvezen')).toHaveCount(2);
  expect(calls).toBe(0);
});
