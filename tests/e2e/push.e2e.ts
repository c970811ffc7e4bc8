import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { browserKeys, startPushService } from '../support/push-service.ts';
import { chromium, chromiumArgs, pushServiceURL } from './playwright.config.ts';
import { apiToken, logIn, seriousAxeViolations } from './support.ts';

/**
 * Issue 16 item 4 in Chromium: the header's push-permission dialog comes about 2.5 s after load for
 * a signed-in participant; "Ne, hvala" stores disablePush=true and it does not come again; with the
 * browser's permission given, "Dovoli obvestila" subscribes this browser and switches push on; a
 * later load syncs the subscription instead of asking; a course notification then reaches the push
 * service as an encrypted Web Push message, and the push worker shows it; the profile's switch
 * subscribes and unsubscribes.
 *
 * The push service is an external edge: Chromium here cannot reach Google's, so an init script stands
 * in for it by replacing `PushManager.prototype.subscribe`/`getSubscription` with a subscription whose
 * endpoint is this test's own push service (tests/support/push-service.ts) and whose keys the test
 * made, so the test can decrypt what the platform sent. Everything else (the worker, the permission,
 * the API, the jobs, the encryption) is the real thing.
 *
 * Issue 33 item 6: asked once per browser however it is closed (Escape too), never together with the
 * news pop-up (which wins), never to the auditor. The tests wait for the prompt's decision on each
 * load (its slot's data-decision), not for a time.
 */
test.describe.configure({ mode: 'serial' });
// This file alone runs Chromium with notifications (the other suites turn them off, so no prompt meets them).
test.use({ launchOptions: { executablePath: chromium, args: chromiumArgs } });

const port = Number(new URL(pushServiceURL).port);
let service: Awaited<ReturnType<typeof startPushService>>;
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Potisna obvestila' });

/** The stand-in for the browser's push service (see above): a subscription at `endpoint` with the test's keys, kept across loads. */
const standInForPushService = async (context: BrowserContext, endpoint: string, keys: { p256dh: string; auth: string }) => {
  await context.addInitScript(
    ({ endpoint, p256dh, auth }) => {
      const KEY = 'e2e-push-subscription';
      const subscription = (serverKey: number[]) => ({
        endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey: new Uint8Array(serverKey).buffer },
        toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
        unsubscribe: async () => {
          localStorage.removeItem(KEY);
          return true;
        },
      });
      PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
        const serverKey = Array.from(new Uint8Array(options?.applicationServerKey as ArrayBuffer));
        localStorage.setItem(KEY, JSON.stringify(serverKey));
        return subscription(serverKey) as unknown as PushSubscription;
      };
      PushManager.prototype.getSubscription = async () => {
        const stored = localStorage.getItem(KEY);
        return stored ? (subscription(JSON.parse(stored) as number[]) as unknown as PushSubscription) : null;
      };
    },
    { endpoint, ...keys },
  );
};

/**
 * Waits for the prompt's decision on this page load (its slot's data-decision) and, when the news
 * pop-up won (issue 33: never two dialogs at once), defers the news and loads the page again (the
 * pop-up comes once a session), so the push question is asked. Answers the decision.
 */
const decided = async (page: Page) => {
  const slot = page.getByTestId('push-permission-slot');
  await expect(slot).toHaveAttribute('data-decision', /\w/, { timeout: 15_000 });
  return slot.getAttribute('data-decision');
};
const untilAsked = async (page: Page) => {
  if ((await decided(page)) === 'other-dialog') {
    await page.getByRole('dialog').getByRole('button', { name: 'Kasneje' }).click();
    await page.reload();
    expect(await decided(page)).toBe('ask');
  }
  await expect(dialog(page)).toBeVisible();
};

const me = async (page: Page, username: string) => {
  const token = await apiToken(page, username);
  const response = await page.request.get('/api/users/me', { headers: { authorization: `JWT ${token}` } });
  return { token, user: (await response.json()) as { onesignalEnabled: number } };
};

test.beforeAll(async () => {
  service = await startPushService(port);
});

test.afterAll(async ({ request }) => {
  // Push off again for the demo participants, so later suites do not push to a service that is gone.
  for (const username of ['udelezenec', 'lekarnar']) {
    const login = await request.post('/api/auth/login', { data: { usernameOrEmail: username, password: 'Demo1234!' } });
    const { authToken } = (await login.json()) as { authToken: string };
    const headers = { authorization: `JWT ${authToken}` };
    for (const path of ['/push/udelezenec', '/push/lekarnar']) {
      await request.delete('/api/users/me/push-subscriptions', { headers, data: { endpoint: `${pushServiceURL}${path}` } });
    }
    await request.post('/api/users/onesignal', { headers, data: { onesignalEnabled: 0 } });
  }
  await service?.close();
});

