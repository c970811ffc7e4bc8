import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { pdfText } from '../support/pdf-text.ts';
import { SAMPLE_PNG } from '../support/sample-png.ts';
import { apiToken, logIn } from './support.ts';

/**
 * Issue 15 "done when", in Chromium: an editor builds a course of every block kind from nothing,
 * targets it at one unit, watches the publishing flags disappear, publishes it; a participant of
 * that unit completes it (an uploaded video plays from the platform's own video host) and gets the
 * certificate; a participant of another unit never sees it.
 */
test.describe.configure({ mode: 'serial' });

const title = `Antikoagulanti v praksi ${Date.now().toString(36)}`;
let courseId = 0;

const gapsOf = (page: Page) => page.getByRole('table', { name: 'Izobraževanja' }).locator('tr', { hasText: title });

const addBlock = async (page: Page, kind: string, name: string) => {
  await page.goto(`/admin/courses/${courseId}/general`);
  await page.getByRole('button', { name: 'Dodaj blok' }).click();
  await page.getByRole('menuitem', { name: kind, exact: true }).click();
  await page.getByRole('textbox', { name: 'Ime bloka' }).fill(name);
};
const save = async (page: Page) => {
  await page.getByRole('button', { name: 'Shrani' }).click();
  await expect(page.getByText('Blok je dodan na konec vsebine.')).toBeVisible();
};

