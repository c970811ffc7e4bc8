import { expect, test } from '@playwright/test';
import { apiToken, logIn } from './support.ts';

/**
 * Issue 36 item 2 in Chromium: an approver sees the content as participants will. The demo chain's
 * client writes an RX course for pharmacists with an article, an uploaded PDF, a Vimeo video and an
 * attachment, and submits it; the chain's medical approver (`medicina`, who holds only 1071 and reads
 * no organisation lists) opens the review: the RX label, the profession by name with its flag, the
 * article formatted, the video's player flagged as an external source, and the uploaded files as
 * links that open for them.
 */
test('the approver reviews an RX course as participants will see it: names, formatted text, player, working file links', async ({ page }) => {
  test.setTimeout(120_000);
  const auth = { authorization: `JWT ${await apiToken(page, 'narocnik')}` };
  const professions = (await (await page.request.get('/api/professions?pageSize=100')).json()) as {
    items: { id: number; name: string; mayPrescribe: boolean }[];
  };
  const pharmacist = professions.items.find((p) => p.name === 'Magister farmacije');
  expect(pharmacist?.mayPrescribe).toBe(true);
  const upload = await page.request.post('/api/files?name=smpc.pdf', {
    headers: { ...auth, 'content-type': 'application/pdf' },
    data: Buffer.from('%PDF-1.4\n%%EOF\n'),
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const fileId = ((await upload.json()) as { id: number }).id;
  const created = await page.request.post('/api/courses', {
    headers: auth,
    data: {
      type: 1,
      title: `Antikoagulanti v lekarni ${Date.now().toString(36)}`,
      description: 'Izobraževanje o novem antikoagulantu za farmacevte.',
      cover: '/c.svg',
      creditPoints: 1,
      audience: { byProfession: true, professionIds: [pharmacist?.id] },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const courseId = ((await created.json()) as { id: number }).id;
  for (const block of [
    { kind: 'article', name: 'Odmerjanje', html: '<h3>Odmerek</h3><p>Dvakrat <strong>na dan</strong>.</p>' },
    { kind: 'textFile', name: 'Povzetek glavnih značilnosti', fileUrl: `/api/files/${fileId}` },
    { kind: 'video', name: 'Predavanje', vimeoId: '76979871' },
  ]) {
    const added = await page.request.post(`/api/courses/${courseId}/blocks`, { headers: auth, data: { block } });
    expect(added.status(), await added.text()).toBe(201);
  }
  expect((await page.request.post(`/api/courses/${courseId}/attachments`, { headers: auth, data: { fileId } })).status()).toBeLessThan(300);
  const { contentHash } = (await (await page.request.get(`/api/courses/${courseId}/approval`, { headers: auth })).json()) as { contentHash: string };
  const submitted = await page.request.post(`/api/courses/${courseId}/approval/submit`, { headers: auth, data: { contentHash } });
  expect(submitted.status(), await submitted.text()).toBe(200);
  const { approvalVersion } = (await submitted.json()) as { approvalVersion: number };

  await logIn(page, 'medicina');
  await page.goto(`/odobritve/${courseId}/${approvalVersion}`);
  await page.getByRole('tab', { name: 'Vsebina, kot jo bodo videli udeleženci' }).click();
  const preview = page.getByTestId('content-preview');
  await expect(preview.getByTestId('preview-rx')).toHaveText('Rx – samo za strokovno javnost, ki lahko predpisuje ali izdaja zdravila');
  await expect(preview.getByTestId('audience-professions')).toContainText('Magister farmacije');
  await expect(preview.getByTestId('audience-professions')).toContainText('lahko predpisuje ali izdaja zdravila');
  await expect(preview).not.toContainText('professionIds');
  await expect(preview.getByTestId('preview-article').locator('h3')).toHaveText('Odmerek');
  await expect(preview.locator('iframe[src^="https://player.vimeo.com/video/76979871"]')).toBeAttached();
  await expect(preview.getByTestId('external-source').first()).toContainText('Zunanji vir: vsebina se lahko spremeni brez nove odobritve');
  for (const link of [
    preview.getByRole('link', { name: 'Odpri datoteko' }),
    preview.getByTestId('preview-attachments').getByRole('link', { name: 'smpc.pdf' }),
  ]) {
    const href = (await link.getAttribute('href')) as string;
    expect(href).toBe(`/api/files/${fileId}`);
    // The approver's session opens the file (the approvers the course's scope names read its files, decision 0063).
    const file = await page.request.get(href);
    expect(file.status()).toBe(200);
    expect((await file.body()).toString('latin1').startsWith('%PDF-')).toBe(true);
  }
});
