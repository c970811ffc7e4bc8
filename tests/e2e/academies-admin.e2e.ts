import { expect, type Page, test } from '@playwright/test';
import { SAMPLE_PNG } from '../support/sample-png.ts';
import { logIn, seriousAxeViolations } from './support.ts';

/**
 * Issue 15 item 9, academies admin in Chromium: an editor finds the academies on the course list,
 * creates one from two demo courses (told first, in Slovenian, what is wrong), uploads its cover,
 * puts the courses in order, reads their total credit points and publishes it; a participant then
 * finds it under Powerclass with the cover and the courses in that order. An academy is withdrawn and
 * deleted after confirming.
 */
test.describe.configure({ mode: 'serial' });

const stamp = Date.now().toString(36);
const title = `Akademija samozdravljenja ${stamp}`;
let cover = '';
let academyUrl = '';

const accessible = async (page: Page, where: string) => {
  await expect(page.locator('[role="status"]')).toHaveCount(0);
  expect(await seriousAxeViolations(page), where).toEqual([]);
};

const addCourse = async (page: Page, name: string) => {
  await page.getByRole('combobox', { name: 'Dodaj izobraževanje' }).click();
  await page.getByRole('option', { name }).click();
};

test('an editor creates an academy from two demo courses, puts them in order and publishes it', async ({ page }) => {
  await logIn(page, 'urednik');
  await page.goto('/admin/courses');
  const section = page.getByRole('region', { name: 'Akademije' });
  await expect(section.getByRole('link', { name: 'Akademija lekarniške prakse' })).toBeVisible();
  await expect(section.locator('tr', { hasText: 'Akademija lekarniške prakse' })).toContainText('2 izobraževanji');
  await accessible(page, '/admin/courses');
  await section.getByRole('link', { name: 'Nova akademija' }).click();
  await expect(page).toHaveURL(/\/admin\/academies\/new$/);
  await expect(page.getByRole('heading', { name: 'Nova akademija', level: 1 })).toBeVisible();

  // What is wrong is said first, on its field, and nothing is created.
  await page.getByRole('textbox', { name: 'Naslov', exact: true }).fill(title);
  await page.getByRole('textbox', { name: 'Opis' }).fill('Prekratko');
  await page.getByRole('button', { name: 'Ustvari' }).click();
  await expect(page.getByText('Opis mora imeti najmanj 20 znakov')).toBeVisible();
  await expect(page.getByText('Izberite vsaj eno izobraževanje')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/academies\/new$/);
  await accessible(page, '/admin/academies/new with messages');

  await page.getByRole('textbox', { name: 'Opis' }).fill('Serija za svetovanje pri samozdravljenju in interakcijah zdravil.');
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Naloži sliko (JPEG, PNG)' }).click();
  await (await chooser).setFiles({ name: 'akademija.png', mimeType: 'image/png', buffer: SAMPLE_PNG });
  // The uploaded cover shows as its picture, not as its path (issue 33).
  const preview = page.getByRole('img', { name: 'Predogled naslovne slike' });
  await expect(preview).toHaveAttribute('src', /^\/api\/files\/\d+$/);
  await expect(page.getByRole('textbox', { name: 'Naslovna slika (pot ali URL)' })).toHaveCount(0);
  cover = (await preview.getAttribute('src')) ?? '';

  await addCourse(page, 'Interakcije zdravil v lekarni');
  await expect(page.getByText('Izberite vsaj eno izobraževanje')).toHaveCount(0);
  await addCourse(page, 'Samozdravljenje prehlada');
  const rows = page.getByTestId('academy-course');
  await expect(rows).toHaveText(['Interakcije zdravil v lekarni', 'Samozdravljenje prehlada']);
  await expect(page.getByTestId('academy-credit-points')).toHaveText('Skupaj kreditnih točk: 3');
  await page.getByRole('button', { name: 'Premakni »Samozdravljenje prehlada« gor' }).click();
  await expect(rows).toHaveText(['Samozdravljenje prehlada', 'Interakcije zdravil v lekarni']);

  // A new academy continues to its general page, saved in that order and not yet published.
  await page.getByRole('button', { name: 'Ustvari' }).click();
  await expect(page.getByText('Akademija je ustvarjena. Nadaljujte z urejanjem.')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/academies\/\d+\/general$/);
  academyUrl = new URL(page.url()).pathname;
  await page.reload();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(rows).toHaveText(['Samozdravljenje prehlada', 'Interakcije zdravil v lekarni']);
  await expect(page.getByTestId('academy-credit-points')).toHaveText('Skupaj kreditnih točk: 3');
  await expect(page.getByTestId('academy-published')).toHaveText('Neobjavljena');
  const id = academyUrl.split('/')[3];
  await expect(page.getByRole('link', { name: 'Uspešnost akademije' })).toHaveAttribute('href', `/admin/academies/${id}/success/0`);
  await accessible(page, '/admin/academies/:id/general');
  await page.screenshot({ path: 'test-results/screenshots/academies-admin-general.png', fullPage: true });

  await page.getByRole('button', { name: 'Objavi akademijo' }).click();
  await expect(page.getByText('Akademija je objavljena.')).toBeVisible();
  await expect(page.getByTestId('academy-published')).toHaveText('Objavljena');
  await expect(page.getByRole('button', { name: 'Umakni objavo akademije' })).toBeVisible();

  await page.getByRole('link', { name: 'Nazaj na izobraževanja' }).click();
  await expect(page.getByRole('region', { name: 'Akademije' }).locator('tr', { hasText: title })).toContainText('Objavljena');
  await page.screenshot({ path: 'test-results/screenshots/academies-admin-list.png', fullPage: true });
});

