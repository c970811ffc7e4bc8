import { expect, test } from '@playwright/test';
import { apiToken } from './support.ts';

/**
 * Issue 17 "done when": a stranger answers a survey without logging in (spec §2: /anketa is a public
 * page), and the same browser cannot answer twice; a survey that is no survey says so.
 */
test('a stranger answers a survey at /anketa without logging in, once', async ({ page, browser }) => {
  const admin = await browser.newContext();
  const token = await apiToken(await admin.newPage(), 'admin');
  const headers = { authorization: `JWT ${token}` };
  const created = await admin.request.post('/api/courses', {
    headers,
    data: {
      type: 9,
      title: `Anketa o zadovoljstvu ${Date.now().toString(36)}`,
      description: 'Kako ste zadovoljni z našo lekarno?',
      cover: '/c.svg',
      creditPoints: 0,
      public: true,
    },
  });
  const surveyId = ((await created.json()) as { id: number }).id;
  const block = {
    kind: 'nps',
    name: 'Mnenje',
    question: 'Kako verjetno bi nas priporočili prijateljem?',
    set: 8,
    reasons: { detractor: ['Dolge vrste'], neutral: ['V redu'], promoter: ['Prijazno osebje'] },
    commentEnabled: true,
  };
  expect((await admin.request.post(`/api/courses/${surveyId}/blocks`, { headers, data: { block } })).status()).toBe(201);
  expect((await admin.request.post(`/api/courses/${surveyId}/publish`, { headers })).status()).toBe(200);
  await admin.close();

  // Nobody is signed in on this page.
  await page.goto(`/anketa/${surveyId}`);
  await expect(page).toHaveURL(new RegExp(`/anketa/${surveyId}$`));
  await expect(page.getByRole('heading', { name: /Anketa o zadovoljstvu/ })).toBeVisible();
  await page.getByRole('button', { name: 'Oddaj odgovore' }).click();
  await expect(page.getByText('Izberite oceno.')).toBeVisible();
  await page.getByRole('radio', { name: '10', exact: true }).check();
  await page.getByRole('checkbox', { name: 'Prijazno osebje' }).check();
  await page.getByRole('textbox', { name: 'Komentar (neobvezno)' }).fill('Vedno prijazni.');
  await page.getByRole('button', { name: 'Oddaj odgovore' }).click();
  await expect(page.getByText('Hvala za vaše odgovore!')).toBeVisible();

  // The same browser again: already answered.
  await page.reload();
  await page.getByRole('radio', { name: '3', exact: true }).check();
  await page.getByRole('button', { name: 'Oddaj odgovore' }).click();
  await expect(page.getByText('Na to anketo ste že odgovorili. Hvala!')).toBeVisible();

  await page.goto('/anketa/999999');
  await expect(page.getByText('Anketa ne obstaja ali ni več objavljena.')).toBeVisible();
});
