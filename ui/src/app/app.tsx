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
  light: {
    '--mantine-color-dimmed': '#5c636a',
    '--mantine-color-error': '#c92a2a',
    // The text of light alerts, badges and buttons (an alert's title, e.g. the consent audit's "chain is
    // intact") is shade 9 on shade 1: too light for green, teal, orange, yellow, lime and red. Darker, 5:1.
    '--mantine-color-red-light-color': '#b92727',
    '--mantine-color-green-light-color': '#247434',
    '--mantine-color-teal-light-color': '#077252',
    '--mantine-color-orange-light-color': '#b23b0c',
    '--mantine-color-yellow-light-color': '#a15300',
    '--mantine-color-lime-light-color': '#48730a',
    '--mantine-color-cyan-light-color': '#0b6d80',
  },
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

// Mantine's own controls are named in English or not at all: every one the platform uses is named in
// Slovenian here (issue 18 item 6). The texts are loaded before the app renders.
const withSlovenianLabels = () => {
  const t = (key: string) => i18next.t(key);
  const close = { closeButtonProps: { 'aria-label': t('common.close') } };
  const clear = { clearButtonProps: { 'aria-label': t('common.clear') } };
  // The calendar of the date fields (@mantine/dates).
  const calendarLabels = {
    ariaLabels: {
      previousMonth: t('common.calendar.previousMonth'),
      nextMonth: t('common.calendar.nextMonth'),
      previousYear: t('common.calendar.previousYear'),
      nextYear: t('common.calendar.nextYear'),
      previousDecade: t('common.calendar.previousDecade'),
      nextDecade: t('common.calendar.nextDecade'),
    },
  };
  // Components are named, not imported, so the login page's bundle does not grow.
  return mergeThemeOverrides(theme, {
    components: {
      Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': t('common.closeNotification') } } }),
      Modal: { defaultProps: close },
      Drawer: { defaultProps: close },
      PasswordInput: { defaultProps: { visibilityToggleButtonProps: { 'aria-label': t('common.togglePassword') } } },
      Pagination: { defaultProps: { getControlProps: (control: string) => ({ 'aria-label': t(`table.${control}`) }) } },
      Select: { defaultProps: clear },
      MultiSelect: { defaultProps: clear },
      DatePicker: { defaultProps: calendarLabels },
      Calendar: { defaultProps: calendarLabels },
    },
  });
};

// The autosize Textarea measures its text in one hidden textarea of its own, named "autosize measurement"
// and hidden from screen readers (aria-hidden). It is renamed in Slovenian as soon as it is added to the page.
const nameAutosizeMeasurement = () => {
  const rename = (node: Node) => {
    if (node instanceof HTMLTextAreaElement && node.getAttribute('aria-label') === 'autosize measurement')
      node.setAttribute('aria-label', i18next.t('common.autosizeMeasurement'));
  };
  new MutationObserver((changes) => {
    for (const change of changes) change.addedNodes.forEach(rename);
  }).observe(document.body, { childList: true });
};
if (typeof document !== 'undefined' && typeof MutationObserver !== 'undefined') nameAutosizeMeasurement();

export const App = () => (
  <MantineProvider theme={withSlovenianLabels()} cssVariablesResolver={cssVariablesResolver}>
    {/* Toasts: 3000 ms, top centre (spec §8). */}
    <Notifications position="top-center" autoClose={3000} />
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </MantineProvider>
);
