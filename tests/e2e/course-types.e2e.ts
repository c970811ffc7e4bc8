import { expect, test } from '@playwright/test';
import { CERTIFIED_NO_POINTS, RX_LABEL, RX_PUBLIC, rxProfessionRefused } from '../../domain/courses/course-types.rules.ts';
import { apiToken, logIn, seriousAxeViolations } from './support.ts';

/**
 * Issue 36 item 1 (decision 0062) in Chromium: the editor explains a type's rules, refuses a public RX
 * course and an RX course for a profession that may not prescribe or supply medicines, refuses to
 * publish a certified course without credit points; a pharmacist sees the demo's RX course with its label.
 */
const stamp = Date.now().toString(36);

test('an admin sets type 1 (RX) in the editor and is refused a public RX course and a non-prescribing profession', async ({ page }) => {
  const title = `Rx tečaj ${stamp}`;
  await logIn(page, 'admin');
  await page.goto('/admin/courses/new');
  await expect(page.getByRole('heading', { name: 'Novo izobraževanje' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Vrsta' }).click();
  await page.getByRole('option', { name: 'Zdravila na recept' }).click();
  // The type's rules are the field's help text.
  await expect(page.getByText('Ne sme biti javno; namenjeno je le izbranim poklicem', { exact: false })).toBeVisible();
  await page.getByRole('textbox', { name: 'Naslov', exact: true }).fill(title);
  await page.getByRole('textbox', { name: 'Opis', exact: true }).fill('Izobraževanje o zdravilu na recept za zdravnike in farmacevte.');
  await page.getByLabel('Naslovna slika (pot ali URL)').fill('/covers/rx.svg');
  await page.getByRole('switch', { name: 'Javno (za vse uporabnike)' }).click();
  await page.getByRole('button', { name: 'Ustvari' }).click();
  await expect(page.getByText(RX_PUBLIC)).toBeVisible();

  await page.getByRole('switch', { name: 'Javno (za vse uporabnike)' }).click();
  await page.getByRole('button', { name: 'Ustvari' }).click();
  await expect(page.getByText('Izobraževanje je ustvarjeno. Nadaljujte z urejanjem.')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/courses\/\d+\/general$/);
  const courseId = page.url().match(/courses\/(\d+)\//)?.[1];

  await page.goto(`/admin/courses/${courseId}/participants`);
  await expect(page.getByRole('heading', { name: `Udeleženci: ${title}` })).toBeVisible();
  await expect(page.getByTestId('rx-audience-rule')).toBeVisible();
  await page.getByRole('switch', { name: 'Samo za izbrane poklice' }).click();
  await page.getByRole('combobox', { name: 'Poklici' }).click();
  await page.getByRole('option', { name: 'Medicinska sestra', exact: true }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Shrani' }).click();
  await expect(page.getByText(rxProfessionRefused('Medicinska sestra'))).toBeVisible();

  // A doctor may receive it: saved.
  await page.getByRole('combobox', { name: 'Poklici' }).click();
  await page.getByRole('option', { name: 'Medicinska sestra', exact: true }).click();
  await page.getByRole('option', { name: 'Zdravnik', exact: true }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Shrani' }).click();
  await expect(page.getByText('Spremembe so shranjene.')).toBeVisible();
});

test('a certified course (type 4) without credit points is refused publishing, with the reason', async ({ page }) => {
  const token = await apiToken(page, 'admin');
  const headers = { authorization: `JWT ${token}` };
  const title = `Certificirano brez točk ${stamp}`;
  const created = await page.request.post('/api/courses', {
    headers,
    data: { type: 4, title, description: 'Certificirano izobraževanje, ki mu manjkajo kreditne točke.', cover: '/c.svg', creditPoints: 0, public: true },
  });
  expect(created.status()).toBe(201);
  const courseId = ((await created.json()) as { id: number }).id;
  const block = await page.request.post(`/api/courses/${courseId}/blocks`, {
    headers,
    data: { block: { kind: 'article', name: 'Besedilo', html: '<p>Vsebina</p>' } },
  });
  expect(block.status()).toBe(201);

  await logIn(page, 'admin');
  await page.goto('/admin/courses');
  await page.getByRole('textbox', { name: 'Iskanje: Izobraževanja' }).fill(title);
  const row = page.getByRole('table', { name: 'Izobraževanja' }).locator('tr', { has: page.getByRole('link', { name: title, exact: true }) });
  await row.getByRole('button', { name: `Dejanja za ${title}` }).click();
  await page.getByRole('menuitem', { name: 'Objavi' }).click();
  // It lacks a video and more: the dialog asks first.
  await page.getByRole('dialog').getByRole('button', { name: 'Vseeno objavi' }).click();
  await expect(page.getByText(CERTIFIED_NO_POINTS)).toBeVisible();
  await expect(row.getByText('Neobjavljeno')).toBeVisible();

  // The editor says what the type needs; with points it publishes.
  await page.goto(`/admin/courses/${courseId}/general`);
  await expect(page.getByText('pred objavo mora imeti kreditne točke', { exact: false })).toBeVisible();
  await page.getByLabel('Kreditne točke').fill('2');
  await page.getByRole('button', { name: 'Shrani' }).click();
  await expect(page.getByText('Spremembe so shranjene.')).toBeVisible();
  expect((await page.request.post(`/api/courses/${courseId}/publish`, { headers })).status()).toBe(200);
});

test('a pharmacist sees the demo RX course with its label', async ({ page }) => {
  await logIn(page, 'udelezenec');
  await page.goto('/izobrazevanja');
  await page.getByRole('link', { name: 'Neposredni peroralni antikoagulanti v praksi' }).first().click();
  await expect(page.getByRole('heading', { name: 'Neposredni peroralni antikoagulanti v praksi' })).toBeVisible();
  await expect(page.getByTestId('rx-label')).toHaveText(RX_LABEL);
  expect(await seriousAxeViolations(page, { include: 'main' })).toEqual([]);
});

test('the admin marks a profession as one that may prescribe or supply medicines, and the list shows it', async ({ page }) => {
  const name = `Poklic Rx ${stamp}`;
  await logIn(page, 'admin');
  await page.goto('/admin/professions');
  await page.getByRole('textbox', { name: /Iskanje/ }).fill('Zdravnik');
  const doctor = page.getByRole('table', { name: 'Poklici' }).locator('tr', { has: page.getByRole('link', { name: 'Zdravnik', exact: true }) });
  await expect(page.getByRole('columnheader', { name: 'Lahko predpisuje ali izdaja zdravila' })).toBeVisible();
  await expect(doctor.getByRole('cell').last()).toHaveText('Da');
  await page.getByRole('textbox', { name: /Iskanje/ }).fill('Medicinska sestra');
  const nurse = page.getByRole('table', { name: 'Poklici' }).locator('tr', { has: page.getByRole('link', { name: 'Medicinska sestra', exact: true }) });
  await expect(nurse.getByRole('cell').last()).toHaveText('Ne');

  await page.goto('/admin/professions/new');
  await page.getByLabel(/^Naziv poklica/).fill(name);
  await page.getByRole('checkbox', { name: 'Lahko predpisuje ali izdaja zdravila' }).check();
  await page.getByRole('button', { name: 'Ustvari' }).click();
  await expect(page).toHaveURL(/\/admin\/professions\/\d+$/);
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Lahko predpisuje ali izdaja zdravila' })).toBeChecked();
  await page.getByRole('button', { name: 'Izbriši' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Izbriši' }).click();
  await expect(page).toHaveURL(/\/admin\/professions$/);
});
