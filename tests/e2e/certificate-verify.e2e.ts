import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { pdfText } from '../support/pdf-text.ts';
import { SAMPLE_PNG } from '../support/sample-png.ts';
import { apiToken, logIn, publishCourse, seriousAxeViolations } from './support.ts';

/** No serious or critical accessibility violation (axe-core) once the page has loaded. */
const accessible = async (page: Page, where: string) => {
  await expect(page.locator('[role="status"]')).toHaveCount(0);
  expect(await seriousAxeViolations(page), where).toEqual([]);
};

/**
 * Issue 18 item 3 in Chromium: a participant completes a course with credit points of the
 * pharmacists' chamber; the completion page shows the certificate's short number and a link to
 * verify it; the PDF is a "Certifikat" with the same number and the accreditation line; a stranger
 * without signing in opens the verification page (where the QR code leads) and sees it valid, and a
 * forged number is not.
 */
test('a certificate’s number is verified by anyone at /certifikat/{number}, without signing in', async ({ page, browser }) => {
  const token = await apiToken(page, 'admin');
  const title = `Certifikat z zbornico ${Date.now().toString(36)}`;
  const courseId = await publishCourse(
    page,
    token,
    { title, description: 'Izobraževanje, ki ga priznava Lekarniška zbornica.', creditPoints: 3, externalId: 'LZS-E2E-CERT', syncDestination: 1 },
    [{ kind: 'points', name: 'Točke', points: 3 }],
  );

  await logIn(page, 'udelezenec');
  await page.goto(`/izobrazevanja/${courseId}`);
  await page.getByRole('button', { name: 'Začni izobraževanje' }).click();
  await expect(page).toHaveURL(new RegExp(`/izobrazevanja/${courseId}/konec$`));

  // The icon stands out from its circle (a user test saw a plain green disc).
  const icon = page.getByTestId('completed-icon');
  const colours = await icon.evaluate((el) => ({
    disc: getComputedStyle(el).backgroundColor,
    icon: getComputedStyle(el.querySelector('svg') as SVGElement).stroke || getComputedStyle(el.querySelector('svg') as SVGElement).color,
  }));
  expect(colours.icon).not.toBe(colours.disc);
  expect(colours.icon).toBe('rgb(255, 255, 255)');
  // The disc is dark green, and the white icon on it has the contrast of a graphical object (WCAG 1.4.11: at least 3:1).
  const [red, green, blue] = (colours.disc.match(/\d+/g) ?? []).map(Number) as [number, number, number];
  expect(green).toBeGreaterThan(red);
  expect(green).toBeGreaterThan(blue);
  const linear = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  const luminance = 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue);
  expect(1.05 / (luminance + 0.05)).toBeGreaterThanOrEqual(3);

  await accessible(page, 'the completion page');

  const numberText = await page.getByTestId('certificate-number').textContent();
  const number = /ML-\d{4}-[0-9A-Z]{5}-[0-9A-Z]{5}/.exec(numberText ?? '')?.[0] as string;
  expect(number).toBeTruthy();

  // One name: the PDF is a Certifikat, saved as certifikat-<number>.pdf, with the number and the accreditation line.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Prenesi certifikat (PDF)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`certifikat-${number}.pdf`);
  const text = await pdfText(await readFile(await download.path()));
  expect(text).toContain('CERTIFIKAT');
  expect(text).toContain(`Številka certifikata: ${number}`);
  expect(text).toContain('Izobraževanje je ovrednoteno s 3 kreditnimi točkami pri Lekarniški zbornici.');
  expect(text).toContain(`/certifikat/${number}`);

  // The participant's link leads to the public page.
  await page.getByRole('link', { name: 'Preveri veljavnost certifikata' }).click();
  await expect(page).toHaveURL(new RegExp(`/certifikat/${number}$`));
  await expect(page.getByTestId('certificate-valid')).toHaveText('Certifikat je veljaven.');

  // A stranger, not signed in, opens the address of the QR code.
  const context = await browser.newContext();
  const stranger = await context.newPage();
  await stranger.goto(`/certifikat/${number}`);
  await expect(stranger).toHaveURL(new RegExp(`/certifikat/${number}$`));
  await expect(stranger.getByRole('heading', { name: 'Preverjanje certifikata' })).toBeVisible();
  await expect(stranger.getByTestId('certificate-valid')).toHaveText('Certifikat je veljaven.');
  const details = stranger.getByRole('table');
  await expect(details).toContainText('Urška Udeleženec');
  await expect(details).toContainText(title);
  await expect(details).toContainText('Lekarniška zbornica');
  await expect(details).toContainText(number);
  await accessible(stranger, 'a valid certificate');

  // A forged number is no certificate; another one can be typed in.
  const forged = `${number.slice(0, 8)}${number.slice(8, 13) === 'AAAAA' ? 'BBBBB' : 'AAAAA'}${number.slice(13)}`;
  await stranger.goto(`/certifikat/${forged}`);
  await expect(stranger.getByTestId('certificate-invalid')).toContainText(`Certifikata s številko ${forged} ni.`);
  await accessible(stranger, 'a forged number');
  await stranger.getByLabel('Številka certifikata (npr. ML-2026-7KQ4X-9M2PD)').fill(number.toLowerCase());
  await stranger.getByRole('button', { name: 'Preveri' }).click();
  await expect(stranger.getByTestId('certificate-valid')).toBeVisible();
  await context.close();

  // The profile lists the number with the same link.
  await page.goto('/profil/izobrazevanja');
  await expect(page.getByTestId('certificate-number').filter({ hasText: number })).toBeVisible();
});

