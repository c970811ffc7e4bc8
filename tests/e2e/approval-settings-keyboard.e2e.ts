import { expect, type Locator, type Page, test } from '@playwright/test';
import { apiToken, logIn, PHONE, resizeTo, seriousAxeViolations } from './support.ts';

/**
 * The admin's approval settings (/admin/odobritve, decision 0065) by keyboard alone, on a desktop and
 * on a phone: every control of the page is reached by Tab and shows where the focus is; a refused
 * form puts the focus on the first wrong field, whose message is its accessible description; moving,
 * adding and removing a step and saving leave the focus on the form, never on the page's body. The
 * platform's settings are put back as they were.
 */
const SIZES = [{ width: 1280, height: 800 }, PHONE];
const STEPS = [
  { key: 'regulatory', label: 'Regulatorni pregled', signer: 'regulativa' },
  { key: 'medical', label: 'Medicinski pregled', signer: 'medicina' },
];

type Settings = { enabled: boolean; codePrefix: string; steps: { key: string; label: string; approverIds: number[] }[] };

const isFocused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);

/** Tab (Shift+Tab with `back`) until the locator has the focus, as a keyboard user would; fails after `max` presses. */
const tabTo = async (page: Page, locator: Locator, { back = false, max = 60 } = {}) => {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (await isFocused(locator)) return;
  }
  throw new Error(`the keyboard never reached ${locator}`);
};

/** Where the focus is, for a message: the focused element's tag and name, or "body" when it was lost. */
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'body';
    return `${el.tagName.toLowerCase()} ${el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent ?? ''}`.trim();
  });

/**
 * The focused control shows it: an outline or a ring on what is drawn as the control. That is the
 * element itself, a switch's track (its input is hidden), or the box of a field whose text input sits
 * inside it among chosen values (a multi-select's pills).
 */
const focusVisible = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as Element;
    const shown = el.matches('.mantine-Switch-input')
      ? (el.parentElement?.querySelector('.mantine-Switch-track') ?? el)
      : (el.closest('.mantine-Input-input') ?? el);
    const style = getComputedStyle(shown);
    return (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
  });

