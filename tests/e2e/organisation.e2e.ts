import { expect, test } from '@playwright/test';
import { logIn } from './support.ts';

test('an admin builds an organisation: a company, a unit under it and a community group, and finds them in the lists', async ({ page }) => {
  await logIn(page, 'admin');
  const suffix = Date.now().toString().slice(-6);

  // Company, with the spec's validation first: name and address required, post code digits only.
  await page.goto('/admin/companies/new');
  await page.getByLabel('Poštna številka').fill('10a0');
  await page.getByRole('button', { name: 'Ustvari' }).click();
  await expect(page.getByText('Vnos je obvezen')).toHaveCount(2);
  await expect(page.getByText('Poštna številka lahko vsebuje le števke')).toBeVisible();
  await page.getByLabel(/^Naziv/).fill(`Bolnišnica Sonce ${suffix}`);
  await page.getByLabel(/^Naslov/).fill('Zaloška cesta 7');
  await page.getByLabel('Poštna številka').fill('1000');
  await page.getByLabel('Kraj').fill('Ljubljana');
  await page.getByRole('button', { name: 'Ustvari' }).click();
  await expect(page).toHaveURL(/\/admin\/companies\/\d+$/);
  await expect(page.getByRole('heading', { name: `Bolnišnica Sonce ${suffix}` })).toBeVisible();

  // A unit under it: creation is followed by further editing, then publishing.
  await page.goto('/admin/units/new');
  await page.getByLabel(/^Naziv/).fill(`Oddelek za farmacijo ${suffix}`);
  await page.getByRole('combobox', { name: 'Podjetje' }).click();
  await page.getByRole('option', { name: `Bolnišnica Sonce ${suffix}` }).click();
  await page.getByRole('button', { name: 'Ustvari' }).click();
  await expect(page).toHaveURL(/\/admin\/units\/\d+$/);
  await expect(page.getByText('Enota je ustvarjena.')).toBeVisible();
  await expect(page.getByTestId('unit-status')).toHaveText('Neobjavljena');
  await page.getByRole('button', { name: 'Objavi' }).click();
  await expect(page.getByTestId('unit-status')).toHaveText('Objavljena');

  // A community group with that unit; its name is unique.
  await page.goto('/admin/communities/groups/new');
  await page.getByLabel(/^Ime skupine/).fill(`Bolnišnične lekarne ${suffix}`);
  await page.getByLabel('Enote', { exact: true }).first().click();
  await page.getByRole('option', { name: `Oddelek za farmacijo ${suffix} (Bolnišnica Sonce ${suffix})` }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Ustvari' }).click();
  await expect(page).toHaveURL(/\/admin\/communities\/groups\/\d+$/);
  await page.goto('/admin/communities/groups/new');
  await page.getByLabel(/^Ime skupine/).fill(`bolnišnične LEKARNE ${suffix}`);
  await page.getByRole('button', { name: 'Ustvari' }).click();
  await expect(page.getByText('Skupina s tem imenom že obstaja.')).toBeVisible();

  // All three are in their lists, found by search.
  await page.goto('/admin/companies');
  await page.getByRole('textbox', { name: /Iskanje/ }).fill(`Sonce ${suffix}`);
  await expect(page.getByRole('link', { name: `Bolnišnica Sonce ${suffix}` })).toBeVisible();
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await page.goto('/admin/units');
  await page.getByRole('textbox', { name: /Iskanje/ }).fill(suffix);
  const unitRow = page.locator('tbody tr', { hasText: `Oddelek za farmacijo ${suffix}` });
  await expect(unitRow).toContainText(`Bolnišnica Sonce ${suffix}`);
  await expect(unitRow).toContainText(`Bolnišnične lekarne ${suffix}`);
  await expect(unitRow).toContainText('Objavljena');
  await page.goto('/admin/communities/groups');
  await page.getByRole('textbox', { name: /Iskanje/ }).fill(suffix);
  await expect(page.locator('tbody tr', { hasText: `Bolnišnične lekarne ${suffix}` })).toContainText(`Oddelek za farmacijo ${suffix}`);
  await page.screenshot({ path: 'test-results/screenshots/organisation-groups.png', fullPage: true });
});

test('lists sort and page', async ({ page }) => {
  await logIn(page, 'admin');
  await page.goto('/admin/professions');
  const names = () => page.locator('tbody tr td:first-child').allTextContents();
  // The demo's 60 professions: a first page of 20, in the Slovenian alphabet, the rest on the next pages.
  const all = ((await (await page.request.get('/api/professions?pageSize=100')).json()) as { items: { name: string }[]; total: number }).items.map(
    (p) => p.name,
  );
  await expect(page.locator('tbody tr')).toHaveCount(Math.min(all.length, 20));
  const ascending = await names();
  expect(ascending).toEqual([...ascending].sort((a, b) => a.localeCompare(b, 'sl')));
  expect(ascending).toEqual(all.slice(0, ascending.length));
  // Sorted the other way, the last of them all comes first.
  await page.locator('[data-sort="name"]').click();
  await expect(page.locator('tbody tr').first()).toContainText(all.at(-1) as string);
});

test('tag management without the right shows the spec message', async ({ page }) => {
  await logIn(page, 'vodja');
  await page.goto('/admin/tags/units');
  await expect(page.getByTestId('tags-forbidden')).toHaveText('Nimate pravic za upravljanje z značkami.');
});

test('an admin adds, renames and deletes a tag; a taken name is refused', async ({ page }) => {
  await logIn(page, 'admin');
  await page.goto('/admin/tags/units');
  await page.getByRole('button', { name: 'Nova značka' }).click();
  await page
    .getByRole('dialog')
    .getByLabel(/^Ime značke/)
    .fill('Bolnišnična lekarna');
  await page.getByRole('dialog').getByRole('button', { name: 'Ustvari' }).click();
  await expect(page.getByRole('cell', { name: 'Bolnišnična lekarna', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Nova značka' }).click();
  await page
    .getByRole('dialog')
    .getByLabel(/^Ime značke/)
    .fill('bolnišnična lekarna');
  await page.getByRole('dialog').getByRole('button', { name: 'Ustvari' }).click();
  await expect(page.getByRole('dialog').getByText('Značka s tem imenom že obstaja.')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Izbriši: Bolnišnična lekarna' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Izbriši' }).click();
  await expect(page.getByRole('cell', { name: 'Bolnišnična lekarna', exact: true })).toHaveCount(0);
});

test('an admin deletes a unit, then its company, through a confirmation; a unit someone belongs to is refused with the reason', async ({ page }) => {
  await logIn(page, 'admin');
  const suffix = Date.now().toString().slice(-6);
  await page.goto('/admin/companies/new');
  await page.getByLabel(/^Naziv/).fill(`Zaprto podjetje ${suffix}`);
  await page.getByLabel(/^Naslov/).fill('Stara pot 1');
  await page.getByRole('button', { name: 'Ustvari' }).click();
  await expect(page).toHaveURL(/\/admin\/companies\/\d+$/);
  const companyUrl = page.url();
  await page.goto('/admin/units/new');
  await page.getByLabel(/^Naziv/).fill(`Zaprta enota ${suffix}`);
  await page.getByRole('combobox', { name: 'Podjetje' }).click();
  await page.getByRole('option', { name: `Zaprto podjetje ${suffix}` }).click();
  await page.getByRole('button', { name: 'Ustvari' }).click();
  await expect(page).toHaveURL(/\/admin\/units\/\d+$/);
  const unitUrl = page.url();

  // The company still has the unit: refused, and the page says why.
  await page.goto(companyUrl);
  await page.getByRole('button', { name: 'Izbriši' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Izbriši' }).click();
  await expect(page.getByText('Podjetja ni mogoče izbrisati, dokler ima enote.', { exact: false })).toBeVisible();
  await expect(page.getByRole('dialog')).toBeHidden();

  // Cancel changes nothing; confirming deletes the unit and returns to the list.
  await page.goto(unitUrl);
  await page.getByRole('button', { name: 'Izbriši' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Prekliči' }).click();
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(page).toHaveURL(unitUrl);
  await page.getByRole('button', { name: 'Izbriši' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Izbriši' }).click();
  await expect(page).toHaveURL(/\/admin\/units$/);
  await page.getByRole('textbox', { name: /Iskanje/ }).fill(suffix);
  await expect(page.getByText(`Zaprta enota ${suffix}`)).toHaveCount(0);

  await page.goto(companyUrl);
  await page.getByRole('button', { name: 'Izbriši' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Izbriši' }).click();
  await expect(page).toHaveURL(/\/admin\/companies$/);
  await page.goto(companyUrl);
  await expect(page.getByText('Zapis ne obstaja.')).toBeVisible();
});

test('a unit keeps its address (post code digits only); a profession nobody holds is deleted, a held one is refused', async ({ page }) => {
  await logIn(page, 'admin');
  const suffix = Date.now().toString().slice(-6);
  await page.goto('/admin/units/new');
  await page.getByLabel(/^Naziv/).fill(`Lekarna Tabor ${suffix}`);
  await page.getByRole('combobox', { name: 'Podjetje' }).click();
  await page.getByRole('option', { name: 'Lekarne Zdravje d.o.o.' }).click();
  await page.getByLabel('Naslov').fill('Tabor 3');
  await page.getByLabel('Poštna številka').fill('2OOO');
  await page.getByRole('button', { name: 'Ustvari' }).click();
  await expect(page.getByText('Poštna številka lahko vsebuje le števke')).toBeVisible();
  await page.getByLabel('Poštna številka').fill('2000');
  await page.getByLabel('Kraj').fill('Maribor');
  await page.getByRole('button', { name: 'Ustvari' }).click();
  await expect(page).toHaveURL(/\/admin\/units\/\d+$/);
  await page.reload();
  await expect(page.getByLabel('Naslov')).toHaveValue('Tabor 3');
  await expect(page.getByLabel('Poštna številka')).toHaveValue('2000');
  await expect(page.getByLabel('Kraj')).toHaveValue('Maribor');

  // The demo's pharmacists hold "Magister farmacije": refused with the reason.
  await page.goto('/admin/professions');
  await page.getByRole('textbox', { name: /Iskanje/ }).fill('Magister farmacije');
  await page.getByRole('link', { name: 'Magister farmacije' }).click();
  await page.getByRole('button', { name: 'Izbriši' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Izbriši' }).click();
  await expect(page.getByText(/Poklica ni mogoče izbrisati/)).toBeVisible();

  // A profession names the chamber its people's credit points go to (issue 32 item 4); it is kept.
  await page.goto('/admin/professions/new');
  await page.getByLabel(/^Naziv poklica/).fill(`Poklic ${suffix}`);
  await page.getByRole('combobox', { name: 'Zbornica za kreditne točke' }).click();
  await page.getByRole('option', { name: 'Zdravniška zbornica' }).click();
  await page.getByRole('button', { name: 'Ustvari' }).click();
  await expect(page).toHaveURL(/\/admin\/professions\/\d+$/);
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Zbornica za kreditne točke' })).toHaveValue('Zdravniška zbornica');
  await page.getByRole('button', { name: 'Izbriši' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Izbriši' }).click();
  await expect(page).toHaveURL(/\/admin\/professions$/);
  await page.getByRole('textbox', { name: /Iskanje/ }).fill(`Poklic ${suffix}`);
  await expect(page.getByRole('link', { name: `Poklic ${suffix}` })).toHaveCount(0);
});