/**
 * Issue 18 item 3, a unit's own signature (spec §3): the card on the unit's page, used in Chromium
 * by an admin (1011) on a new unit and by the unit's manager (2001) on theirs, with its PNG image;
 * while the unit signs, its participants' certificates name it as issuer with that signature, and
 * once removed the company issues them again.
 */
test('the unit signature card: an admin and the unit’s manager set and remove the signature its certificates carry', async ({ page, browser }) => {
  const admin = { authorization: `JWT ${await apiToken(page, 'admin')}` };
  const manager = { authorization: `JWT ${await apiToken(page, 'vodja')}` };
  const participant = { authorization: `JWT ${await apiToken(page, 'udelezenec')}` };
  type Me = { userRoles: { unit_id: number; company_id: number | null }[] };
  const role = ((await (await page.request.get('/api/users/me', { headers: manager })).json()) as Me).userRoles.find((r) => r.unit_id > 0);
  const center = role?.unit_id as number;
  const companyId = role?.company_id as number;
  const unitOf = async (id: number) =>
    (await (await page.request.get(`/api/units/${id}`, { headers: admin })).json()) as {
      name: string;
      signature: { name: string; role: string; imageFileId: number | null } | null;
    };
  const card = (p: typeof page) => p.locator('form').filter({ hasText: 'Če ima enota svoj podpis' });

  // An admin, on a new unit of the demo company.
  const suffix = Date.now().toString(36);
  const created = await page.request.post('/api/units', { headers: admin, data: { name: `Lekarna s podpisom ${suffix}`, companyId } });
  expect(created.status()).toBe(201);
  const unitId = ((await created.json()) as { id: number }).id;
  await logIn(page, 'admin');
  await page.goto(`/admin/units/${unitId}`);
  await expect(page.getByRole('heading', { name: 'Podpis enote na certifikatih' })).toBeVisible();
  await card(page).getByLabel('Ime podpisnika').fill('mag. Maja Kos');
  await card(page).getByLabel('Funkcija podpisnika').fill('Vodja lekarne');
  // Only a PNG is drawn on certificates: a JPEG is refused on the field, before it is uploaded.
  await card(page)
    .locator('input[type="file"]')
    .setInputFiles({ name: 'podpis.jpg', mimeType: 'image/jpeg', buffer: Buffer.from([0xff, 0xd8, 0xff, 0xe0]) });
  await expect(card(page).getByText('Slika podpisa mora biti datoteka PNG.')).toBeVisible();
  await card(page).locator('input[type="file"]').setInputFiles({ name: 'podpis.png', mimeType: 'image/png', buffer: SAMPLE_PNG });
  await expect(card(page).getByTestId('signature-preview')).toBeVisible();
  // The preview is drawn (the page's security policy lets the browser show the chosen image).
  await expect
    .poll(() =>
      card(page)
        .getByTestId('signature-preview')
        .evaluate((img) => (img as HTMLImageElement).naturalWidth),
    )
    .toBeGreaterThan(0);
  await card(page).getByRole('button', { name: 'Shrani podpis' }).click();
  await expect(page.getByText('Spremembe so shranjene.').first()).toBeVisible();
  await expect.poll(async () => (await unitOf(unitId)).signature).toEqual({ name: 'mag. Maja Kos', role: 'Vodja lekarne', imageFileId: expect.any(Number) });
  await page.reload();
  await expect(card(page).getByLabel('Ime podpisnika')).toHaveValue('mag. Maja Kos');
  await expect(card(page).getByTestId('signature-preview')).toBeVisible();
  await card(page).getByRole('button', { name: 'Odstrani podpis enote' }).click();
  await expect(card(page).getByLabel('Ime podpisnika')).toHaveValue('');
  await expect(card(page).getByRole('button', { name: 'Odstrani podpis enote' })).toHaveCount(0);
  await expect.poll(async () => (await unitOf(unitId)).signature).toBeNull();

  // The unit's manager, on their own unit, with an image they upload themselves.
  const context = await browser.newContext();
  const vodja = await context.newPage();
  await logIn(vodja, 'vodja');
  await vodja.goto(`/admin/units/${center}`);
  await card(vodja).getByLabel('Ime podpisnika').fill('mag. Vesna Vodja');
  await card(vodja).getByLabel('Funkcija podpisnika').fill('Vodja enote');
  await card(vodja).locator('input[type="file"]').setInputFiles({ name: 'podpis-vodje.png', mimeType: 'image/png', buffer: SAMPLE_PNG });
  await expect(card(vodja).getByTestId('signature-preview')).toBeVisible();
  await card(vodja).getByRole('button', { name: 'Shrani podpis' }).click();
  await expect(card(vodja).getByRole('button', { name: 'Odstrani podpis enote' })).toBeVisible();
  await expect.poll(async () => (await unitOf(center)).signature).toEqual({ name: 'mag. Vesna Vodja', role: 'Vodja enote', imageFileId: expect.any(Number) });
  const signed = await unitOf(center);

  // A participant of the unit completes a course: the unit issues the certificate, with the manager's signature.
  const course = await page.request.post('/api/courses', {
    headers: admin,
    data: { type: 3, title: `Podpis enote ${suffix}`, description: 'Izobraževanje za podpis enote.', cover: '/c.svg', creditPoints: 1, public: true },
  });
  const courseId = ((await course.json()) as { id: number }).id;
  const block = await page.request.post(`/api/courses/${courseId}/blocks`, { headers: admin, data: { block: { kind: 'points', name: 'Točke', points: 1 } } });
  const blockId = ((await block.json()) as { id: number }).id;
  expect((await page.request.post(`/api/courses/${courseId}/publish`, { headers: admin })).status()).toBe(200);
  // The published course reaches the participant's read model a moment later.
  await expect(async () => {
    expect((await page.request.post(`/api/user-courses/${courseId}/start`, { headers: participant })).status()).toBe(200);
  }).toPass();
  const completed = await page.request.post(`/api/user-courses/${courseId}/blocks/${blockId}/open`, { headers: participant });
  expect(completed.status()).toBe(200);
  // Read what was just written, as the UI does (X-Min-Position).
  const position = { 'x-min-position': completed.headers()['x-event-position'] as string };
  const certificate = async () => {
    const response = await page.request.get(`/api/user-courses/${courseId}/certificate`, { headers: { ...participant, ...position } });
    expect(response.status()).toBe(200);
    return pdfText(await response.body());
  };
  const withUnit = await certificate();
  expect(withUnit).toContain(`Izdajatelj: ${signed.name}`);
  expect(withUnit).toContain('mag. Vesna Vodja');
  expect(withUnit).toContain('Vodja enote');
  expect(withUnit).toContain('Izobraževanje je ovrednoteno z 1 kreditno točko.');

  // The manager removes it: the company issues the certificate again.
  await card(vodja).getByRole('button', { name: 'Odstrani podpis enote' }).click();
  await expect(card(vodja).getByLabel('Ime podpisnika')).toHaveValue('');
  await expect.poll(async () => (await unitOf(center)).signature).toBeNull();
  const withCompany = await certificate();
  expect(withCompany).not.toContain('mag. Vesna Vodja');
  expect(withCompany).not.toContain(`Izdajatelj: ${signed.name}`);
  await context.close();
});
