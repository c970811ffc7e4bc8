import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureValidationMessages } from '../../domain/shared/validation-messages.rules.ts';
import { App } from './app/app.tsx';
import { setupI18n } from './lib/i18n.ts';
import { session } from './lib/session.ts';

// No service worker: unregister any left by an older version and clear its caches (spec §9).
if ('serviceWorker' in navigator) {
  void navigator.serviceWorker.getRegistrations().then((registrations) => {
    for (const registration of registrations) void registration.unregister();
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
