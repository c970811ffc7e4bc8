import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { DEMO_NEWS_TITLES } from '../../infrastructure/main/demo-news.ts';
import { apiToken, logIn } from './support.ts';

test('a user lacking consents is sent to /pogoji, gives them and goes on; a 403 422086 from the API sends them back', async ({ page }) => {
  await logIn(page, 'nov', '/prijava?redirect=%2Fizobrazevanja');
  await expect(page).toHaveURL(/\/pogoji\?redirect=%2Fizobrazevanja$/);
  await expect(page.getByRole('heading', { name: 'Pogoji uporabe in privolitve' })).toBeVisible();
  await expect(page.getByText('Izjava strokovnega delavca v zdravstvu')).toBeVisible();

  // Not all ticked: a clear message, nothing sent.
  await page.getByLabel('Strinjam se').first().check();
  await page.getByRole('button', { name: 'Potrdi in nadaljuj' }).click();
  await expect(page.getByRole('alert')).toHaveText('Za uporabo platforme potrebujemo vse obvezne privolitve. Označite vsa polja.');
  await expect(page).toHaveURL(/\/pogoji/);

  await page.getByRole('button', { name: 'Označi vse' }).click();
  await page.getByRole('button', { name: 'Potrdi in nadaljuj' }).click();
  await expect(page).toHaveURL(/\/izobrazevanja$/);
  await expect(page.getByRole('heading', { name: 'Izobraževanja', exact: true })).toBeVisible();
  // The demo's news for the pharmacists of Lekarna Center (issue 33 item 9): a newcomer sees its pop-up.
  const news = page.getByRole('dialog');
  await expect(news.getByRole('heading').first()).toHaveText(DEMO_NEWS_TITLES.list);
  await news.getByRole('button', { name: 'Ne zanima me' }).click();
  await expect(news).toHaveCount(0);

  // The consent for communications is withdrawn elsewhere (another device); the next API call answers 403 422086.
  const token = await apiToken(page, 'nov');
  const withdrawn = await page.request.post('/api/users/me/consents/4/withdraw', { headers: { authorization: `JWT ${token}` } });
  expect(withdrawn.status()).toBe(200);
  await expect.poll(async () => (await page.request.get('/api/user-courses', { headers: { authorization: `JWT ${token}` } })).status()).toBe(403);
  await page.locator('[data-course]').first().click();
  await expect(page).toHaveURL(/\/pogoji\?redirect=%2Fizobrazevanja%2F\d+$/);
  await expect(page.getByText('Privolitev je že dana')).toHaveCount(3);
  await page.getByLabel('Strinjam se').check();
  await page.getByRole('button', { name: 'Potrdi in nadaljuj' }).click();
  await expect(page).toHaveURL(/\/izobrazevanja\/\d+$/);
});

test('a user withdraws a consent in the profile after a warning, and is asked for it again', async ({ page }) => {
  await logIn(page, 'nov');
  await page.goto('/profil/pogoji');
  const communications = page.getByTestId('profile-consent-4');
  await expect(communications.getByText('Dana', { exact: true })).toBeVisible();
  await communications.getByRole('button', { name: 'Prekliči privolitev' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('alert')).toContainText('brez nje platforme ne boste mogli uporabljati');
  await dialog.getByRole('button', { name: 'Prekliči privolitev' }).click();
  await expect(communications.getByText('Preklicana', { exact: true })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Preklicana' }).first()).toBeVisible();
  await page.goto('/powerclass');
  await expect(page).toHaveURL(/\/pogoji\?redirect=%2Fpowerclass$/);
  await page.getByLabel('Strinjam se').check();
  await page.getByRole('button', { name: 'Potrdi in nadaljuj' }).click();
  await expect(page).toHaveURL(/\/powerclass$/);
});

test('an auditor reads a timeline, the standing as of a past instant, verifies the chain and exports xlsx', async ({ page, browser }) => {
  await logIn(page, 'revizor');
  await page.getByRole('navigation', { name: 'Glavni meni' }).getByRole('link', { name: 'Revizija privolitev' }).click();
  await expect(page.getByRole('heading', { name: 'Revizija privolitev' })).toBeVisible();
  await page.getByTestId('audit-search').fill('Novak');
  await page.getByRole('button', { name: 'Poišči' }).click();
  await page.getByRole('button', { name: /Nejc Novak/ }).click();
  const timeline = page.getByTestId('timeline');
  await expect(timeline.getByRole('row')).not.toHaveCount(1);
  await expect(page.getByTestId('chain-result')).toContainText('vsi zgoščeni zapisi se ujemajo');

  // As of a date before the user ever consented: nothing held.
  await page.getByTestId('as-of').fill('1. 1. 2020 12:00');
  await page.getByRole('button', { name: 'Prikaži stanje' }).click();
  await expect(page).toHaveURL(/asOf=2020-01-01/);
  await expect(page.getByRole('heading', { name: /Stanje privolitev na 1\. jan\. 2020, 12:00/ })).toBeVisible();
  await expect(page.getByTestId('standing-1')).toContainText('Ni dana');

  await page.getByRole('button', { name: 'Preveri celovitost' }).click();
  await expect(page.getByTestId('chain-result')).toContainText('vsi zgoščeni zapisi se ujemajo');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Izvozi v Excel (xlsx)' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^privolitve-\d+\.xlsx$/);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load((await readFile(await download.path())) as unknown as ArrayBuffer);
  expect(String(book.getWorksheet('Stanje')?.getCell('A1').value)).toContain('Nejc Novak');
  expect(book.getWorksheet('Zgodovina')?.rowCount).toBeGreaterThan(4);

  // A participant has neither the menu item nor the data.
  const participant = await browser.newPage();
  await logIn(participant, 'udelezenec');
  await expect(participant.getByRole('link', { name: 'Revizija privolitev' })).toHaveCount(0);
  await participant.goto('/revizija/privolitve');
  await expect(participant.getByText('Nimate pravic za ogled zgodovine privolitev.')).toBeVisible();
  await participant.close();
});
