import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import sl from '../locales/sl.json';

/**
 * Slovenian is the only active locale (spec §1): the spec's code `si` in the `i18n_redirected`
 * cookie (365 days), `sl-SI` on the page, i18next's `sl` inside, with its four plural forms
 * (1 tečaj, 2 tečaja, 3 tečaji, 5 tečajev).
 */
export const LOCALE_COOKIE = 'i18n_redirected';
export const TIME_ZONE = 'Europe/Ljubljana';

export const setupI18n = () => {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser our users have.
  document.cookie = `${LOCALE_COOKIE}=si; path=/; max-age=${365 * 24 * 60 * 60}; SameSite=Lax`;
  document.documentElement.lang = 'sl-SI';
  void i18next.use(initReactI18next).init({
    lng: 'sl',
    fallbackLng: 'sl',
    supportedLngs: ['sl'],
    resources: { sl: { translation: sl } },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return i18next;
};

const dateTime = new Intl.DateTimeFormat('sl-SI', { timeZone: TIME_ZONE, dateStyle: 'medium', timeStyle: 'short' });
const date = new Intl.DateTimeFormat('sl-SI', { timeZone: TIME_ZONE, dateStyle: 'medium' });
const month = new Intl.DateTimeFormat('sl-SI', { timeZone: TIME_ZONE, month: 'short', year: 'numeric' });
// Issue 7: amounts as 1.234,56 € (sl-SI alone groups only from five digits).
const euro = new Intl.NumberFormat('sl-SI', { style: 'currency', currency: 'EUR', useGrouping: 'always' });
const number = new Intl.NumberFormat('sl-SI', { useGrouping: 'always', maximumFractionDigits: 1 });
const npsScore = new Intl.NumberFormat('sl-SI', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export const formatDateTime = (value: string | Date) => dateTime.format(new Date(value));
export const formatDate = (value: string | Date) => date.format(new Date(value));
/** A calendar month as 'YYYY-MM' (Ljubljana time, as the statistics give it) the way people read it: "nov. 2026". */
export const formatMonth = (value: string) => {
  const [year, monthNumber] = value.split('-').map(Number);
  // The middle of the month: the same month in any time zone.
  return month.format(new Date(Date.UTC(year ?? 1970, (monthNumber ?? 1) - 1, 15, 12)));
};
/** A calendar day 'YYYY-MM-DD' (a Ljubljana day, as periods and exports give it) as dates are shown everywhere: "23. nov. 2026". */
export const formatDay = (value: string) => {
  const [year, monthNumber, day] = value.split('-').map(Number);
  // Noon UTC: the same day in Ljubljana.
  return date.format(new Date(Date.UTC(year ?? 1970, (monthNumber ?? 1) - 1, day ?? 1, 12)));
};
/**
 * A period of a timeline ('YYYY-MM-DD', its first day) in charts and tables alike (issue 18 item 4):
 * a month as "nov. 2026", a day or a week (its Monday) as "23. nov. 2026".
 */
export const formatPeriod = (period: string, bucket: 'day' | 'week' | 'month') => (bucket === 'month' ? formatMonth(period.slice(0, 7)) : formatDay(period));
/** Money is integer euro cents everywhere below the UI. */
export const formatEuroCents = (cents: number) => euro.format(cents / 100);
export const formatNumber = (value: number) => number.format(value);
/** An NPS score (-100 to 100) one way on every page, chart and table (issue 33: "33" on one page, "33,3" on another): one decimal, "–" without answers. */
export const formatNps = (score: number | null) => (score === null ? '–' : npsScore.format(score));
export const formatPercent = (value: number | null) => (value === null ? '–' : `${number.format(value)} %`);
/** A file's size as people read it: 820 B, 12,5 KB, 3,2 MB. */
export const formatFileSize = (bytes: number) =>
  bytes < 1024 ? `${number.format(bytes)} B` : bytes < 1024 * 1024 ? `${number.format(bytes / 1024)} KB` : `${number.format(bytes / 1024 / 1024)} MB`;
