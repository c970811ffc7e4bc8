import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { pdfText } from '../support/pdf-text.ts';
import { apiToken, PASSWORD, publishCourse, seriousAxeViolations } from './support.ts';

/**
 * Issue 18 item 6: a participant does the whole journey with the keyboard only (Tab, Shift+Tab,
 * Enter, Space, arrow keys; no mouse): logs in, opens a course from the menu, reads the video's text
 * alternative, passes the quiz, answers the NPS survey and downloads the certificate. Every control
 * reached by Tab shows that it has the focus. The participant is the demo's lekarnar (Lekarna
 * Bežigrad), whom no other suite takes through this course (participant-journey.e2e.ts uses udelezenec).
 * Issue 33 item 5: at 1366x800 and at 390x844, after every Tab the focus shows (an outline or a
 * shadow) and is on the screen, uncovered; after every navigation the new page's heading has it; the
 * user menu opens on a named item; the journey ends by signing out.
 */
const COURSE = 'Interakcije zdravil v lekarni';

const DESKTOP = { width: 1366, height: 800 };
const PHONE = { width: 390, height: 844 };

const isFocused = (target: Locator) => target.evaluateAll((elements) => elements.some((el) => el === document.activeElement));

/**
 * Where the focus is and whether it shows (issue 33 item 5, WCAG 2.2 2.4.11 and 2.4.13): the focused
 * element is :focus-visible with an outline or a shadow (text fields too, not only a border colour),
 * inside the viewport and not covered by the header or the footer. 'visible' when all holds, else what fails.
 */
const focusShown = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'nothing focused';
    const what = el.outerHTML.slice(0, 120);
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2;
    if (!outline && (style.boxShadow === 'none' || !el.matches(':focus-visible'))) return `${what} has no focus indicator`;
    const box = el.getBoundingClientRect();
    if (box.bottom <= 0 || box.right <= 0 || box.top >= window.innerHeight || box.left >= window.innerWidth) {
      return `${what} is off the screen at ${Math.round(box.left)},${Math.round(box.top)}`;
    }
    // What is shown at the element's visible middle is the element itself (or a part of it): not a bar over it.
    const x = Math.min(Math.max(box.left + box.width / 2, 0), window.innerWidth - 1);
    const y = Math.min(Math.max(box.top + box.height / 2, 0), window.innerHeight - 1);
    const top = document.elementFromPoint(x, y);
    if (top && !el.contains(top) && !top.contains(el) && !(el instanceof HTMLInputElement && el.labels?.[0]?.contains(top))) {
      return `${what} is covered by ${top.outerHTML.slice(0, 80)}`;
    }
    return 'visible';
  });

/**
 * Presses `key` (Tab by default) until the target has the focus; after every press the focus, wherever
 * it went on the way, shows and is on the screen (the browser's own controls, past the page's last
 * element, are not the page's).
 */
const focus = async (page: Page, target: Locator, key = 'Tab', max = 80) => {
  await expect(target.first()).toBeAttached();
  for (let i = 0; i < max && !(await isFocused(target)); i++) {
    await page.keyboard.press(key);
    // Once the browser's scroll to the focus and any late layout (a comment thread loading) have settled.
    await expect
      .poll(async () => ((shown) => (shown === 'nothing focused' ? 'visible' : shown))(await focusShown(page)), {
        message: `after ${key} ${i + 1} towards ${target}`,
        timeout: 2_000,
      })
      .toBe('visible');
  }
  expect(await isFocused(target), `${target} reached with ${key}`).toBe(true);
  await expect.poll(() => focusShown(page), { message: `${target} shows its focus`, timeout: 2_000 }).toBe('visible');
};

/** After a navigation the new page's heading has the focus (issue 33 item 5), not <body>. */
const headingFocused = async (page: Page, name?: string | RegExp) => {
  const heading = page.locator('main h1').first();
  if (name !== undefined) await expect(heading).toHaveText(name);
  await expect(heading).toBeFocused();
};

/** No serious or critical axe violation on the step the participant is at (the blocks are reached only by taking the course). */
const accessible = async (page: Page, step: string) => {
  expect(await seriousAxeViolations(page), step).toEqual([]);
};

/** Tabs to a control and presses Enter (or Space). */
const activate = async (page: Page, target: Locator, key: 'Enter' | 'Space' = 'Enter', direction = 'Tab') => {
  await focus(page, target, direction);
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

/** Logs in with the keyboard: the fields in order, Enter submits; the home page's heading then has the focus. */
const logInByKeyboard = async (page: Page, username: string) => {
  await page.goto('/prijava');
  await focus(page, page.getByRole('textbox', { name: 'Uporabniško ime ali e-naslov' }));
  await page.keyboard.type(username);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('textbox', { name: 'Geslo' })).toBeFocused();
  expect(await focusShown(page), 'the password field shows its focus').toBe('visible');
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('user-menu')).toBeVisible();
  await headingFocused(page, /Pozdravljeni/);
};

