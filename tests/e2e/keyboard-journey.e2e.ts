import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { pdfText } from '../support/pdf-text.ts';
import { PASSWORD, seriousAxeViolations } from './support.ts';

/**
 * Issue 18 item 6: a participant does the whole journey with the keyboard only (Tab, Shift+Tab,
 * Enter, Space, arrow keys; no mouse): logs in, opens a course from the menu, reads the video's text
 * alternative, passes the quiz, answers the NPS survey and downloads the certificate. Every control
 * reached by Tab shows that it has the focus. The participant is the demo's lekarnar (Lekarna
 * Bežigrad), whom no other suite takes through this course (participant-journey.e2e.ts uses udelezenec).
 */
const COURSE = 'Interakcije zdravil v lekarni';

const isFocused = (target: Locator) => target.evaluateAll((elements) => elements.some((el) => el === document.activeElement));

/** What the focused element shows: :focus-visible with an outline, a shadow or (for fields) a coloured border. */
const focusIndicator = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'nothing focused';
    if (!el.matches(':focus-visible')) return `${el.outerHTML.slice(0, 120)} is not :focus-visible`;
    const style = getComputedStyle(el);
    const field = el.matches('input, textarea, select');
    const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0;
    if (outline || style.boxShadow !== 'none' || field) return 'visible';
    return `${el.outerHTML.slice(0, 120)} has no focus indicator`;
  });

/** Presses `key` (Tab by default) until the target has the focus, and checks that the focus shows. */
const focus = async (page: Page, target: Locator, key = 'Tab', max = 80) => {
  await expect(target.first()).toBeVisible();
  for (let i = 0; i < max && !(await isFocused(target)); i++) await page.keyboard.press(key);
  expect(await isFocused(target), `${target} reached with ${key}`).toBe(true);
  expect(await focusIndicator(page), `${target} shows its focus`).toBe('visible');
};

/** No serious or critical axe violation on the step the participant is at (the blocks are reached only by taking the course). */
const accessible = async (page: Page, step: string) => {
  expect(await seriousAxeViolations(page), step).toEqual([]);
};

/** Tabs to a control and presses Enter (or Space). */
const activate = async (page: Page, target: Locator, key: 'Enter' | 'Space' = 'Enter') => {
  await focus(page, target);
  await page.keyboard.press(key);
};

/** Tabs into a radio group, then moves with the arrow keys until the wanted radio is checked. */
const choose = async (page: Page, group: Locator, wanted: Locator) => {
  await focus(page, group.getByRole('radio'));
  for (let i = 0; i < 12 && !(await isFocused(wanted)); i++) await page.keyboard.press('ArrowDown');
  expect(await isFocused(wanted), `${wanted} reached with the arrow keys`).toBe(true);
  if (!(await wanted.isChecked())) await page.keyboard.press('Space');
  await expect(wanted).toBeChecked();
};

test('a participant logs in, takes a course, passes its quiz, answers the NPS and downloads the certificate with the keyboard only', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/prijava');

  // Log in: the fields in order, Enter submits.
  await focus(page, page.getByRole('textbox', { name: 'Uporabniško ime ali e-naslov' }));
  await page.keyboard.type('lekarnar');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('textbox', { name: 'Geslo' })).toBeFocused();
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('user-menu')).toBeVisible();

  // The skip link comes first and leads past the header.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Preskoči na vsebino' })).toBeFocused();

  // The main menu's courses, then the course's card.
  await activate(page, page.getByRole('navigation', { name: 'Glavni meni' }).getByRole('link', { name: 'Izobraževanja' }));
  await expect(page).toHaveURL(/\/izobrazevanja$/);
  await activate(page, page.locator('[data-course]').filter({ hasText: COURSE }));
  await expect(page.getByRole('heading', { name: COURSE, level: 1 })).toBeVisible();

  // Start: the first block is a video; its text alternative is read instead.
  await activate(page, page.getByRole('button', { name: 'Začni izobraževanje' }));
  await expect(page.getByTestId('block-position')).toHaveText('Vsebina 1 od 4');
  await accessible(page, 'video');
  await activate(page, page.getByRole('button', { name: 'Namesto videa preberite besedilo' }));
  await activate(page, page.getByRole('button', { name: 'Prebral(a) sem besedilo' }));
  const next = page.getByRole('button', { name: 'Naprej' });
  await expect(next).toBeEnabled();
  await activate(page, next);

  // The quiz, one question at a time: the answer is chosen with the arrow keys.
  await expect(page.getByTestId('block-position')).toHaveText('Vsebina 2 od 4');
  await accessible(page, 'quiz');
  const question = page.getByRole('radiogroup');
  await choose(page, question, page.getByRole('radio', { name: 'Grenivkin sok' }));
  await activate(page, page.getByRole('button', { name: 'Naslednje vprašanje' }));
  await choose(page, page.getByRole('radiogroup'), page.getByRole('radio', { name: 'Varfarin in NSAR' }));
  await activate(page, page.getByRole('button', { name: 'Oddaj odgovore' }));
  await expect(page.getByTestId('quiz-result')).toHaveText('Kviz je opravljen (100 %).');
  await accessible(page, 'quiz passed');
  await activate(page, next);

  // NPS: the score with the arrow keys, a reason with Space, the follow-up, a typed comment.
  await expect(page.getByTestId('block-position')).toHaveText('Vsebina 3 od 4');
  await accessible(page, 'NPS');
  const scores = page.getByRole('radiogroup', { name: /priporočili sodelavcu/ });
  await choose(page, scores, scores.getByRole('radio', { name: '9', exact: true }));
  await focus(page, page.getByRole('checkbox', { name: 'Uporabno za delo' }));
  await page.keyboard.press('Space');
  await expect(page.getByRole('checkbox', { name: 'Uporabno za delo' })).toBeChecked();
  await choose(page, page.getByRole('radiogroup', { name: 'Kje delate?' }), page.getByRole('radio', { name: 'Javna lekarna' }));
  await focus(page, page.getByRole('textbox', { name: 'Komentar (neobvezno)' }));
  await page.keyboard.type('Vse s tipkovnico.');
  await activate(page, page.getByRole('button', { name: 'Oddaj oceno' }));
  await expect(page.getByTestId('nps-done')).toBeVisible();
  await activate(page, next);

  // The credit points block completes the course; the certificate downloads as a PDF.
  await expect(page).toHaveURL(/\/izobrazevanja\/\d+\/konec$/);
  await expect(page.getByRole('heading', { name: 'Čestitamo! Izobraževanje je zaključeno.' })).toBeVisible();
  await accessible(page, 'course completed');
  const downloading = page.waitForEvent('download');
  await activate(page, page.getByRole('button', { name: 'Prenesi certifikat (PDF)' }));
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const pdf = await readFile(await download.path());
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  const text = await pdfText(pdf);
  expect(text).toContain('Luka Lekarnar');
  expect(text).toContain(COURSE);
});
