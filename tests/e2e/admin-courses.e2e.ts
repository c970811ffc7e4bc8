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
  await page.goto('/admin/courses');
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
  // Nothing in it yet: publishing is refused with the reason, and nothing changes.
  await act('Objavi', 'Izobraževanje brez vsebine ni mogoče objaviti.');
  await expect(row.getByText('Neobjavljeno')).toBeVisible();
  const courseId = ((await created.json()) as { id: number }).id;
  const block = await page.request.post(`/api/courses/${courseId}/blocks`, {
    headers: { authorization: `JWT ${token}` },
    data: { block: { kind: 'article', name: 'Besedilo', html: '<p>Vsebina</p>' } },
  });
  expect(block.status()).toBe(201);
  await act('Objavi', 'Izobraževanje je objavljeno.');
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
