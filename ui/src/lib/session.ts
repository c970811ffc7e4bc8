/**
 * What the browser keeps (spec §3 "Local storage"): the jwt, the account switcher's `users`,
 * `disablePush` and the stored view preference; the session keeps `news_shown_date`. During "log
 * in as" the admin's own jwt waits under `realJwt`, so leaving returns to the admin.
 */
const JWT = 'jwt';
const REAL_JWT = 'realJwt';
const VIEW_PREFERENCE = 'view';

export type ViewPreference = 'grid' | 'list';

/**
 * Stored files (covers, videos, documents) are shown by the browser itself, which cannot send the
 * Authorization header: the jwt is also a cookie sent only to /api/files (decision 0020).
 */
const MEDIA_COOKIE = 'medilearn_media';
const syncMediaCookie = () => {
  const token = localStorage.getItem(JWT);
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from some browsers, and the cookie must change together with the jwt.
  document.cookie = token
    ? `${MEDIA_COOKIE}=${token}; Path=/api/files; SameSite=Strict${secure}`
    : `${MEDIA_COOKIE}=; Path=/api/files; Max-Age=0; SameSite=Strict${secure}`;
};

export const session = {
  token: (): string | null => localStorage.getItem(JWT),
  setToken: (token: string) => {
    localStorage.setItem(JWT, token);
    syncMediaCookie();
  },
  /** On start: a jwt kept from an earlier visit gets its media cookie back. */
  syncMediaCookie,
  realToken: (): string | null => localStorage.getItem(REAL_JWT),
  keepRealToken: (token: string) => localStorage.setItem(REAL_JWT, token),
  /** Leaving "log in as": the admin's jwt becomes the jwt again (null when there was none). */
  restoreRealToken: (): string | null => {
    const real = localStorage.getItem(REAL_JWT);
    localStorage.removeItem(REAL_JWT);
    if (real) localStorage.setItem(JWT, real);
    else localStorage.removeItem(JWT);
    syncMediaCookie();
    return real;
  },
  /** spec §3 "stored view preference": how the course lists are laid out. */
  viewPreference: (): ViewPreference => (localStorage.getItem(VIEW_PREFERENCE) === 'list' ? 'list' : 'grid'),
  setViewPreference: (view: ViewPreference) => localStorage.setItem(VIEW_PREFERENCE, view),
  /** Logout and a refused token: the jwt and the view preference go (spec §4), and a waiting admin jwt. */
  clear: () => {
    localStorage.removeItem(JWT);
    localStorage.removeItem(REAL_JWT);
    localStorage.removeItem(VIEW_PREFERENCE);
    syncMediaCookie();
  },
};
