import { expect, type Page, test } from '@playwright/test';
import { SAMPLE_PNG } from '../support/sample-png.ts';
import { apiToken, logIn, seriousAxeViolations } from './support.ts';

/**
 * Issue 16 item 2, newsletters in Chromium: an editor is told in Slovenian what is wrong, then writes
 * an issue for one profession (keywords, uploaded cover, address) and publishes it; a participant of
 * that profession finds it from the user menu at /novicnik, opens it and its address; a user of no
 * profession does not see it, nor does a participant see the issue meant for doctors. While the
 * feature is off, the pages say so. The issue is deleted after confirming.
 */
test.describe.configure({ mode: 'serial' });

const stamp = Date.now().toString(36);
const title = `Novičnik farmacije ${stamp}`;
const forDoctors = `Novičnik za zdravnike ${stamp}`;
const description = `Novosti iz lekarniške prakse ${stamp}.\nDruga vrstica opisa z več podrobnostmi o interakcijah.`;
const url = `https://novice.example.si/${stamp}`;
let editUrl = '';
let readerUrl = '';
let cover = '';
let doctorsIssue = 0;

const accessible = async (page: Page, where: string) => {
  await expect(page.locator('[role="status"]')).toHaveCount(0);
  expect(await seriousAxeViolations(page), where).toEqual([]);
};

test('an editor is told what is wrong, then writes and publishes an issue for pharmacists', async ({ page }) => {
  await logIn(page, 'urednik');
  await page.getByRole('button', { name: 'Novice' }).click();
  await page.getByRole('menuitem', { name: 'Novičniki' }).click();
  await expect(page).toHaveURL(/\/admin\/newsletters$/);
  await expect(page.getByRole('heading', { name: 'Novičniki', level: 1 })).toBeVisible();
  await accessible(page, '/admin/newsletters');
  await page.getByRole('link', { name: 'Nov novičnik' }).click();
  await expect(page).toHaveURL(/\/admin\/newsletters\/new$/);
  await expect(page.getByRole('heading', { name: 'Nov novičnik', level: 1 })).toBeVisible();
  await expect(page.getByText('Priporočena velikost je 800 × 600 slikovnih pik (JPEG ali PNG).')).toBeVisible();

  // Nothing filled in, and an address that is not https: each field says what is wrong, nothing is created.
  await page.getByRole('textbox', { name: 'Povezava do novičnika' }).fill('ftp://novice.example.si');
  await page.getByRole('button', { name: 'Ustvari' }).click();
  await expect(page.getByText('Vnos je obvezen')).toHaveCount(2);
  await expect(page.getByText('Vnesite veljaven naslov (https://…)')).toBeVisible();
  await expect(page.getByText('Prosimo da pravilno izpolnite vsa obvezna polja.')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/newsletters\/new$/);
  await accessible(page, '/admin/newsletters/new with messages');

  await page.getByRole('textbox', { name: 'Naslov', exact: true }).fill(title);
  await expect(page.getByText('Vnos je obvezen')).toHaveCount(1);
  await page.getByRole('textbox', { name: 'Številka', exact: true }).fill('2026/11');
  await page.getByRole('textbox', { name: 'Opis', exact: true }).fill(description);
  const keywords = page.getByRole('combobox', { name: 'Ključne besede' });
  await keywords.fill('farmacija');
  await keywords.press('Enter');
  await keywords.fill('interakcije');
  await keywords.press('Enter');
  await page.getByRole('textbox', { name: 'Povezava do novičnika' }).fill(url);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Naloži sliko (JPEG, PNG)' }).click();
  await (await chooser).setFiles({ name: 'novicnik.png', mimeType: 'image/png', buffer: SAMPLE_PNG });
  const coverInput = page.getByRole('textbox', { name: 'Naslovna slika (https naslov ali naložena slika)' });
  await expect(coverInput).toHaveValue(/^\/api\/files\/\d+$/);
  cover = await coverInput.inputValue();
  await expect(page.getByTestId('cover-preview')).toHaveAttribute('src', cover);
  await page.getByRole('combobox', { name: 'Poklici' }).click();
  await page.getByRole('option', { name: 'Magister farmacije', exact: true }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('switch', { name: 'Objavljeno' }).check();

  // A new issue continues to its own page, saved as written.
  await page.getByRole('button', { name: 'Ustvari' }).click();
  await expect(page.getByText('Novičnik je ustvarjen.')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/newsletters\/\d+\/edit$/);
  editUrl = new URL(page.url()).pathname;
  readerUrl = `/novicnik/${editUrl.split('/')[3]}`;
  await page.reload();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.getByTestId('newsletter-published')).toHaveText('Objavljeno');
  await expect(page.getByRole('textbox', { name: 'Opis', exact: true })).toHaveValue(description);
  await expect(page.getByRole('textbox', { name: 'Povezava do novičnika' })).toHaveValue(url);
  await expect(coverInput).toHaveValue(cover);
  // The chosen profession and keywords stand as pills in their fields.
  const main = page.getByRole('main');
  for (const text of ['Magister farmacije', 'farmacija', 'interakcije']) await expect(main.getByText(text, { exact: true })).toBeVisible();
  await accessible(page, '/admin/newsletters/:id/edit');
  await page.screenshot({ path: 'test-results/screenshots/newsletters-admin-edit.png', fullPage: true });

  // The list finds it by its keyword, published.
  await page.getByRole('link', { name: 'Nazaj na novičnike' }).click();
  await page.getByRole('textbox', { name: 'Iskanje: Novičniki' }).fill(stamp);
  const row = page.locator('tr', { hasText: title });
  await expect(row).toContainText('Objavljeno');
  await expect(row).toContainText('Magister farmacije');
  await expect(row.getByRole('link', { name: title })).toHaveAttribute('href', editUrl);

  // A second issue, for doctors only (through the API).
  const token = await apiToken(page, 'urednik');
  const professions = (await (await page.request.get('/api/professions?search=Zdravnik&pageSize=100')).json()) as { items: { id: number; name: string }[] };
  const doctor = professions.items.find((p) => p.name === 'Zdravnik');
  expect(doctor).toBeTruthy();
  const created = await page.request.post('/api/newsletters', {
    headers: { Authorization: `JWT ${token}` },
    data: { title: forDoctors, description: 'Za zdravnike.', professionIds: [doctor?.id], published: true },
  });
  expect(created.status()).toBe(201);
  doctorsIssue = ((await created.json()) as { id: number }).id;
});

