import { isPlatformPath, NEWS_LOCATION, NEWS_LOCATION_TEXT_MAX, NEWS_POPUP_INTERVAL_MS, type NewsLocation } from '../../../../domain/news/news.rules.ts';

/** spec §3 "Session: news_shown_date": when this browser session last showed the pop-up. */
export const NEWS_SHOWN_KEY = 'news_shown_date';

/**
 * Where the pop-up asks for news (spec §4, §7): on the home page, the course list and the academies
 * (location 1), and on the course-completed pages (locations 1 and 2); nowhere else.
 */
export const newsLocationsFor = (pathname: string): NewsLocation[] | null => {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/' || path === '/izobrazevanja' || path === '/powerclass') return [NEWS_LOCATION.list];
  if (/^\/izobrazevanja\/[^/]+\/konec$/.test(path) || /^\/courses\/[^/]+\/end$/.test(path)) return [NEWS_LOCATION.list, NEWS_LOCATION.courseEnd];
  return null;
};

/** At most once every 24 hours (spec §9): true while the last showing is less than that ago. */
export const shownRecently = (stored: string | null, now: number) => {
  if (!stored) return false;
  const at = Date.parse(stored);
  return Number.isFinite(at) && now - at < NEWS_POPUP_INTERVAL_MS;
};

/**
 * spec §9 "location text cut at 32 characters plus an ellipsis": the pop-up's one short line, its
 * header (decision 0022). Cut by characters, never inside a surrogate pair.
 */
export const cutLocationText = (text: string) => {
  const characters = [...text];
  return characters.length > NEWS_LOCATION_TEXT_MAX ? `${characters.slice(0, NEWS_LOCATION_TEXT_MAX).join('').trimEnd()}…` : text;
};

/** A news button's link: a page of the platform opens in the same tab, any other address in a new one. */
export const linkTarget = (url: string): { target?: '_blank'; rel?: string } => (isPlatformPath(url) ? {} : { target: '_blank', rel: 'noopener noreferrer' });