test('a participant finds the published academy under Powerclass, with its cover and courses in order', async ({ page }) => {
  await logIn(page, 'udelezenec');
  await page.goto('/powerclass');
  const card = page.locator('[data-academy]').filter({ hasText: title });
  await expect(card.getByText('2 izobraževanji')).toBeVisible();
  await expect(card.getByTestId('academy-points')).toHaveText('0 od 3 kreditnih točk');
  // The uploaded cover is served to the participant (not replaced by the fallback).
  const image = card.locator('img');
  await expect(image).toHaveAttribute('src', cover);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await card.click();
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  const courses = page.locator('[data-course]');
  await expect(courses).toHaveCount(2);
  await expect(courses.nth(0)).toContainText('Samozdravljenje prehlada');
  await expect(courses.nth(1)).toContainText('Interakcije zdravil v lekarni');
});

test('an editor withdraws the academy and deletes it after confirming; participants no longer see it', async ({ page }) => {
  await logIn(page, 'urednik');
  await page.goto(academyUrl);
  await page.getByRole('button', { name: 'Umakni objavo akademije' }).click();
  await expect(page.getByText('Objava akademije je umaknjena.')).toBeVisible();
  await expect(page.getByTestId('academy-published')).toHaveText('Neobjavljena');
  // Removing a course and saving keeps the rest in order.
  await page.getByRole('button', { name: 'Odstrani »Interakcije zdravil v lekarni« iz akademije' }).click();
  await expect(page.getByTestId('academy-credit-points')).toHaveText('Skupaj kreditnih točk: 1');
  await page.getByRole('button', { name: 'Shrani' }).click();
  await expect(page.getByText('Spremembe so shranjene.')).toBeVisible();

  await page.getByRole('button', { name: 'Izbriši' }).click();
  await expect(page.getByRole('dialog')).toContainText(`Izbrišem akademijo »${title}«?`);
  await page.getByRole('dialog').getByRole('button', { name: 'Izbriši' }).click();
  await expect(page).toHaveURL(/\/admin\/courses$/);
  await expect(page.getByRole('region', { name: 'Akademije' }).getByRole('link', { name: 'Akademija lekarniške prakse' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Akademije' }).getByText(title)).toHaveCount(0);
  await page.goto(academyUrl);
  await expect(page.getByText('Akademija ne obstaja ali vam ni na voljo.')).toBeVisible();
});
