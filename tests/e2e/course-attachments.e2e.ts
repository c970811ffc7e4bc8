import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { logIn } from './support.ts';

/**
 * Issue 15 items 7 and 11 in Chromium: an admin offers files with a course on its attachments tab
 * (a renamed file is refused by its content), a participant downloads them from the course page;
 * the profit tab shows what the course earns.
 */
test.describe.configure({ mode: 'serial' });

const COURSE = 'Interakcije zdravil v lekarni';

const openCourseTab = async (page: Page, tab: string) => {
  await page.goto('/admin/courses');
  await page.getByRole('textbox', { name: 'Iskanje: Izobraževanja' }).fill('Interakcije');
  await page.getByRole('table', { name: 'Izobraževanja' }).getByRole('link', { name: COURSE }).click();
  await page.getByRole('navigation', { name: 'Zavihki izobraževanja' }).getByRole('link', { name: tab }).click();
};

const choose = async (page: Page, file: { name: string; mimeType: string; buffer: Buffer }) => {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Dodaj priponko' }).click();
  await (await chooser).setFiles(file);
};

test('an admin offers a PDF and a ZIP with a course; a renamed file is refused; the participant downloads them', async ({ page, browser }) => {
  await logIn(page, 'admin');
  await openCourseTab(page, 'Priponke');
  await expect(page).toHaveURL(/\/admin\/courses\/\d+\/attachments$/);
  await expect(page.getByText('Izobraževanje še nima priponk.')).toBeVisible();

  await choose(page, { name: 'slika.gif', mimeType: 'image/gif', buffer: Buffer.from('to ni slika') });
  await expect(page.getByText('Vsebina datoteke ne ustreza njeni vrsti.')).toBeVisible();
  await expect(page.getByText('Izobraževanje še nima priponk.')).toBeVisible();

  await choose(page, { name: 'navodila.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') });
  await expect(page.getByRole('table', { name: 'Priponke' }).getByRole('link', { name: 'navodila.pdf' })).toBeVisible();
  await choose(page, { name: 'gradivo.zip', mimeType: 'application/zip', buffer: Buffer.concat([Buffer.from([0x50, 0x4b, 0x05, 0x06]), Buffer.alloc(18)]) });
  const table = page.getByRole('table', { name: 'Priponke' });
  await expect(table.getByRole('link')).toHaveText(['navodila.pdf', 'gradivo.zip']);

  // Removed after confirming.
  await table.locator('tr', { hasText: 'gradivo.zip' }).getByRole('button', { name: 'Odstrani' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Odstrani' }).click();
  await expect(page.getByText('Priponka je odstranjena.')).toBeVisible();
  await expect(table.getByRole('link')).toHaveText(['navodila.pdf']);

  const participant = await browser.newPage();
  await logIn(participant, 'udelezenec');
  await participant.goto('/izobrazevanja');
  await participant.locator('[data-course]').filter({ hasText: COURSE }).click();
  const files = participant.getByRole('list', { name: 'Priponke' });
  await expect(files.getByRole('link')).toHaveText(['navodila.pdf']);
  const href = await files.getByRole('link', { name: 'navodila.pdf' }).getAttribute('href');
  const file = await participant.request.get(href ?? '');
  expect(file.status()).toBe(200);
  expect((await file.body()).toString('latin1').startsWith('%PDF-')).toBe(true);
  await participant.close();
});

test('the profit tab shows what the course was billed, the revenue shared and the profit', async ({ page }) => {
  await logIn(page, 'admin');
  await openCourseTab(page, 'Dobiček');
  await expect(page).toHaveURL(/\/admin\/courses\/\d+\/profit$/);
  await expect(page.getByRole('heading', { name: 'Dobiček izobraževanja' })).toBeVisible();
  const billed = await page.getByTestId('profit-billed').textContent();
  const shared = await page.getByTestId('profit-shared').textContent();
  const profit = await page.getByTestId('profit-profit').textContent();
  const euros = (text: string | null) => Number((text ?? '').replace(/[^\d,-]/g, '').replace(',', '.'));
  expect(euros(billed)).toBeGreaterThan(0);
  expect(euros(profit)).toBeCloseTo(euros(billed) - euros(shared), 2);
});

test('an author uploads a video at /vimeo through the platform’s own video host and it plays back', async ({ page }) => {
  await logIn(page, 'urednik');
  await page.goto('/vimeo');
  await expect(page.getByRole('heading', { name: 'Nalaganje videa' })).toBeVisible();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Naloži video (MP4, MOV, WebM)' }).click();
  await (await chooser).setFiles({
    name: 'uvod.webm',
    mimeType: 'video/webm',
    buffer: await readFile(join(import.meta.dirname, '..', '..', 'ui', 'public', 'media', 'uvod.webm')),
  });
  await expect(page.getByTestId('uploaded-video')).toHaveText(/^\/api\/files\/\d+$/);
  // The preview loads the stored video (the browser sends the media cookie).
  const video = page.getByLabel('Predogled naloženega videa');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThan(0);
  expect(await video.evaluate((v: HTMLVideoElement) => v.duration)).toBeGreaterThan(0);
  // A file that only says it is a video is refused by its content.
  const fake = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Naloži video (MP4, MOV, WebM)' }).click();
  await (await fake).setFiles({ name: 'lazni.mp4', mimeType: 'video/mp4', buffer: Buffer.from('to ni video, le besedilo') });
  await expect(page.getByText('Vsebina datoteke ni video.')).toBeVisible();
  await expect(page.getByTestId('uploaded-video')).toHaveCount(1);
});
