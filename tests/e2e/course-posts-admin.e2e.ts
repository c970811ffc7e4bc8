import { expect, type Page, test } from '@playwright/test';
import { logIn, seriousAxeViolations } from './support.ts';

/**
 * Issue 15 item 8, the comments tab in Chromium: a participant asks a question (anonymously) and
 * leaves two comments; the admin, on the course's comments tab, sees who asked, answers as the
 * course team (the question marked answered), hides one comment and deletes the other after
 * confirming; the participant then reads the team's answer and no longer sees either comment.
 */
test.describe.configure({ mode: 'serial' });

const COURSE = 'Interakcije zdravil v lekarni';
const stamp = Date.now().toString(36);
const question = `Ali se metformin jemlje med obrokom? (${stamp})`;
const toHide = `Ta komentar ni primeren za objavo (${stamp})`;
const toDelete = `Komentar, ki ga ekipa izbriše (${stamp})`;
const answer = `Da, med obrokom ali takoj po njem, da zmanjšamo težave s prebavo (${stamp}).`;

const accessible = async (page: Page, where: string) => {
  await expect(page.locator('[role="status"]')).toHaveCount(0);
  // Toasts close by themselves after 3 s; the page is checked without them.
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 10_000 });
  expect(await seriousAxeViolations(page), where).toEqual([]);
};

const openCourse = async (page: Page) => {
  await logIn(page, 'udelezenec');
  await page.goto('/izobrazevanja');
  await page.locator('[data-course]').filter({ hasText: COURSE }).click();
  return page.getByRole('region', { name: 'Komentarji in vprašanja' });
};

const send = async (posts: ReturnType<Page['getByRole']>, message: string, anonymous = false) => {
  await posts.getByLabel('Vaš komentar ali vprašanje').fill(message);
  if (anonymous) await posts.getByLabel('Objavi anonimno').check();
  await posts.getByRole('button', { name: 'Objavi', exact: true }).click();
  await expect(posts.locator('[data-post]').filter({ hasText: message })).toBeVisible();
};

test('a participant asks a question anonymously and leaves two comments', async ({ page }) => {
  const posts = await openCourse(page);
  await send(posts, question, true);
  await send(posts, toHide);
  await send(posts, toDelete);
});

test('the admin answers the question as the team, hides one comment and deletes another', async ({ page }) => {
  await logIn(page, 'admin');
  await page.goto('/admin/courses');
  await page.getByRole('textbox', { name: 'Iskanje: Izobraževanja' }).fill('Interakcije');
  await page.getByRole('table', { name: 'Izobraževanja' }).getByRole('link', { name: COURSE }).click();
  const tabs = page.getByRole('navigation', { name: 'Zavihki izobraževanja' });
  await tabs.getByRole('link', { name: 'Komentarji' }).click();
  await expect(page).toHaveURL(/\/admin\/courses\/\d+\/posts$/);
  await expect(tabs.getByRole('link', { name: 'Komentarji' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { name: `Komentarji: ${COURSE}` })).toBeVisible();

  // The admin sees who asked, and that the participants do not.
  const asked = page.locator('[data-post]').filter({ hasText: question }).first();
  await expect(asked.getByTestId('post-author').first()).toHaveText('Urška Udeleženec');
  await expect(asked.getByText('anonimno za udeležence')).toBeVisible();

  // The team's answer: an empty one is refused with the spec's message; the question is marked answered with it.
  await asked.getByRole('button', { name: 'Odgovori kot ekipa' }).click();
  await asked.getByRole('button', { name: 'Objavi odgovor' }).click();
  await expect(asked.getByText('Vnos je obvezen')).toBeVisible();
  await asked.getByLabel('Odgovor ekipe izobraževanja').fill(answer);
  await expect(asked.getByLabel('Označi vprašanje kot odgovorjeno')).toBeChecked();
  await accessible(page, 'the comments tab with the reply form open');
  await asked.getByRole('button', { name: 'Objavi odgovor' }).click();
  await expect(page.getByText('Odgovor je objavljen.')).toBeVisible();
  const reply = asked.locator('[data-post]').filter({ hasText: answer });
  await expect(reply.getByText('ekipa izobraževanja')).toBeVisible();
  await expect(reply.getByTestId('post-author')).toHaveText('Ana Skrbnik');
  await expect(asked.getByText('odgovorjeno', { exact: true })).toBeVisible();
  await expect(asked.getByRole('button', { name: 'Označi kot neodgovorjeno' })).toBeVisible();

  // Hidden: it stays here, marked, and can be shown again.
  const hidden = page.locator('[data-post]').filter({ hasText: toHide }).first();
  await hidden.getByRole('button', { name: 'Skrij' }).click();
  await expect(page.getByText('Komentar je skrit pred udeleženci.')).toBeVisible();
  await expect(hidden.getByText('skrito pred udeleženci')).toBeVisible();
  await expect(hidden.getByRole('button', { name: 'Prikaži' })).toBeVisible();
  await page.getByText('Skriti', { exact: true }).click();
  await expect(page.locator('[data-post]').filter({ hasText: toHide })).toBeVisible();
  await expect(page.locator('[data-post]').filter({ hasText: question })).toHaveCount(0);
  await accessible(page, 'the comments tab showing hidden comments');
  await page.getByText('Vsi', { exact: true }).click();
  await page.screenshot({ path: 'test-results/screenshots/course-posts-admin.png', fullPage: true });

  // Deleted only after confirming.
  const doomed = page.locator('[data-post]').filter({ hasText: toDelete }).first();
  await doomed.getByRole('button', { name: 'Izbriši' }).click();
  const dialog = page.getByRole('dialog', { name: 'Izbris komentarja' });
  await expect(dialog.getByText('Ali res želite izbrisati komentar? Izbrisa ni mogoče razveljaviti.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Prekliči' }).click();
  await expect(doomed).toBeVisible();
  await doomed.getByRole('button', { name: 'Izbriši' }).click();
  await dialog.getByRole('button', { name: 'Izbriši' }).click();
  await expect(page.getByText('Komentar je izbrisan.')).toBeVisible();
  await expect(page.locator('[data-post]').filter({ hasText: toDelete })).toHaveCount(0);
});

test("the participant reads the team's answer and no longer sees the hidden or deleted comment", async ({ page }) => {
  const posts = await openCourse(page);
  const asked = posts.locator('[data-post]').filter({ hasText: question }).first();
  await expect(asked.getByText('odgovorjeno', { exact: true })).toBeVisible();
  const reply = asked.locator('[data-post]').filter({ hasText: answer });
  await expect(reply.getByText('ekipa izobraževanja')).toBeVisible();
  await expect(reply.getByTestId('post-author')).toHaveText('Ana Skrbnik');
  await expect(posts.getByText(toHide)).toHaveCount(0);
  await expect(posts.getByText(toDelete)).toHaveCount(0);
  await expect(posts.getByText('skrito pred udeleženci')).toHaveCount(0);
  await accessible(page, "the participant's course page with the team's answer");
  await posts.screenshot({ path: 'test-results/screenshots/course-posts-participant.png' });
});
