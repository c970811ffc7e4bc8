import { expect, type Page, test } from '@playwright/test';
import { logIn, PHONE } from './support.ts';

/**
 * The signed-in header fits the screen (a keyboard walk of 2026-11-27: at 1280x800 the admin's
 * header made the page 1368 px wide and put the user menu, with profile and sign-out, off the screen
 * to the right). For the admin (the most menus) and a participant (two), at a small laptop, a common
 * laptop and a phone: the page does not scroll sideways, the user menu is on the screen and opens by
 * keyboard, and every main menu entry is reached (on wide screens by Tab, on the screen with a visible
 * focus; on a phone in the drawer or, for a participant, in the footer).
 */
const MENUS: Record<string, string[]> = {
  admin: ['Izobraževanja', 'Akademije', 'Urejanje izobraževanj', 'Skupnosti', 'Uporabniki', 'Značke', 'Novice', 'Podatki'],
  udelezenec: ['Izobraževanja', 'Akademije'],
};
/** The admin's entries that open a sub-menu, with the last item of each: the whole list is on the screen. */
const GROUPS: Record<string, string> = { Skupnosti: 'Skupine poklicev', Značke: 'Izobraževanja', Novice: 'Novičniki', Podatki: 'Odobritve vsebin' };

const SIZES = [{ width: 1024, height: 768 }, { width: 1280, height: 800 }, PHONE];

/** Whether the element's box lies wholly inside the viewport's width (and is not empty). */
const insideViewport = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el) => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.left >= 0 && box.right <= window.innerWidth;
  });

const noSidewaysScroll = async (page: Page) => {
  const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scrollWidth, `the page is ${scrollWidth} px wide in a ${innerWidth} px window`).toBeLessThanOrEqual(innerWidth);
};

/** The user menu is on the screen and opens by keyboard on its first item; Escape closes it and gives the focus back. */
const userMenuByKeyboard = async (page: Page) => {
  expect(await insideViewport(page, '[data-testid="user-menu"]'), 'the user menu button is inside the viewport').toBe(true);
  await page.getByTestId('user-menu').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Profil' })).toBeFocused();
  await expect(page.getByRole('menuitem', { name: 'Odjava' })).toBeInViewport();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menuitem', { name: 'Profil' })).toHaveCount(0);
  await expect(page.getByTestId('user-menu')).toBeFocused();
};

/**
 * Tab from the logo to the user menu: the main menu's entries come in their order, each on the screen
 * with its focus ring; a group opens by keyboard and closes again with Escape.
 */
const menuByTab = async (page: Page, expected: string[]) => {
  await page.locator('header a[href="/"]').first().focus();
  const reached: string[] = [];
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return {
        menu: el.dataset.menu ? (el.textContent ?? '').trim() : null,
        userMenu: el.dataset.testid === 'user-menu',
        onScreen: box.width > 0 && box.left >= 0 && box.right <= window.innerWidth && box.top >= 0 && box.bottom <= window.innerHeight,
        ring: el.matches(':focus-visible') && (style.outlineStyle !== 'none' || style.boxShadow !== 'none'),
      };
    });
    if (focused.userMenu) break;
    if (focused.menu === null) continue;
    expect(focused.onScreen, `${focused.menu} is on the screen when it has the focus`).toBe(true);
    expect(focused.ring, `${focused.menu} shows its focus`).toBe(true);
    reached.push(focused.menu);
    const child = GROUPS[focused.menu];
    if (child) {
      await page.keyboard.press('Enter');
      await expect(page.getByRole('menuitem').first()).toBeFocused();
      await expect(page.getByRole('menuitem', { name: child, exact: true })).toBeInViewport();
      await page.keyboard.press('Escape');
      await expect(page.getByRole('menu')).toHaveCount(0);
      await expect(page.locator(`header [data-menu]`).filter({ hasText: focused.menu })).toBeFocused();
    }
  }
  expect(reached).toEqual(expected);
};

for (const username of Object.keys(MENUS)) {
  for (const size of SIZES) {
    test(`${username} at ${size.width}x${size.height}: the header fits, the user menu and every menu entry are reached`, async ({ page }) => {
      await page.setViewportSize(size);
      await logIn(page, username);
      // The admin's own pages share the header: check one of them too.
      for (const path of username === 'admin' ? ['/', '/admin/users'] : ['/']) {
        await page.goto(path);
        await expect(page.getByTestId('user-menu')).toBeVisible();
        await noSidewaysScroll(page);
        await userMenuByKeyboard(page);
      }
      const expected = MENUS[username] as string[];
      if (size !== PHONE) {
        await menuByTab(page, expected);
        return;
      }
      if (username === 'admin') {
        // The drawer opens by keyboard and holds every entry, the groups' items too.
        await page.getByTestId('mobile-menu-button').focus();
        await page.keyboard.press('Enter');
        const drawer = page.getByRole('dialog', { name: 'Glavni meni' });
        for (const label of [...expected, ...Object.values(GROUPS)]) {
          await expect(drawer.locator('[data-menu]').filter({ hasText: label }).first()).toBeVisible();
        }
        await page.keyboard.press('Escape');
        await expect(drawer).toHaveCount(0);
      } else {
        // A participant has no menu button on a phone (spec §2): the footer holds courses and academies.
        const footer = page.getByTestId('mobile-footer');
        for (const label of expected) await expect(footer.getByRole('link', { name: label })).toBeInViewport();
      }
    });
  }
}