for (const size of SIZES) {
  test(`the admin sets up approval by keyboard alone at ${size.width}x${size.height}: every control reached, errors on their fields, the focus kept`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const admin = { authorization: `JWT ${await apiToken(page, 'admin')}` };
    const before = (await (await page.request.get('/api/approval-settings/platform', { headers: admin })).json()) as Settings;
    const put = (settings: Settings) => page.request.put('/api/approval-settings/platform', { headers: admin, data: settings });
    const people = new Map<string, { id: number; name: string }>();
    for (const step of STEPS) {
      const me = (await (await page.request.get('/api/users/me', { headers: { authorization: `JWT ${await apiToken(page, step.signer)}` } })).json()) as {
        id: number;
        firstName: string;
        lastName: string;
      };
      people.set(step.key, { id: me.id, name: `${me.firstName} ${me.lastName}` });
    }
    try {
      // Off, two steps, nobody named: the admin switches it on and names the approvers.
      const start = await put({ enabled: false, codePrefix: 'TIPK', steps: STEPS.map((s) => ({ key: s.key, label: s.label, approverIds: [] })) });
      expect(start.status(), await start.text()).toBe(200);
      await resizeTo(page, size);
      await logIn(page, 'admin');
      await page.goto('/admin/odobritve');
      await expect(page.getByRole('heading', { name: 'Odobritve vsebin', level: 1 })).toBeVisible();
      const form = page.getByTestId('approval-settings');
      await expect(form.getByRole('textbox', { name: /^Ime koraka/ })).toHaveCount(2);

      // Every control of the page (scope, switch, prefix, each step's buttons and fields, add, save) by Tab, each showing its focus.
      const controls = await page.locator('#main').evaluate((main) => {
        const all = [...main.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [tabindex]')].filter(
          (el) => el.tabIndex >= 0 && !(el as HTMLButtonElement).disabled && (el as HTMLInputElement).type !== 'hidden' && el.checkVisibility(),
        );
        all.forEach((el, i) => {
          el.dataset.kb = String(i);
        });
        return all.map((el) => el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent ?? el.tagName);
      });
      expect(controls.length).toBeGreaterThanOrEqual(12);
      const reached = new Set<number>();
      const unseen: string[] = [];
      await page.getByRole('heading', { name: 'Odobritve vsebin', level: 1 }).click();
      for (let i = 0; i < 80 && reached.size < controls.length; i++) {
        await page.keyboard.press('Tab');
        const kb = await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.kb);
        if (kb === undefined) continue;
        reached.add(Number(kb));
        if (!(await focusVisible(page))) unseen.push(controls[Number(kb)] as string);
      }
      expect(controls.filter((_, i) => !reached.has(i))).toEqual([]);
      expect(unseen).toEqual([]);

      // A wrong prefix, submitted with Enter in its field: refused there, the message read with the field.
      const prefix = form.getByRole('textbox', { name: /Predpona kode odobritve/ });
      await tabTo(page, prefix, { back: true });
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('X');
      await page.keyboard.press('Enter');
      await expect(prefix).toBeFocused();
      await expect(prefix).toHaveAttribute('aria-invalid', 'true');
      await expect(prefix).toHaveAccessibleDescription(/Predpona kode ima od 2 do 8 velikih črk ali številk\./);
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('TIPK');

      // Switched on with Space, saved with nobody named: the first step's approvers take the focus and say why.
      const toggle = form.getByRole('switch', { name: 'Odobritev pred objavo je vklopljena' });
      await tabTo(page, toggle, { back: true });
      await page.keyboard.press('Space');
      await expect(toggle).toBeChecked();
      const save = form.getByRole('button', { name: 'Shrani' });
      await tabTo(page, save);
      await page.keyboard.press('Enter');
      const approversOf = (label: string) => form.getByRole('combobox', { name: `Odobritelji: ${label}` });
      await expect(approversOf(STEPS[0]?.label as string)).toBeFocused();
      for (const step of STEPS) {
        await expect(approversOf(step.label)).toHaveAttribute('aria-invalid', 'true');
        await expect(approversOf(step.label)).toHaveAccessibleDescription('Vsak korak potrebuje vsaj enega odobritelja.');
      }
      expect(await seriousAxeViolations(page, { include: '[data-testid="approval-settings"]' })).toEqual([]);

      // Each step's approver chosen by typing a name, the arrow and Enter.
      for (const step of STEPS) {
        const field = approversOf(step.label);
        if (!(await isFocused(field))) await tabTo(page, field);
        const person = people.get(step.key) as { name: string };
        await page.keyboard.type(person.name.split(' ')[0] as string);
        await expect(page.getByRole('option', { name: person.name })).toBeVisible();
        await page.keyboard.press('ArrowDown');
        await page.keyboard.press('Enter');
        await page.keyboard.press('Escape');
        await expect(form.getByTestId('approval-step').filter({ has: page.getByRole('combobox', { name: `Odobritelji: ${step.label}` }) })).toContainText(
          person.name,
        );
      }

      // The first step moved down by its button: the order changes, the focus stays on the moved step's buttons.
      const down = form.getByRole('button', { name: `Premakni »${STEPS[0]?.label}« dol` });
      await tabTo(page, down, { back: true });
      await page.keyboard.press('Enter');
      await expect(form.getByRole('textbox', { name: 'Ime koraka 1' })).toHaveValue(STEPS[1]?.label as string);
      await expect(form.getByRole('button', { name: `Premakni »${STEPS[0]?.label}« gor` })).toBeFocused();

      // A step added and removed again: the new step's name takes the focus; after the removal the focus stays in the steps.
      const add = form.getByRole('button', { name: 'Dodaj korak' });
      await tabTo(page, add);
      await page.keyboard.press('Enter');
      await expect(form.getByRole('textbox', { name: 'Ime koraka 3' })).toBeFocused();
      await page.keyboard.type('Dodatni pregled');
      const remove = form.getByRole('button', { name: 'Odstrani korak Dodatni pregled' });
      await tabTo(page, remove);
      await page.keyboard.press('Enter');
      await expect(form.getByRole('textbox', { name: /^Ime koraka/ })).toHaveCount(2);
      expect(await focusedName(page)).not.toBe('body');
      expect(await form.evaluate((f) => f.contains(document.activeElement))).toBe(true);

      // Saved with Enter on Save: said so, and the focus is still on Save.
      await tabTo(page, save);
      await page.keyboard.press('Enter');
      await expect(page.getByText('Nastavitve odobritve so shranjene.')).toBeVisible();
      await expect(save).toBeEnabled();
      expect(await focusedName(page)).not.toBe('body');
      await expect(save).toBeFocused();
      const saved = (await (await page.request.get('/api/approval-settings/platform', { headers: admin })).json()) as Settings;
      expect(saved).toMatchObject({ enabled: true, codePrefix: 'TIPK' });
      expect(saved.steps.map((s) => [s.key, s.approverIds])).toEqual([
        ['medical', [people.get('medical')?.id]],
        ['regulatory', [people.get('regulatory')?.id]],
      ]);
      // The page's content fits the screen: nothing of it runs off to the side (the message names what does).
      // (The admin's header is wider than 1280 px, the shell's, not this page's: measured on #main.)
      const wide = await page.locator('#main').evaluate((main) =>
        [main, ...main.querySelectorAll('*')]
          .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
          .slice(0, 5)
          .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)} ${Math.round(el.getBoundingClientRect().right)}`),
      );
      expect(wide).toEqual([]);
    } finally {
      const back = await put({
        enabled: before.enabled,
        codePrefix: before.codePrefix,
        steps: before.steps.map((s) => ({ key: s.key, label: s.label, approverIds: s.approverIds })),
      });
      expect(back.status(), await back.text()).toBe(200);
    }
  });
}
