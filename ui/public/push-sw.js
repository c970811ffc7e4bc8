/**
 * Medilearn's push worker (issue 16 item 4): it shows the notifications the platform pushes and, when
 * one is tapped, brings the platform forward and leads it to the notification's path and query after
 * 2 seconds (spec §4). It does nothing else: no fetch handler and no caches (spec §9 "service-worker
 * caches are cleared"). Plain script (no modules), so every browser can run it; the rules are tested by
 * ui/src/lib/push-sw.unit.spec.ts, which runs this file.
 */

/** spec §4: a tapped notification navigates after 2 seconds. */
const NAVIGATE_DELAY_MS = 2000;

/** Where a notification leads: the path and query of its data, on this platform only (anything else: home). */
const pushTarget = (data, origin) => {
  const path = data && typeof data.path === 'string' ? data.path : '/';
  try {
    const url = new URL(path, origin);
    return url.origin === origin ? url.pathname + url.search : '/';
  } catch {
    return '/';
  }
};

/** What the platform pushed: `{title, body, path, tag}` as JSON. */
const readPush = (data) => {
  if (!data) return {};
  try {
    const message = data.json();
    return message && typeof message === 'object' ? message : {};
  } catch {
    return { body: data.text() };
  }
};

/**
 * A tap: focus a window of the platform, or open one, and after the delay lead it to the target (a
 * window this worker does not control is told by a message the page listens for instead).
 */
const openTarget = async (scope, data, wait) => {
  const origin = scope.location.origin;
  const target = pushTarget(data, origin);
  const windows = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const existing = windows.find((client) => new URL(client.url).origin === origin);
  const client = existing ? await existing.focus() : await scope.clients.openWindow('/');
  if (!client) return target;
  await wait(NAVIGATE_DELAY_MS);
  try {
    await client.navigate(new URL(target, origin).href);
  } catch {
    client.postMessage({ type: 'medilearn:navigate', path: target });
  }
  return target;
};

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  const message = readPush(event.data);
  const title = typeof message.title === 'string' && message.title ? message.title : 'Medilearn';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof message.body === 'string' ? message.body : '',
      icon: '/favicon.svg',
      lang: 'sl',
      ...(typeof message.tag === 'string' ? { tag: message.tag } : {}),
      data: { path: pushTarget(message, self.location.origin) },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openTarget(self, event.notification.data, (ms) => new Promise((resolve) => setTimeout(resolve, ms))));
});
