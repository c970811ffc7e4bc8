import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app.css';
import { type CSSVariablesResolver, createTheme, MantineProvider, mergeThemeOverrides, Notification } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { RouterProvider } from 'react-router';
import { onConsentsMissing, onUnauthorised } from '../lib/api-client.ts';
import { session } from '../lib/session.ts';
import { queryClient } from './query-client.ts';
import { router } from './router.tsx';

const theme = createTheme({
  // A teal dark enough for white text (WCAG AA) at the primary shade.
  colors: {
    brand: ['#e6f4f3', '#c5e6e4', '#9fd6d2', '#76c5bf', '#4fb4ad', '#2f9f98', '#138a83', '#0b6e69', '#075a56', '#044542'],
  },
  primaryColor: 'brand',
  primaryShade: 7,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  defaultRadius: 'md',
});

// Mantine's dimmed grey and its error red (field messages, and the text of a field in error) are too
// light for small text on white; these pass AA.
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': '#5c636a', '--mantine-color-error': '#c92a2a' },
  dark: {},
});

// spec §7: a 401 from any call but login and registration ends the session and opens the login page.
onUnauthorised(() => {
  session.clear();
  queryClient.clear();
  const here = window.location.pathname + window.location.search;
  if (window.location.pathname !== '/prijava') void router.navigate(`/prijava?redirect=${encodeURIComponent(here)}`, { replace: true });
});

// spec §6: 403 with code 422086 sends the user to the consents page, and back where they were afterwards.
onConsentsMissing(() => {
  void queryClient.invalidateQueries({ queryKey: ['users', 'me'] });
  const here = window.location.pathname + window.location.search;
  if (window.location.pathname !== '/pogoji') void router.navigate(`/pogoji?redirect=${encodeURIComponent(here)}`, { replace: true });
});

// A toast's close button needs a name for screen readers (axe); the texts are loaded before the app renders.
const withNamedCloseButtons = () =>
  mergeThemeOverrides(theme, {
    components: { Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': i18next.t('common.closeNotification') } } }) },
  });

export const App = () => (
  <MantineProvider theme={withNamedCloseButtons()} cssVariablesResolver={cssVariablesResolver}>
    {/* Toasts: 3000 ms, top centre (spec §8). */}
    <Notifications position="top-center" autoClose={3000} />
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </MantineProvider>
);