test('an editor builds a course of every block kind, targets one unit, and publishes it once nothing is missing', async ({ page }) => {
  // Seven blocks typed and uploaded one by one: more than the default minute on a busy machine.
  test.setTimeout(120_000);
  await logIn(page, 'urednik');
  await page.goto('/admin/courses/new');
  await page.getByRole('textbox', { name: 'Naslov', exact: true }).fill(title);
  await page.getByRole('textbox', { name: 'Opis', exact: true }).fill('Kako varno svetujemo bolnikom, ki jemljejo antikoagulante.');
  // Issue 33: an uploaded cover shows as its picture (not as "/api/files/…"), to replace or remove.
  const coverChooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Naloži sliko (JPEG, PNG)' }).click();
  await (await coverChooser).setFiles({ name: 'antikoagulanti.png', mimeType: 'image/png', buffer: SAMPLE_PNG });
  const preview = page.getByRole('img', { name: 'Predogled naslovne slike' });
  await expect(preview).toHaveAttribute('src', /^\/api\/files\/\d+$/);
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(page.getByRole('textbox', { name: 'Naslovna slika (pot ali URL)' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Zamenjaj sliko (JPEG, PNG)' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Odstrani sliko' })).toBeVisible();
  await page.getByLabel('Kreditne točke').fill('1,5');
  // What the participant's course card shows at a glance: lecturer, duration and the open interval's end.
  await page.getByRole('textbox', { name: 'Predavatelj' }).fill('dr. Nina Kos');
  await page.getByRole('textbox', { name: 'Trajanje (v minutah)' }).fill('90');
  await page.getByRole('button', { name: 'Dodaj termin' }).click();
  await page.getByTestId('interval-0').getByRole('textbox', { name: 'Začetek' }).fill('1. 1. 2020 00:00');
  await page.getByTestId('interval-0').getByRole('textbox', { name: 'Konec' }).fill('31. 12. 2099 23:59');
  await page.getByRole('button', { name: 'Ustvari' }).click();
  await expect(page).toHaveURL(/\/admin\/courses\/\d+\/general$/);
  courseId = Number(/courses\/(\d+)\//.exec(page.url())?.[1]);

  // Nothing in it yet: every flag is up.
  await page.goto('/admin/courses');
  await page.getByRole('textbox', { name: 'Iskanje: Izobraževanja' }).fill(title);
  for (const gap of ['brez obvestil', 'brez ankete NPS', 'brez udeležencev', 'brez kviza', 'brez značk', 'brez videa']) {
    await expect(gapsOf(page).getByText(gap)).toBeVisible();
  }

  // The video is uploaded to the platform's own video host.
  await addBlock(page, 'Video', 'Uvodno predavanje');
  await page.getByText('Datoteka ali naslov', { exact: true }).click();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Naloži video (MP4, MOV, WebM)' }).click();
  await (await chooser).setFiles({
    name: 'uvod.webm',
    mimeType: 'video/webm',
    buffer: await readFile(join(import.meta.dirname, '..', '..', 'ui', 'public', 'media', 'uvod.webm')),
  });
  await expect(page.getByRole('textbox', { name: 'Naslov video datoteke' })).toHaveValue(/^\/api\/files\/\d+$/);
  await save(page);

  await addBlock(page, 'Kviz', 'Preverjanje');
  await page.getByRole('textbox', { name: 'Vprašanje 1', exact: true }).fill('Kateri sok poveča učinek varfarina?');
  await page.getByRole('textbox', { name: 'Vprašanje 1, odgovor 1' }).fill('Brusnični sok');
  await page.getByRole('textbox', { name: 'Vprašanje 1, odgovor 2' }).fill('Paradižnikov sok');
  await page.getByRole('radio', { name: 'Pravilen odgovor: vprašanje 1, odgovor 1' }).check();
  await save(page);

  await addBlock(page, 'Anketa NPS', 'Vaše mnenje');
  await save(page);
  await addBlock(page, 'Članek', 'Povzetek');
  await page.getByRole('textbox', { name: 'Besedilo' }).click();
  await page.keyboard.type('Pri varfarinu preverimo INR in sočasna zdravila.');
  await save(page);
  await addBlock(page, 'Besedilna datoteka', 'Gradivo');
  const pdf = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Naloži PDF' }).click();
  await (await pdf).setFiles({ name: 'gradivo.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n') });
  await expect(page.getByRole('textbox', { name: 'Naslov datoteke' })).toHaveValue(/^\/api\/files\/\d+$/);
  await save(page);
  await addBlock(page, 'Obrazec Typeform', 'Kratka anketa');
  await page.getByRole('textbox', { name: 'Typeform ID' }).fill('aBc123');
  await save(page);
  await addBlock(page, 'Kreditne točke', 'Kreditne točke');
  await page.getByRole('textbox', { name: 'Kreditne točke' }).fill('1,5');
  await save(page);

  // Notifications and a tag on the general page; one unit on the participants page.
  await page.goto(`/admin/courses/${courseId}/general`);
  await page.getByRole('switch', { name: 'Obvestila' }).click();
  await page.getByRole('combobox', { name: 'Značke' }).click();
  await page.getByRole('option', { name: 'Farmakoterapija' }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Shrani', exact: true }).first().click();
  await expect(page.getByText('Spremembe so shranjene.')).toBeVisible();
  await page.goto(`/admin/courses/${courseId}/participants`);
  await page.getByRole('combobox', { name: 'Enote' }).click();
  await page.getByRole('option', { name: 'Lekarna Center (Lekarne Zdravje d.o.o.)' }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Shrani' }).click();
  await expect(page.getByText('Spremembe so shranjene.')).toBeVisible();

  // Every flag is gone: publishing asks nothing.
  await page.goto('/admin/courses');
  await page.getByRole('textbox', { name: 'Iskanje: Izobraževanja' }).fill(title);
  await expect(gapsOf(page).getByText('Nič ne manjka')).toBeVisible();
  await gapsOf(page)
    .getByRole('button', { name: `Dejanja za ${title}` })
    .click();
  await page.getByRole('menuitem', { name: 'Objavi' }).click();
  await expect(page.getByText('Izobraževanje je objavljeno.')).toBeVisible();
  await expect(gapsOf(page).getByText('Objavljeno', { exact: true })).toBeVisible();
});

test('a participant of the unit completes every block, the uploaded video included, and gets the certificate', async ({ page }) => {
  // Typeform is an outside service this machine cannot reach; its frame gets an empty page, as a loaded form
  // would be to the platform (a frame that never loads made the next click race the page's layout).
  await page.route('https://form.typeform.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Typeform</title>' }));
  await logIn(page, 'udelezenec');
  await page.goto('/izobrazevanja');
  // Issue 33: the card's one link is its title, and it shows the uploaded cover, duration, credit
  // points, lecturer, due date and the participant's progress.
  const link = page.getByRole('link', { name: title, exact: true });
  const card = page.locator('[data-course]').filter({ has: link });
  await expect(card.locator('a, button, input, select, textarea, [tabindex]')).toHaveCount(1);
  const cover = card.getByTestId('course-cover');
  await expect(cover).toHaveAttribute('src', /^\/api\/files\/\d+$/);
  await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(card.getByTestId('course-duration')).toHaveText('Trajanje: 1 h 30 min');
  await expect(card.getByTestId('course-points')).toHaveText('Kreditne točke: 1,5 kreditne točke');
  await expect(card.getByTestId('course-lecturer')).toHaveText('Predavatelj: dr. Nina Kos');
  await expect(card.getByTestId('course-due')).toHaveText('Rok: 31. 12. 2099');
  await expect(card.getByRole('progressbar', { name: 'Napredek' })).toHaveAttribute('aria-valuenow', '0');
  await expect(card.getByTestId('course-progress')).toContainText('0 od 7 vsebin');
  // On a phone the card fits the screen: nothing sticks out of it or makes the page scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await card.scrollIntoViewIfNeeded();
  const box = await card.boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? 999)).toBeLessThanOrEqual(390);
  expect(await card.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 720 });
  // A click on the card (its middle, below the title) opens the course.
  await card.click();
  await page.getByRole('button', { name: 'Začni izobraževanje' }).click();
  await expect(page.getByTestId('block-position')).toHaveText('Vsebina 1 od 7');
  const next = page.getByRole('button', { name: 'Naprej' });

  // The video comes from the platform (the browser sends the media cookie) and must be watched.
  const video = page.locator('video');
  await video.evaluate(async (v: HTMLVideoElement) => {
    v.muted = true;
    v.playbackRate = 4;
    await v.play();
  });
  await expect(page.getByTestId('video-done')).toHaveText('Video je ogledan.', { timeout: 20_000 });
  await next.click();

  await expect(page.getByTestId('block-position')).toHaveText('Vsebina 2 od 7');
  await page.getByLabel('Brusnični sok').check();
  await page.getByRole('button', { name: 'Oddaj odgovore' }).click();
  await expect(page.getByTestId('quiz-result')).toHaveText('Kviz je opravljen (100 %).');
  await next.click();

  await expect(page.getByTestId('block-position')).toHaveText('Vsebina 3 od 7');
  await page.getByRole('radio', { name: '10', exact: true }).click();
  await page.getByLabel('Uporabno v vsakdanji praksi').check();
  await page.getByRole('button', { name: 'Oddaj oceno' }).click();
  await expect(page.getByTestId('nps-done')).toBeVisible();
  await next.click();

  await expect(page.getByText('Pri varfarinu preverimo INR in sočasna zdravila.')).toBeVisible();
  await next.click();
  await expect(page.getByRole('link', { name: 'Odpri datoteko' })).toBeVisible();
  // The stored PDF opens for the participant with the cookie the browser sends.
  const href = await page.getByRole('link', { name: 'Odpri datoteko' }).getAttribute('href');
  const opened = await page.request.get(href ?? '');
  expect(opened.status()).toBe(200);
  expect(opened.headers()['content-type']).toBe('application/pdf');
  await next.click();
  await expect(page.getByTestId('block-position')).toHaveText('Vsebina 6 od 7');
  // Scrolled first: a click that scrolls past the typeform frame (which cannot load offline) in the same
  // instant is lost in headless Chromium; a person scrolls, then clicks.
  await expect(next).toBeEnabled();
  await next.scrollIntoViewIfNeeded();
  // The last block, credit points, completes the course. A click lost to the frame is a person clicking again.
  await expect(async () => {
    if (page.url().endsWith('/bloki/6')) await next.click({ timeout: 2_000 });
    await expect(page).toHaveURL(new RegExp(`/izobrazevanja/${courseId}/konec$`), { timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Čestitamo! Izobraževanje je zaključeno.' })).toBeVisible();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Prenesi certifikat (PDF)' }).click();
  const text = await pdfText(await readFile(await (await downloading).path()));
  expect(text).toContain('Urška Udeleženec');
  expect(text).toContain(title);
  // The card now shows the course done: the whole bar, and no due date for a finished course.
  await page.goto('/izobrazevanja?filter=completed');
  await expect(card.getByRole('progressbar', { name: 'Napredek' })).toHaveAttribute('aria-valuenow', '100');
  await expect(card.getByTestId('course-progress')).toContainText('7 od 7 vsebin');
  await expect(card.getByTestId('course-due')).toHaveCount(0);
});

test('a participant of another unit neither sees nor opens the course', async ({ page }) => {
  await logIn(page, 'lekarnar');
  await page.goto('/izobrazevanja');
  await expect(page.locator('[data-course]').first()).toBeVisible();
  await expect(page.locator('[data-course]').filter({ hasText: title })).toHaveCount(0);
  await page.goto(`/izobrazevanja/${courseId}`);
  await expect(page.getByText('Izobraževanje ne obstaja ali vam ni na voljo.')).toBeVisible();
  const token = await apiToken(page, 'lekarnar');
  expect((await page.request.get(`/api/user-courses/${courseId}`, { headers: { authorization: `JWT ${token}` } })).status()).toBe(404);
});