/** Signs out with the keyboard: back to the user menu, whose first item (a named link) takes the focus when it opens. */
const signOutByKeyboard = async (page: Page) => {
  await activate(page, page.getByTestId('user-menu'), 'Enter', 'Shift+Tab');
  await expect(page.getByRole('menuitem', { name: 'Profil' })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(page.getByRole('menuitem', { name: 'Odjava' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/prijava/);
};

test('a participant logs in, takes a course, passes its quiz, answers the NPS, downloads the certificate and signs out with the keyboard only (1366x800)', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  await logInByKeyboard(page, 'lekarnar');

  // The skip link comes first of all: back past the header from the heading.
  await focus(page, page.getByRole('link', { name: 'Preskoči na vsebino' }), 'Shift+Tab');

  // The main menu's courses, then the course's card; each new page's heading takes the focus.
  await activate(page, page.getByRole('navigation', { name: 'Glavni meni' }).getByRole('link', { name: 'Izobraževanja' }));
  await expect(page).toHaveURL(/\/izobrazevanja$/);
  await headingFocused(page, 'Izobraževanja');
  await activate(page, page.locator('[data-course]').filter({ hasText: COURSE }).getByRole('link'));
  await headingFocused(page, COURSE);

  // Start: the first block is a video; its text alternative is read instead.
  await activate(page, page.getByRole('button', { name: 'Začni izobraževanje' }));
  await expect(page.getByTestId('block-position')).toHaveText('Vsebina 1 od 4');
  await headingFocused(page);
  await accessible(page, 'video');
  await activate(page, page.getByRole('button', { name: 'Namesto videa preberite besedilo' }));
  await activate(page, page.getByRole('button', { name: 'Prebral(a) sem besedilo' }));
  const next = page.getByRole('button', { name: 'Naprej' });
  await expect(next).toBeEnabled();
  await activate(page, next);

  // The quiz, one question at a time: the answer is chosen with the arrow keys.
  await expect(page.getByTestId('block-position')).toHaveText('Vsebina 2 od 4');
  await headingFocused(page);
  await accessible(page, 'quiz');
  const question = page.getByRole('radiogroup');
  await choose(page, question, page.getByRole('radio', { name: 'Grenivkin sok' }));
  await activate(page, page.getByRole('button', { name: 'Naslednje vprašanje' }));
  await choose(page, page.getByRole('radiogroup'), page.getByRole('radio', { name: 'Varfarin in NSAR' }));
  await activate(page, page.getByRole('button', { name: 'Oddaj odgovore' }));
  await expect(page.getByTestId('quiz-result')).toHaveText(/Kviz je opravljen \(100 %\)/);
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

  await signOutByKeyboard(page);
});

/**
 * Issue 33 item 5 on a 390x844 phone: the same journey through a course of two blocks (a text, then a
 * quiz), by the footer and the course search. The header and footer hide while the page scrolls, but a
 * Tab brings them back and never lands on a link off the screen or under a bar.
 */
test('on a phone the keyboard journey keeps the focus visible and on the screen: log in, course list, a course of two blocks with a quiz, sign out (390x844)', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);
  const unique = Date.now().toString(36);
  const title = `Tipkovnica na telefonu ${unique}`;
  await publishCourse(page, await apiToken(page, 'admin'), { title, creditPoints: 1 }, [
    { kind: 'article', name: 'Uvod', html: `<p>${'Besedilo, ki ga preberemo na telefonu. '.repeat(40)}</p>` },
    {
      kind: 'quiz',
      name: 'Preverjanje',
      batchSize: 1,
      successThreshold: 100,
      questions: [
        {
          id: 'q1',
          text: 'Kateri sok vpliva na presnovo številnih zdravil?',
          answers: [
            { id: 'a', text: 'Grenivkin', correct: true },
            { id: 'b', text: 'Jabolčni' },
          ],
        },
      ],
    },
  ]);
  await logInByKeyboard(page, 'lekarnar');

  // The footer's courses: the Tab goes down the home page to the footer, every stop on the screen.
  await activate(page, page.getByRole('navigation', { name: 'Hitra navigacija' }).getByRole('link', { name: 'Izobraževanja' }));
  await expect(page).toHaveURL(/\/izobrazevanja/);
  await headingFocused(page, 'Izobraževanja');
  const search = page.getByRole('textbox', { name: 'Iskanje izobraževanj' });
  await focus(page, search);
  // Typed at full speed, no key is lost (the field once followed the address, a navigation per key).
  await page.keyboard.type(unique);
  await expect(search).toHaveValue(unique);
  await expect(page).toHaveURL(new RegExp(`search=${encodeURIComponent(unique)}`));
  // The list has settled on the one course (a card replaced while loading would drop the focus).
  await expect(page.locator('[data-course]')).toHaveCount(1);
  await activate(page, page.locator('[data-course]').filter({ hasText: title }).getByRole('link'));
  await headingFocused(page, title);

  await activate(page, page.getByRole('button', { name: 'Začni izobraževanje' }));
  await expect(page.getByTestId('block-position')).toHaveText('Vsebina 1 od 2');
  await headingFocused(page);
  const next = page.getByRole('button', { name: 'Naprej' });
  await expect(next).toBeEnabled();
  await activate(page, next);

  await expect(page.getByTestId('block-position')).toHaveText('Vsebina 2 od 2');
  await headingFocused(page);
  await choose(page, page.getByRole('radiogroup'), page.getByRole('radio', { name: 'Grenivkin' }));
  // Passing the quiz, the last block, completes the course: its page's heading takes the focus.
  await activate(page, page.getByRole('button', { name: 'Oddaj odgovore' }));
  await expect(page).toHaveURL(/\/izobrazevanja\/\d+\/konec$/);
  await headingFocused(page, 'Čestitamo! Izobraževanje je zaključeno.');

  await signOutByKeyboard(page);
});
