import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureValidationMessages } from '../../domain/shared/validation-messages.rules.ts';
import { App } from './app/app.tsx';
import { setupI18n } from './lib/i18n.ts';
import { isPushWorker, PUSH_WORKER_URL, pushSupported } from './lib/push.ts';
import { safeLocalPath } from './lib/safe-path.ts';
import { session } from './lib/session.ts';

// Service-worker caches are cleared (spec §9), and every worker but the push worker is unregistered: that
// one only shows push notifications and opens their path (issue 16); it caches nothing and handles no fetch.
if ('serviceWorker' in navigator) {
  void navigator.serviceWorker.getRegistrations().then(async (registrations) => {
    for (const registration of registrations) if (!isPushWorker(registration)) await registration.unregister();
    // A browser that allowed notifications keeps the current push worker (a new version of the file replaces the old).
    if (pushSupported() && Notification.permission === 'granted')
      await navigator.serviceWorker.register(PUSH_WORKER_URL, { scope: '/' }).catch(() => undefined);
  });
  // A tapped notification whose window the worker could not lead itself: it asks the page to go there.
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<{ type?: string; path?: string }>) => {
    if (event.data?.type === 'medilearn:navigate' && typeof event.data.path === 'string') window.location.assign(safeLocalPath(event.data.path));
  });
}
if ('caches' in window) void caches.keys().then((keys) => Promise.all(keys.map((key) => caches.delete(key))));

configureValidationMessages();
setupI18n();
session.syncMediaCookie();

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
