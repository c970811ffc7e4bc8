import { expect, type Locator, type Page, test } from '@playwright/test';
import { countMail, mailTo } from './mail.ts';
import { apiToken, logIn, PASSWORD, PHONE, seriousAxeViolations } from './support.ts';

/**
 * An approver with the second factor on signs an approval step on a phone by keyboard alone (issue 36
 * item 2, decision 0065): from the inbox to the review, the signature dialog (focus trapped, Escape
 * gives the focus back to the button that opened it), the password, the code mailed for the signature;
 * a wrong code is refused in Slovenian on its field and signs nothing; the right one signs, and the
 * review shows the step signed by them, where the focus lands. The demo's approver `regulativa` has
 * the second factor switched on for this test and off again afterwards; the platform's approval
 * settings are put back as they were. The admin's course list shows the course still waiting.
 */
const TITLE = `Podpis s tipkovnico ${Date.now()}`;
const STEPS = [
  { key: 'regulatory', label: 'Regulatorni pregled', signer: 'regulativa' },
  { key: 'medical', label: 'Medicinski pregled', signer: 'medicina' },
];
const SIGNER = { username: 'regulativa', email: 'regulativa@demo.si', name: 'Rebeka Regulativa' };

type Settings = { enabled: boolean; codePrefix: string; steps: { key: string; label: string; approverIds: number[] }[] };
type Approval = { current: { status: string; steps: { key: string; decision: string | null; signerName: string | null }[] } | null };

const isFocused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);

/** Tab (Shift+Tab with `back`) until the locator has the focus, as a keyboard user would; fails after `max` presses. */
const tabTo = async (page: Page, locator: Locator, { back = false, max = 40 } = {}) => {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (await isFocused(locator)) return;
  }
  throw new Error(`the keyboard never reached ${locator}`);
};

