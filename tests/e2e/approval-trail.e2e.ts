import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import XLSX from 'xlsx';
import { apiToken, logIn, PASSWORD, seriousAxeViolations } from './support.ts';

/**
 * The approval trail for auditors (issue 36 item 3, decision 0064): a course the admin submits, approved
 * in three steps by the demo's three approvers (one person signs one step of a version, and never the
 * version they submitted: decision 0063) and published through the API, then the demo's auditor
 * finds it from the menu, reads the trail with its signatures and the verification, picks an as-of
 * moment between two signatures and downloads the trail as xlsx.
 */
const TITLE = `Revizijska sled ${Date.now()}`;
const STEPS = [
  { key: 'medical', label: 'Medicinski pregled', signer: 'medicina' },
  { key: 'legal', label: 'Pravni pregled', signer: 'pravo' },
  { key: 'regulatory', label: 'Regulatorni pregled', signer: 'regulativa' },
];

/** An instant as the as-of field reads it: the Ljubljana wall clock to the second, `27. 11. 2026 10:41:07`. */
const wallText = (at: Date) => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Ljubljana',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.day}. ${parts.month}. ${parts.year} ${parts.hour}:${parts.minute}:${parts.second}`;
};

test('an auditor opens a course’s approval trail, picks an as-of time between two signatures and downloads the xlsx', async ({ page, browser }) => {
  const token = await apiToken(page, 'admin');
  const headers = { authorization: `JWT ${token}` };
  // The demo's approvers (infrastructure/main/demo-approvals.ts), one per step.
  const signers = new Map<string, { id: number; headers: { authorization: string } }>();
  for (const step of STEPS) {
    const signerHeaders = { authorization: `JWT ${await apiToken(page, step.signer)}` };
    const signer = (await (await page.request.get('/api/users/me', { headers: signerHeaders })).json()) as { id: number };
    signers.set(step.key, { id: signer.id, headers: signerHeaders });
  }
  // The platform's approval settings as they were: put back at the end, whatever happens.
  const before = (await (await page.request.get('/api/approval-settings/platform', { headers })).json()) as {
    enabled: boolean;
    codePrefix: string;
    steps: { key: string; label: string; approverIds: number[] }[];
  };
  const put = (settings: object) => page.request.put('/api/approval-settings/platform', { headers, data: settings });
  try {
    const on = await put({
      enabled: true,
      codePrefix: 'REV',
      steps: STEPS.map((s) => ({ key: s.key, label: s.label, approverIds: [signers.get(s.key)?.id as number] })),
    });
    expect(on.status(), await on.text()).toBe(200);
    const created = await page.request.post('/api/courses', {
      headers,
      data: { type: 3, title: TITLE, description: 'Izobraževanje za preizkus revizijske sledi odobritev.', cover: '/c.svg', creditPoints: 1, public: true },
    });
    expect(created.status(), await created.text()).toBe(201);
    const courseId = ((await created.json()) as { id: number }).id;
    const block = await page.request.post(`/api/courses/${courseId}/blocks`, {
      headers,
      data: { block: { kind: 'article', name: 'Uvod', html: '<p>Vsebina v odobritev.</p>' } },
    });
    expect(block.status(), await block.text()).toBe(201);
    const { contentHash } = (await (await page.request.get(`/api/courses/${courseId}/approval`, { headers })).json()) as { contentHash: string };
    const submitted = await page.request.post(`/api/courses/${courseId}/approval/submit`, { headers, data: { contentHash, comment: 'Prosim za pregled.' } });
    expect(submitted.status(), await submitted.text()).toBe(200);
    const sign = async (step: string) => {
      const signed = await page.request.post(`/api/courses/${courseId}/approval/sign`, {
        headers: signers.get(step)?.headers,
        data: { approvalVersion: 1, step, decision: 'approved', comment: `Pregledano: ${step}.`, contentHash, password: PASSWORD },
      });
      expect(signed.status(), await signed.text()).toBe(200);
    };
    await sign('medical');
    // A moment a whole second after the first signature and a whole second before the second.
    await page.waitForTimeout(1200);
    const between = new Date();
    await page.waitForTimeout(1200);
    await sign('legal');
    await sign('regulatory');
    const published = await page.request.post(`/api/courses/${courseId}/publish`, { headers });
    expect(published.status(), await published.text()).toBe(200);

    // The auditor's menu leads to the page; the course is found by its title.
    await logIn(page, 'revizor');
    await page.getByRole('navigation', { name: 'Glavni meni' }).getByRole('link', { name: 'Revizijska sled odobritev' }).click();
    await expect(page.getByRole('heading', { name: 'Revizijska sled odobritev', level: 1 })).toBeVisible();
    await page.getByTestId('trail-search').fill(TITLE);
    await page.getByRole('button', { name: 'Poišči' }).click();
    await page.getByRole('button', { name: new RegExp(TITLE) }).click();
    await expect(page).toHaveURL(new RegExp(`/revizija/odobritve\\?course=${courseId}$`));

    const table = page.getByTestId('trail-table');
    await expect(table.locator('tbody tr')).toHaveCount(6);
    await expect(table.locator('tbody tr').nth(0)).toContainText('Predložitev');
    for (const step of STEPS) await expect(table).toContainText(step.label);
    await expect(table.locator('tr[data-kind="signed"]')).toHaveCount(3);
    await expect(table.locator('tr[data-kind="signed"]').first()).toContainText('podpis s ponovnim vnosom gesla');
    await expect(table.locator('tr[data-kind="granted"]')).toContainText(/REV-\d{4}-\d{4}/);
    await expect(table.locator('tr[data-kind="published"]')).toBeVisible();
    await expect(page.getByTestId('verification-badge')).toHaveText('Ujema se');
    await expect(page.getByTestId('verification-reason')).toContainText('se ujema');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // As of the moment between the first two signatures: the submission and one signature, nothing published.
    await page.getByTestId('trail-as-of').fill(wallText(between));
    await page.getByRole('button', { name: 'Prikaži stanje' }).click();
    await expect(page).toHaveURL(/asOf=/);
    await expect(page.getByTestId('trail-as-of-label')).toContainText('Prikazano je stanje na');
    await expect(table.locator('tbody tr')).toHaveCount(2);
    await expect(table.locator('tr[data-kind="signed"]')).toContainText('Medicinski pregled');
    await expect(page.getByTestId('verification-badge')).toHaveText('Ni objavljeno');

    // The xlsx of that moment, opened by a second reader (SheetJS).
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Izvozi v Excel (xlsx)' }).click()]);
    expect(download.suggestedFilename()).toBe(`revizijska-sled-${courseId}.xlsx`);
    const book = XLSX.read(await readFile(await download.path()), { type: 'buffer' });
    expect(book.SheetNames).toEqual(['Revizijska sled', 'O izpisu']);
    const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets['Revizijska sled'] as XLSX.WorkSheet, { header: 1 });
    expect(rows).toHaveLength(3);
    expect((rows[2] as unknown[]).slice(2, 5)).toEqual(['Podpis: odobreno', 1, 'Medicinski pregled']);
    // The signer's name as signed, and the meaning of the signature.
    expect(String((rows[2] as unknown[])[5])).not.toBe('');
    expect(String((rows[2] as unknown[])[6])).not.toBe('');
    const about = Object.fromEntries(XLSX.utils.sheet_to_json<unknown[]>(book.Sheets['O izpisu'] as XLSX.WorkSheet, { header: 1 }).map((r) => [r[0], r[1]]));
    expect(about).toMatchObject({ Izobraževanje: TITLE, Preverjanje: 'Ni objavljeno', Ujemanje: 'Ne' });

    // Back to now; the admin reaches the same page from the course's tabs; a participant may not.
    await page.getByRole('button', { name: 'Trenutno stanje' }).click();
    await expect(table.locator('tbody tr')).toHaveCount(6);
    const admin = await browser.newPage();
    await logIn(admin, 'admin');
    await admin.goto(`/admin/courses/${courseId}/general`);
    await admin.getByRole('navigation', { name: 'Zavihki izobraževanja' }).getByRole('link', { name: 'Revizijska sled odobritev' }).click();
    await expect(admin.getByTestId('verification-badge')).toHaveText('Ujema se');
    await admin.close();
    const participant = await browser.newPage();
    await logIn(participant, 'udelezenec');
    await expect(participant.getByRole('link', { name: 'Revizijska sled odobritev' })).toHaveCount(0);
    await participant.goto(`/revizija/odobritve?course=${courseId}`);
    await expect(participant.getByText('Nimate pravic za ogled revizijske sledi odobritev.')).toBeVisible();
    await participant.close();
  } finally {
    // Put back as they were (the GET also names the approvers, which a PUT does not take); every
    // later test publishes platform courses, so a failed restore must fail here, not there.
    const steps = before.steps.map(({ key, label, approverIds }) => ({ key, label, approverIds }));
    const restored = await put({ enabled: before.enabled, codePrefix: before.codePrefix, steps });
    expect(restored.status(), await restored.text()).toBe(200);
  }
});
