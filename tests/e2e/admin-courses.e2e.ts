import { expect, test } from '@playwright/test';
import { apiToken, logIn } from './support.ts';

/**
 * Issue 15, the course list in Chromium: an admin finds courses by search and filters, reads what each
 * lacks for publishing, withdraws and restores a publication, archives, and deletes a course behind a
 * confirmation.
 */
test.describe.configure({ mode: 'serial' });

const stamp = Date.now().toString(36);
const throwaway = `Tečaj za brisanje ${stamp}`;

test('an admin searches and filters the course list and reads what each course lacks for publishing', async ({ page }) => {
  await logIn(page, 'admin');
  // From the course list every user has, an author finds the way to editing (and from the menu: issue 33).
  await page.goto('/izobrazevanja');
  await page.getByRole('main').getByRole('link', { name: 'Urejanje izobraževanj' }).click();
  await expect(page).toHaveURL(/\/admin\/courses$/);
  await expect(page.getByRole('heading', { name: 'Izobraževanja', exact: true })).toBeVisible();
  const table = page.getByRole('table', { name: 'Izobraževanja' });
  await expect(table.getByRole('link', { name: 'Interakcije zdravil v lekarni' })).toBeVisible();

  // The demo's reserved course opens in 30 days.
  await page.getByRole('combobox', { name: 'Stanje' }).click();
  await page.getByRole('option', { name: 'Kmalu na voljo' }).click();
  await expect(table.getByRole('link')).toHaveText(['Nova zdravila za sladkorno bolezen']);
  await expect(page.getByText('1 zapis')).toBeVisible();
  await page.getByRole('combobox', { name: 'Stanje' }).click();
  await page.getByRole('option', { name: 'Aktivno' }).click();
  await page.getByRole('textbox', { name: 'Iskanje: Izobraževanja' }).fill('prehlad');
  await expect(table.getByRole('link')).toHaveText(['Samozdravljenje prehlada']);
  // A public course with an article and a quiz: no video, no NPS; being public, it lacks no participants.
  const row = table.locator('tr', { hasText: 'Samozdravljenje prehlada' });
  for (const gap of ['brez videa', 'brez ankete NPS']) await expect(row.getByText(gap)).toBeVisible();
  await expect(row.getByText('brez kviza')).toHaveCount(0);
  await expect(row.getByText('brez udeležencev')).toHaveCount(0);

  // A course's pages are tabs: the general page, then its NPS survey's figures, and back.
  await page.getByRole('textbox', { name: 'Iskanje: Izobraževanja' }).fill('Interakcije');
  await table.getByRole('link', { name: 'Interakcije zdravil v lekarni' }).click();
  const tabs = page.getByRole('navigation', { name: 'Zavihki izobraževanja' });
  await expect(tabs.getByRole('link', { name: 'Splošno' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('textbox', { name: 'Naslov', exact: true })).toHaveValue('Interakcije zdravil v lekarni');
  await tabs.getByRole('link', { name: 'NPS', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/courses\/\d+\/nps\/\d+\/overview\/0$/);
  await expect(tabs.getByRole('link', { name: 'NPS', exact: true })).toHaveAttribute('aria-current', 'page');
  await tabs.getByRole('link', { name: 'Splošno' }).click();
  await expect(page).toHaveURL(/\/general$/);
});

test('an admin withdraws a publication and publishes again, archives and restores, and deletes a course after confirming', async ({ page }) => {
  const token = await apiToken(page, 'admin');
  const created = await page.request.post('/api/courses', {
    headers: { authorization: `JWT ${token}` },
    data: { type: 3, title: throwaway, description: 'Izobraževanje, ki ga test izbriše.', cover: '/c.svg', creditPoints: 1, public: true },
  });
  expect(created.status()).toBe(201);
  await logIn(page, 'admin');
  await page.goto('/admin/courses');
  await page.getByRole('textbox', { name: 'Iskanje: Izobraževanja' }).fill(stamp);
  const table = page.getByRole('table', { name: 'Izobraževanja' });
  const row = table.locator('tr', { has: page.getByRole('link', { name: throwaway, exact: true }) });
  await expect(row.getByText('Neobjavljeno')).toBeVisible();

  const act = async (item: string, done: string) => {
    await row.getByRole('button', { name: `Dejanja za ${throwaway}` }).click();
    await page.getByRole('menuitem', { name: item }).click();
    await expect(page.getByText(done)).toBeVisible();
  };
  // Nothing in it yet: publishing, even when confirmed, is refused with the reason, and nothing changes.
  await row.getByRole('button', { name: `Dejanja za ${throwaway}` }).click();
  await page.getByRole('menuitem', { name: 'Objavi' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Vseeno objavi' }).click();
  await expect(page.getByText('Izobraževanje brez vsebine ni mogoče objaviti.')).toBeVisible();
  await expect(row.getByText('Neobjavljeno')).toBeVisible();
  const courseId = ((await created.json()) as { id: number }).id;
  const block = await page.request.post(`/api/courses/${courseId}/blocks`, {
    headers: { authorization: `JWT ${token}` },
    data: { block: { kind: 'article', name: 'Besedilo', html: '<p>Vsebina</p>' } },
  });
  expect(block.status()).toBe(201);
  // It lacks things for publishing: the dialog names them and asks first.
  await row.getByRole('button', { name: `Dejanja za ${throwaway}` }).click();
  await page.getByRole('menuitem', { name: 'Objavi' }).click();
  const dialog = page.getByRole('dialog', { name: 'Objava nepopolnega izobraževanja' });
  await expect(dialog.getByTestId('publish-gaps')).toContainText('brez videa');
  await dialog.getByRole('button', { name: 'Vseeno objavi' }).click();
  await expect(page.getByText('Izobraževanje je objavljeno.')).toBeVisible();
  await expect(row.getByText('Objavljeno', { exact: true })).toBeVisible();
  await act('Umakni objavo', 'Objava izobraževanja je umaknjena.');
  await expect(row.getByText('Neobjavljeno')).toBeVisible();
  await act('Arhiviraj', 'Izobraževanje je arhivirano.');
  await expect(row.getByText('Arhivirano')).toBeVisible();
  await act('Vrni iz arhiva', 'Izobraževanje je vrnjeno iz arhiva.');
  await expect(row.getByText('Aktivno')).toBeVisible();

  await act('Podvoji', 'Kopija izobraževanja je narejena; najdete jo na vrhu seznama.');
  const copy = table.locator('tr', { has: page.getByRole('link', { name: `${throwaway} (kopija)`, exact: true }) });
  await expect(copy.getByText('Neobjavljeno')).toBeVisible();

  await row.getByRole('button', { name: 'Izbriši' }).click();
  await expect(page.getByRole('dialog')).toContainText(`Izbrišem izobraževanje »${throwaway}«?`);
  await page.getByRole('dialog').getByRole('button', { name: 'Izbriši' }).click();
  await expect(page.getByText('Izobraževanje je izbrisano.')).toBeVisible();
  // The copy stays; the original is gone from the list.
  await expect(page.getByRole('table', { name: 'Izobraževanja' }).getByRole('link')).toHaveText([`${throwaway} (kopija)`]);
  // Still there for whoever asks for deleted courses.
  await page.getByRole('combobox', { name: 'Stanje' }).click();
  await page.getByRole('option', { name: 'Izbrisano' }).click();
  await expect(page.getByRole('table', { name: 'Izobraževanja' }).getByRole('link')).toHaveText([throwaway]);
});

test('an editor creates a course, is told what is wrong in Slovenian, continues editing it and gives it a future interval', async ({ page }) => {
  const title = `Nov tečaj ${stamp}`;
  await logIn(page, 'urednik');
  await page.goto('/admin/courses');
  await page.getByRole('link', { name: 'Novo izobraževanje' }).click();
  await expect(page.getByRole('heading', { name: 'Novo izobraževanje' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Naslov', exact: true }).fill(title);
  await page.getByRole('textbox', { name: 'Opis', exact: true }).fill('Prekratko');
  await page.getByLabel('Kreditne točke').fill('11');
  await page.getByRole('button', { name: 'Ustvari' }).click();
  await expect(page.getByText('Opis mora imeti najmanj 20 znakov')).toBeVisible();
  await expect(page.getByText('Kreditne točke morajo biti med 0,0 in 10,0')).toBeVisible();
  await expect(page.getByText('Vnos je obvezen')).toBeVisible();

  await page.getByRole('textbox', { name: 'Opis', exact: true }).fill('Izobraževanje, ki ga ustvari urednica v brskalniku.');
  await page.getByLabel('Kreditne točke').fill('1,5');
  await page.getByLabel('Naslovna slika (pot ali URL)').fill('/covers/nov.svg');
  await page.getByRole('button', { name: 'Ustvari' }).click();
  await expect(page.getByText('Izobraževanje je ustvarjeno. Nadaljujte z urejanjem.')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/courses\/\d+\/general$/);
  await expect(page.getByRole('heading', { name: title })).toBeVisible();

  // A stop before the start is refused on the field; then a real interval 10 days ahead is saved.
  await page.getByRole('button', { name: 'Dodaj termin' }).click();
  const interval = page.getByTestId('interval-0');
  // Typed as people in Slovenia write it (d. m. yyyy HH:mm), Ljubljana time.
  const local = (days: number) => {
    const day = new Intl.DateTimeFormat('sl-SI', { timeZone: 'Europe/Ljubljana', day: 'numeric', month: 'numeric', year: 'numeric' });
    return `${day.format(new Date(Date.now() + days * 24 * 3600 * 1000)).replace(/\s/g, ' ')} 10:00`;
  };
  await interval.getByLabel('Začetek').fill(local(12));
  await interval.getByLabel('Konec').fill(local(10));
  await page.getByRole('button', { name: 'Shrani' }).click();
  await expect(page.getByText('Konec mora biti po začetku')).toBeVisible();
  await interval.getByLabel('Konec').fill(local(20));
  await page.getByRole('button', { name: 'Shrani' }).click();
  await expect(page.getByText('Spremembe so shranjene.')).toBeVisible();

  await page.reload();
  await expect(page.getByTestId('interval-0').getByLabel('Začetek')).toHaveValue(local(12));
  await expect(page.getByLabel('Kreditne točke')).toHaveValue('1,5');
  await page.goto('/admin/courses');
  await page.getByRole('textbox', { name: 'Iskanje: Izobraževanja' }).fill(title);
  const row = page.getByRole('table', { name: 'Izobraževanja' }).locator('tr', { hasText: title });
  await expect(row.getByText('Kmalu na voljo')).toBeVisible();
  await expect(row.getByText('Neobjavljeno')).toBeVisible();
});

test('a participant is offered no way to course editing, and the admin list refuses them', async ({ page }) => {
  await logIn(page, 'udelezenec');
  await page.goto('/izobrazevanja');
  await expect(page.getByRole('heading', { name: 'Izobraževanja', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Urejanje izobraževanj' })).toHaveCount(0);
  const token = await apiToken(page, 'udelezenec');
  expect((await page.request.get('/api/courses', { headers: { authorization: `JWT ${token}` } })).status()).toBe(403);
});

test('an admin targets a course at a unit, sees how many will see it before saving, and is told a profession is needed', async ({ page }) => {
  const token = await apiToken(page, 'admin');
  const title = `Ciljni tečaj ${stamp}`;
  const created = await page.request.post('/api/courses', {
    headers: { authorization: `JWT ${token}` },
    data: { type: 3, title, description: 'Izobraževanje za izbiro udeležencev.', cover: '/c.svg', creditPoints: 1 },
  });
  const courseId = ((await created.json()) as { id: number }).id;
  await logIn(page, 'admin');
  await page.goto(`/admin/courses/${courseId}/participants`);
  await expect(page.getByRole('heading', { name: `Udeleženci: ${title}` })).toBeVisible();
  const count = page.getByTestId('audience-count');
  await expect(count).toHaveText('Izobraževanje bo videlo 0 uporabnikov.');

  await page.getByRole('combobox', { name: 'Enote' }).click();
  await page.getByRole('option', { name: 'Lekarna Center (Lekarne Zdravje d.o.o.)' }).click();
  await page.keyboard.press('Escape');
  await expect(count).not.toHaveText('Izobraževanje bo videlo 0 uporabnikov.');
  const reached = await count.textContent();

  await page.getByRole('switch', { name: 'Samo za izbrane poklice' }).click();
  await page.getByRole('button', { name: 'Shrani' }).click();
  await expect(page.getByText('Izberite vsaj en poklic')).toBeVisible();
  await page.getByRole('switch', { name: 'Samo za izbrane poklice' }).click();
  await page.getByRole('button', { name: 'Shrani' }).click();
  await expect(page.getByText('Spremembe so shranjene.')).toBeVisible();

  await page.reload();
  await expect(page.getByTestId('audience-count')).toHaveText(reached ?? '');
  // Public: everyone, and the targets go.
  await page.getByRole('switch', { name: 'Javno (za vse uporabnike)' }).click();
  await expect(page.getByRole('combobox', { name: 'Enote' })).toBeDisabled();
  await page.getByRole('button', { name: 'Shrani' }).click();
  await expect(page.getByText('Spremembe so shranjene.')).toBeVisible();
  await page.goto('/admin/courses');
  await page.getByRole('textbox', { name: 'Iskanje: Izobraževanja' }).fill(title);
  await expect(page.getByRole('table', { name: 'Izobraževanja' }).locator('tr', { hasText: title }).getByText('brez udeležencev')).toHaveCount(0);
});