/** The focused element shows where it is: an outline or a ring (box-shadow). */
const focusVisible = (page: Page) =>
  page.evaluate(() => {
    const style = getComputedStyle(document.activeElement as Element);
    return (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
  });

test('an approver with the second factor signs a step on a phone by keyboard alone; a wrong code signs nothing', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const admin = { authorization: `JWT ${await apiToken(page, 'admin')}` };
  const ids = new Map<string, number>();
  for (const step of STEPS) {
    const me = (await (await page.request.get('/api/users/me', { headers: { authorization: `JWT ${await apiToken(page, step.signer)}` } })).json()) as {
      id: number;
    };
    ids.set(step.key, me.id);
  }
  // The signer's session for the API, taken before the second factor is on (a login then asks for a code).
  const signer = { authorization: `JWT ${await apiToken(page, SIGNER.username)}` };
  const before = (await (await page.request.get('/api/approval-settings/platform', { headers: admin })).json()) as Settings;
  const put = (settings: Settings) => page.request.put('/api/approval-settings/platform', { headers: admin, data: settings });
  let courseId = 0;
  let secondFactorOn = false;
  try {
    const on = await put({
      enabled: true,
      codePrefix: 'TIPK',
      steps: STEPS.map((s) => ({ key: s.key, label: s.label, approverIds: [ids.get(s.key) as number] })),
    });
    expect(on.status(), await on.text()).toBe(200);
    const created = await page.request.post('/api/courses', {
      headers: admin,
      data: { type: 3, title: TITLE, description: 'Izobraževanje za podpis odobritve s tipkovnico.', cover: '/c.svg', creditPoints: 1, public: true },
    });
    expect(created.status(), await created.text()).toBe(201);
    courseId = ((await created.json()) as { id: number }).id;
    const block = await page.request.post(`/api/courses/${courseId}/blocks`, {
      headers: admin,
      data: { block: { kind: 'article', name: 'Uvod', html: '<p>Vsebina za podpis.</p>' } },
    });
    expect(block.status(), await block.text()).toBe(201);
    const { contentHash } = (await (await page.request.get(`/api/courses/${courseId}/approval`, { headers: admin })).json()) as { contentHash: string };
    const submitted = await page.request.post(`/api/courses/${courseId}/approval/submit`, { headers: admin, data: { contentHash } });
    expect(submitted.status(), await submitted.text()).toBe(200);

    await page.setViewportSize(PHONE);
    await logIn(page, SIGNER.username);
    const secondFactor = await page.request.put('/api/users/me/second-factor', { headers: signer, data: { enabled: true, password: PASSWORD } });
    expect(secondFactor.status(), await secondFactor.text()).toBe(200);
    secondFactorOn = true;

    // The inbox, then the review, by keyboard.
    await page.goto('/odobritve');
    await expect(page.getByRole('heading', { name: 'Čaka na mojo odobritev', level: 1 })).toBeVisible();
    const link = page.getByTestId('approval-inbox').getByRole('link', { name: TITLE });
    await tabTo(page, link);
    expect(await focusVisible(page)).toBe(true);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/odobritve/${courseId}/1$`));
    await expect(page.getByRole('heading', { name: `Pregled: ${TITLE}`, level: 1 })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    const approve = page.getByRole('button', { name: 'Odobri korak Regulatorni pregled' });
    await tabTo(page, approve);
    expect(await focusVisible(page)).toBe(true);
    // Opened and closed with Escape: the focus comes back to the button.
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Odobritev: Regulatorni pregled' });
    const password = dialog.getByLabel('Za elektronski podpis znova vnesite geslo');
    await expect(password).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(approve).toBeFocused();

    // Opened with Space this time; the keyboard stays inside the dialog.
    await page.keyboard.press('Space');
    await expect(password).toBeFocused();
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousAxeViolations(page, { include: '[role="dialog"]' })).toEqual([]);
    await tabTo(page, password);
    await page.keyboard.type(PASSWORD);
    // No code asked for yet: the dialog says to ask for one, on the code's field.
    await page.keyboard.press('Enter');
    const code = dialog.getByLabel('Koda iz e-pošte');
    await expect(dialog.getByText('Najprej zahtevajte kodo, ki jo pošljemo na vaš e-naslov.')).toBeVisible();
    await expect(code).toBeFocused();
    const seen = await countMail(SIGNER.email, /Koda za elektronski podpis/);
    await tabTo(page, dialog.getByRole('button', { name: 'Pošlji kodo po e-pošti' }));
    await page.keyboard.press('Enter');
    await expect(dialog.getByText('Koda je poslana na vaš e-naslov in velja 10 minut.')).toBeVisible();
    await expect(code).toBeFocused();
    const mail = await mailTo(SIGNER.email, /Koda za elektronski podpis/, seen);
    const sent = /\b(\d{6})\b/.exec(mail.subject)?.[1] as string;
    expect(sent).toMatch(/^\d{6}$/);

    // A wrong code: refused in Slovenian on its field, the dialog stays open, nothing is signed.
    await page.keyboard.type(sent === '000000' ? '111111' : '000000');
    await page.keyboard.press('Enter');
    await expect(dialog.getByText(/Koda iz e-pošte ni pravilna/)).toBeVisible();
    await expect(code).toBeFocused();
    await expect(code).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog).toBeVisible();
    const unsigned = (await (await page.request.get(`/api/courses/${courseId}/approval`, { headers: admin })).json()) as Approval;
    expect(unsigned.current?.steps.map((s) => [s.key, s.decision])).toEqual([
      ['regulatory', null],
      ['medical', null],
    ]);
    const trailBefore = (await (await page.request.get(`/api/courses/${courseId}/approval/trail`, { headers: admin })).json()) as { rows: { kind: string }[] };
    expect(trailBefore.rows.filter((r) => r.kind === 'signed' || r.kind === 'rejected')).toEqual([]);

    // The right code (the password, checked before the code, is still in its field): signed.
    await page.keyboard.type(sent);
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Vaša odobritev je podpisana.')).toBeVisible();
    // What the approver sees: their step signed by them, nothing more to sign; the focus is on that state.
    const summary = page.getByTestId('review-summary');
    await expect(summary).toBeFocused();
    expect(await focusVisible(page)).toBe(true);
    const signedStep = summary.locator('[data-step="regulatory"]');
    await expect(signedStep).toHaveAttribute('data-decision', 'approved');
    await expect(signedStep).toContainText(`Regulatorni pregled: odobreno · ${SIGNER.name}`);
    await expect(summary.locator('[data-step="medical"]')).toHaveAttribute('data-decision', 'waiting');
    await expect(summary.getByTestId('approval-status')).toHaveText('Čaka na odobritev');
    await expect(summary.getByText('V tej različici ni koraka, ki bi čakal na vaš podpis.')).toBeVisible();
    await expect(approve).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    // Signed with the second factor, as the trail records it.
    const trail = (await (await page.request.get(`/api/courses/${courseId}/approval/trail`, { headers: admin })).json()) as {
      rows: { kind: string; step: string | null; method: string | null }[];
    };
    expect(trail.rows.filter((r) => r.kind === 'signed').map((r) => [r.step, r.method])).toEqual([['regulatory', 'password-second-factor']]);

    // The admin's course list says the course still waits for approval (one step of two is signed).
    const list = await browser.newPage();
    await logIn(list, 'admin');
    await list.goto('/admin/courses');
    await list.getByRole('textbox', { name: 'Iskanje: Izobraževanja' }).fill(TITLE);
    await expect(list.getByTestId(`approval-${courseId}`)).toHaveText('Čaka na odobritev');
    await list.close();
  } finally {
    if (secondFactorOn) {
      const off = await page.request.put('/api/users/me/second-factor', { headers: signer, data: { enabled: false, password: PASSWORD } });
      expect(off.status(), await off.text()).toBe(200);
    }
    // The version waiting for the medical step leaves the inbox; the settings are put back.
    if (courseId) await page.request.post(`/api/courses/${courseId}/approval/withdraw`, { headers: admin, data: { approvalVersion: 1 } });
    const steps = before.steps.map(({ key, label, approverIds }) => ({ key, label, approverIds }));
    const restored = await put({ enabled: before.enabled, codePrefix: before.codePrefix, steps });
    expect(restored.status(), await restored.text()).toBe(200);
  }
});