test('the dialog comes about 2.5 s after load; "Ne, hvala" stores disablePush and it does not come again', async ({ page }) => {
  await logIn(page, 'udelezenec');
  const signedIn = Date.now();
  await untilAsked(page);
  // Not at once: about 2.5 s after the signed-in page was there.
  expect(Date.now() - signedIn).toBeGreaterThan(2000);
  await expect(dialog(page)).toContainText('Želite prejemati obvestila o novih izobraževanjih');
  expect(await seriousAxeViolations(page, { include: '[role="dialog"]' })).toEqual([]);

  await dialog(page).getByRole('button', { name: 'Ne, hvala' }).click();
  await expect(dialog(page)).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('disablePush'))).toBe('true');

  await page.reload();
  await expect(page.getByTestId('user-menu')).toBeVisible();
  expect(await decided(page)).toBe('answered');
  await expect(dialog(page)).toHaveCount(0);
});

test('issue 33: closed with Escape it is remembered as well, and does not come on the next load', async ({ page }) => {
  await logIn(page, 'udelezenec');
  await untilAsked(page);
  // Shown as a dialog, it has the focus; closed, the focus goes back to the page.
  await expect(dialog(page).locator(':focus')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('disablePush'))).toBe('true');
  await page.reload();
  expect(await decided(page)).toBe('answered');
  await expect(dialog(page)).toHaveCount(0);
});

test('issue 33: the auditor, to whom nothing is pushed, is not asked', async ({ page }) => {
  await logIn(page, 'revizor');
  expect(await decided(page)).toBe('no-content');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('issue 33: the news pop-up wins: the push dialog does not open with it, and the news answers clicks', async ({ page }) => {
  const admin = await apiToken(page, 'admin');
  const headers = { authorization: `JWT ${admin}` };
  const title = `Novica pred obvestili ${Date.now().toString(36)}`;
  const day = 24 * 60 * 60 * 1000;
  const created = await page.request.post('/api/news', {
    headers,
    data: {
      title,
      htmlContent: '<p>Novica, ki ima prednost.</p>',
      active: true,
      dateFrom: new Date(Date.now() - day).toISOString(),
      dateTo: new Date(Date.now() + day).toISOString(),
      location: 1,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const newsId = ((await created.json()) as { id: number }).id;
  try {
    await logIn(page, 'lekarnar');
    const news = page.getByRole('dialog', { name: title.slice(0, 32).trimEnd() });
    await expect(news).toBeVisible();
    expect(await decided(page)).toBe('other-dialog');
    await expect(dialog(page)).toHaveCount(0);
    await news.getByRole('button', { name: 'Kasneje' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // Unanswered, the question waits for a later load.
    expect(await page.evaluate(() => localStorage.getItem('disablePush'))).toBeNull();
  } finally {
    await page.request.delete(`/api/news/${newsId}`, { headers });
  }
});

test('allowed with the browser’s permission, the browser subscribes and push is on; a later load syncs; a notification reaches the push service and the worker shows it', async ({
  page,
  context,
  baseURL,
}) => {
  const keys = browserKeys();
  await context.grantPermissions(['notifications'], { origin: baseURL as string });
  await standInForPushService(context, `${pushServiceURL}/push/udelezenec`, keys);
  await logIn(page, 'udelezenec');
  await untilAsked(page);
  const subscribed = page.waitForResponse((r) => r.url().endsWith('/api/users/me/push-subscriptions') && r.request().method() === 'POST');
  await dialog(page).getByRole('button', { name: 'Dovoli obvestila' }).click();
  expect((await subscribed).status()).toBe(200);
  await expect(page.getByText('Potisna obvestila so vklopljena.')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('disablePush'))).toBeNull();
  // The push worker is registered, the only service worker of the platform.
  expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL)).toBe(`${baseURL}/push-sw.js`);
  expect((await me(page, 'udelezenec')).user.onesignalEnabled).toBe(1);

  // Already subscribed: the next load syncs the subscription and switches push on again (onesignalEnabled 1), and asks nothing.
  const synced = page.waitForRequest((r) => r.url().endsWith('/api/users/me/push-subscriptions') && r.method() === 'POST');
  const reenabled = page.waitForRequest((r) => r.url().endsWith('/api/users/onesignal') && r.method() === 'POST');
  await page.reload();
  expect((await synced).postDataJSON()).toEqual({
    endpoint: `${pushServiceURL}/push/udelezenec`,
    expirationTime: null,
    keys: { p256dh: keys.p256dh, auth: keys.auth },
  });
  expect((await reenabled).postDataJSON()).toEqual({ onesignalEnabled: 1 });
  expect(await decided(page)).toBe('sync');
  await expect(dialog(page)).toHaveCount(0);

  // An admin notifies the participant's unit of a course: it reaches the push service, encrypted for this browser.
  const admin = await apiToken(page, 'admin');
  const created = await page.request.post('/api/courses', {
    headers: { authorization: `JWT ${admin}` },
    data: {
      type: 3,
      title: `Potisni tečaj ${Date.now().toString(36)}`,
      description: 'Izobraževanje, o katerem obvestimo s potisnim obvestilom.',
      cover: '/c.svg',
      creditPoints: 1,
      audience: { unitIds: [1] },
    },
  });
  const courseId = ((await created.json()) as { id: number }).id;
  const subject = `Novo poglavje ${Date.now().toString(36)}`;
  const sent = await page.request.post(`/api/courses/${courseId}/notifications`, {
    headers: { authorization: `JWT ${admin}` },
    data: { subject, message: 'Dodali smo poglavje o interakcijah z grenivko.' },
  });
  expect(sent.status()).toBe(202);
  const [push] = await service.waitFor('/push/udelezenec', 1, 30_000);
  expect(push?.headers['content-encoding']).toBe('aes128gcm');
  expect(push?.headers.authorization).toMatch(/^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]+$/);
  const payload = keys.decrypt(push?.body as Buffer);
  expect(JSON.parse(payload)).toMatchObject({
    title: subject,
    body: 'Dodali smo poglavje o interakcijah z grenivko.',
    path: `/izobrazevanja/${courseId}?vir=obvestilo`,
  });

  // What the push service would hand the browser, handed to the push worker (DevTools' push): it shows the notification with its path.
  const cdp = await context.newCDPSession(page);
  const registration = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event: { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] }) => {
      const found = event.registrations.find((r) => r.scopeURL === `${baseURL}/` && !r.isDeleted);
      if (found) resolve(found.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: baseURL as string, registrationId: await registration, data: payload });
  await expect
    .poll(async () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, data: n.data as unknown })),
      ),
    )
    .toEqual([{ title: subject, body: 'Dodali smo poglavje o interakcijah z grenivko.', data: { path: `/izobrazevanja/${courseId}?vir=obvestilo` } }]);

  // Signing out, the platform forgets this browser for the participant: the next person here does not get their notifications.
  const forgotten = page.waitForResponse((r) => r.url().endsWith('/api/users/me/push-subscriptions') && r.request().method() === 'DELETE');
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Odjava' }).click();
  expect(await (await forgotten).json()).toEqual({ removed: true });
  await expect(page).toHaveURL(/\/prijava/);
});