test('a pharmacist finds the issue from the user menu, reads it and opens its address', async ({ page }) => {
  await logIn(page, 'udelezenec');
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Novičnik' }).click();
  await expect(page).toHaveURL(/\/novicnik$/);
  await expect(page.getByRole('heading', { name: 'Novičnik', level: 1 })).toBeVisible();
  const card = page.locator('[data-newsletter]').filter({ hasText: title });
  await expect(card).toBeVisible();
  await expect(card.getByTestId('newsletter-issue')).toContainText('Številka 2026/11');
  await expect(card.getByTestId('newsletter-excerpt')).toContainText(`Novosti iz lekarniške prakse ${stamp}.`);
  await expect(card.getByTestId('newsletter-keyword')).toHaveText(['farmacija', 'interakcije']);
  // The uploaded cover is served to this reader.
  const image = card.locator('img');
  await expect(image).toHaveAttribute('src', cover);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  // Not for pharmacists: not listed.
  await expect(page.getByText(forDoctors)).toHaveCount(0);
  // Newest first: this issue is above every older one.
  await expect(page.locator('[data-newsletter]').first()).toContainText(title);
  await accessible(page, '/novicnik');
  await page.screenshot({ path: 'test-results/screenshots/newsletters-list.png', fullPage: true });

  await card.getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(new RegExp(`${readerUrl}$`));
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.getByTestId('newsletter-description')).toHaveText(description);
  await expect(page.getByTestId('newsletter-keyword')).toHaveText(['farmacija', 'interakcije']);
  await expect(page.getByTestId('newsletter-cover')).toHaveAttribute('src', cover);
  const open = page.getByRole('link', { name: 'Odpri novičnik (odpre se v novem zavihku)' });
  await expect(open).toHaveAttribute('href', url);
  await expect(open).toHaveAttribute('target', '_blank');
  await expect(open).toHaveAttribute('rel', /noopener/);
  await accessible(page, '/novicnik/:id');
  await page.screenshot({ path: 'test-results/screenshots/newsletters-issue.png', fullPage: true });
  await page.getByRole('link', { name: 'Vsi novičniki' }).click();
  await expect(page).toHaveURL(/\/novicnik$/);
});

test('a user of no profession sees neither issue, and is told so when opening one', async ({ page }) => {
  await logIn(page, 'direktor');
  await page.goto('/novicnik');
  await expect(page.getByRole('heading', { name: 'Novičnik', level: 1 })).toBeVisible();
  await expect(page.locator('[role="status"]')).toHaveCount(0);
  await expect(page.getByText(title)).toHaveCount(0);
  await expect(page.getByText(forDoctors)).toHaveCount(0);
  await page.goto(readerUrl);
  await expect(page.getByText('Ta številka novičnika ne obstaja ali ni namenjena vam.')).toBeVisible();
  await accessible(page, '/novicnik/:id not for this reader');
});

test('while the newsletters feature is off, the pages say so and the user menu leaves them out', async ({ page }) => {
  await page.route('**/api/features', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), newsletters: false } });
  });
  await logIn(page, 'udelezenec');
  await page.getByTestId('user-menu').click();
  await expect(page.getByRole('menuitem', { name: 'Profil' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Novičnik' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  for (const path of ['/novicnik', readerUrl]) {
    await page.goto(path);
    await expect(page.getByText('Novičnik je na tej platformi trenutno izklopljen.')).toBeVisible();
    await expect(page.locator('main h1')).toBeVisible();
  }
});

test('an editor deletes the issue after confirming; its reader no longer finds it', async ({ page }) => {
  await logIn(page, 'urednik');
  await page.goto(editUrl);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Izbriši' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`Izbrišem novičnik »${title}«?`);
  await dialog.getByRole('button', { name: 'Izbriši' }).click();
  await expect(page.getByText('Zapis je izbrisan.')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/newsletters$/);
  await page.getByRole('textbox', { name: 'Iskanje: Novičniki' }).fill(title);
  await expect(page.getByText('Ni zadetkov.')).toBeVisible();

  const token = await apiToken(page, 'udelezenec');
  const mine = (await (await page.request.get('/api/user-newsletters', { headers: { Authorization: `JWT ${token}` } })).json()) as {
    items: { title: string }[];
  };
  expect(mine.items.map((n) => n.title)).not.toContain(title);
  // The doctors' issue goes too, so the suite leaves no issue behind.
  const removed = await page.request.delete(`/api/newsletters/${doctorsIssue}`, { headers: { Authorization: `JWT ${await apiToken(page, 'urednik')}` } });
  expect(removed.status()).toBe(200);
});
