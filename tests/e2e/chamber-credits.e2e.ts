import { expect, test } from '@playwright/test';
import { apiToken, logIn, publishCourse } from './support.ts';

/**
 * Issue 17 item 6 in Chromium: a pharmacist completes a course that reports to the pharmacists'
 * chamber; the credit reaches the chamber (the local file drop of the demo, decision 0030) and the
 * participant sees it reported on their completed courses, the admin on the course's participants
 * tab and on the person's page.
 */
test('a completed course’s credit points reach the chamber and show for the participant, the course and the person', async ({ page, browser }) => {
  const token = await apiToken(page, 'admin');
  const title = `Kreditne točke zbornice ${Date.now().toString(36)}`;
  const courseId = await publishCourse(
    page,
    token,
    { title, description: 'Izobraževanje, ki ga priznava Lekarniška zbornica.', creditPoints: 1.5, externalId: 'LZS-E2E-1', syncDestination: 1 },
    [{ kind: 'points', name: 'Točke', points: 1.5 }],
  );

  // The participant completes it: the credit points block is the whole course.
  await logIn(page, 'udelezenec');
  await page.goto(`/izobrazevanja/${courseId}`);
  await page.getByRole('button', { name: 'Začni izobraževanje' }).click();
  await expect(page).toHaveURL(new RegExp(`/izobrazevanja/${courseId}/konec$`));
  // Reported by a background job: the profile's list shows it once the chamber has it.
  await expect(async () => {
    await page.goto('/profil/izobrazevanja');
    const row = page.getByTestId('chamber-credits').getByRole('row').filter({ hasText: title });
    await expect(row.getByTestId('chamber-credit-status')).toHaveText('Sporočeno', { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  const own = page.getByTestId('chamber-credits').getByRole('row').filter({ hasText: title });
  await expect(own).toContainText('Lekarniška zbornica');
  await expect(own).toContainText('1,5');

  const admin = await browser.newPage();
  await logIn(admin, 'admin');
  await admin.goto(`/admin/courses/${courseId}/participants`);
  const courseRow = admin.getByTestId('chamber-credits').getByRole('row').filter({ hasText: 'Urška Udeleženec' });
  await expect(courseRow).toContainText('Št. licence 10001');
  await expect(courseRow.getByTestId('chamber-credit-status')).toHaveText('Sporočeno');
  const me = (await (await page.request.get('/api/users/me', { headers: { authorization: `JWT ${await apiToken(page, 'udelezenec')}` } })).json()) as {
    id: number;
  };
  await admin.goto(`/admin/users/${me.id}`);
  const personRow = admin.getByTestId('chamber-credits').getByRole('row').filter({ hasText: title });
  await expect(personRow.getByTestId('chamber-credit-status')).toHaveText('Sporočeno');
  await admin.close();
});