test('the profile’s switch subscribes this browser and switches push on, and off again', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['notifications'], { origin: baseURL as string });
  await standInForPushService(context, `${pushServiceURL}/push/lekarnar`, browserKeys());
  await logIn(page, 'lekarnar');
  // Said no in the dialog first; the profile is where push is switched on later.
  await untilAsked(page);
  await dialog(page).getByRole('button', { name: 'Ne, hvala' }).click();
  await page.goto('/profil');
  const toggle = page.getByRole('switch', { name: 'Prejemam potisna obvestila' });
  await expect(toggle).not.toBeChecked();

  const subscribed = page.waitForResponse((r) => r.url().endsWith('/api/users/me/push-subscriptions') && r.request().method() === 'POST');
  const on = page.waitForRequest((r) => r.url().endsWith('/api/users/onesignal') && r.method() === 'POST');
  await toggle.click();
  expect((await subscribed).status()).toBe(200);
  expect((await on).postDataJSON()).toEqual({ onesignalEnabled: 1 });
  await expect(toggle).toBeChecked();
  expect(await page.evaluate(() => localStorage.getItem('disablePush'))).toBeNull();
  expect((await me(page, 'lekarnar')).user.onesignalEnabled).toBe(1);

  const unsubscribed = page.waitForResponse((r) => r.url().endsWith('/api/users/me/push-subscriptions') && r.request().method() === 'DELETE');
  const off = page.waitForRequest((r) => r.url().endsWith('/api/users/onesignal') && r.method() === 'POST');
  await toggle.click();
  expect(await (await unsubscribed).json()).toEqual({ removed: true });
  expect((await off).postDataJSON()).toEqual({ onesignalEnabled: 0 });
  await expect(toggle).not.toBeChecked();
  // This browser's subscription is gone, and the dialog will not ask here again.
  expect(await page.evaluate(async () => (await (await navigator.serviceWorker.ready).pushManager.getSubscription()) === null)).toBe(true);
  expect(await page.evaluate(() => localStorage.getItem('disablePush'))).toBe('true');
  expect((await me(page, 'lekarnar')).user.onesignalEnabled).toBe(0);
});
