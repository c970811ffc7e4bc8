/**
 * What the browser keeps (spec §3 "Local storage"): the jwt, the account switcher's `users`,
 * `disablePush` and the stored view preference; the session keeps `news_shown_date`.
 */
const JWT = 'jwt';
const VIEW_PREFERENCE = 'view';

export const session = {
  token: (): string | null => localStorage.getItem(JWT),
  setToken: (token: string) => localStorage.setItem(JWT, token),
  /** Logout and a refused token: the jwt and the view preference go (spec §4). */
  clear: () => {
    localStorage.removeItem(JWT);
    localStorage.removeItem(VIEW_PREFERENCE);
  },
};
