import { redirect } from 'react-router';
import type { CurrentUser } from '../features/users/api/me.ts';
import { safeLocalPath } from '../lib/safe-path.ts';
import { isPublicPath } from './route-paths.ts';

/**
 * Navigation guards of spec §2, in its order: user-log-as, provider-redirect, authenticated,
 * redirect; then (in NavigationEffects, as they act on leaving a page) invalidate-store, navigated
 * and i18n. They run before each route renders (as its loader). Dependencies come in, so the
 * order and outcomes are tested without a server (guards.unit.spec.ts).
 */
export type GuardDeps = {
  readonly token: () => string | null;
  readonly setToken: (token: string) => void;
  /** "Log in as": the admin's own jwt, kept so that leaving returns to the admin (issue 13). */
  readonly keepRealToken: (token: string) => void;
  readonly clearSession: () => void;
  readonly exchangeLoginToken: (token: string) => Promise<string>;
  /** Whether a jwt signs in, asked without the session-wide 401 handling (which would sign out whoever is signed in). */
  readonly tokenSignsIn: (token: string) => Promise<boolean>;
  readonly providerLogin: (id: string, query: { provider: string | null; user: string | null }) => Promise<string>;
  readonly loadUser: () => Promise<CurrentUser>;
  /** Consents hook point (the consents issue fills it): where to send a user who lacks a required consent. */
  readonly missingConsentsRedirect: (user: CurrentUser, fullPath: string) => string | null;
  /**
   * spec §5: a user whose profession needs a licence or chamber membership number and lacks it is
   * told so (a toast) and sent to the profile. Returns the toast's message key, or null.
   */
  readonly missingProfessionNumber: (user: CurrentUser) => string | null;
  readonly toast: (messageKey: string) => void;
  readonly logError: (message: string, error: unknown) => void;
};

const COURSES = '/izobrazevanja';
const LOGIN_AS_FAILED = 'Prijava z uporabnikom je bila neuspešna.';

const loginUrl = (fullPath: string, messengerId: string | null) => {
  const query = new URLSearchParams({ redirect: fullPath });
  if (messengerId) query.set('messenger_id', messengerId);
  return `/prijava?${query.toString()}`;
};

/**
 * user-log-as: `/login-as?id=<token>` signs in with that token and goes to the courses; a failure is
 * logged (and shown, spec §8 "Prijava z uporabnikom je bila neuspešna.") and still goes there, the
 * admin still signed in as themselves: a token that does not sign in is never stored.
 */
const userLogAs = async (deps: GuardDeps, url: URL) => {
  if (url.pathname !== '/login-as') return;
  const id = url.searchParams.get('id');
  if (id) {
    const own = deps.token();
    if (!(await deps.tokenSignsIn(id).catch(() => false))) {
      deps.logError(LOGIN_AS_FAILED, new Error('The login-as token does not sign in'));
      deps.toast('people.loginAsFailed');
      throw redirect(COURSES);
    }
    if (own && own !== id) deps.keepRealToken(own);
    deps.setToken(id);
    try {
      await deps.loadUser();
    } catch (error) {
      deps.logError(LOGIN_AS_FAILED, error);
    }
  }
  throw redirect(COURSES);
};

/** provider-redirect: `/redirect/{id}` stores the provider's token, loads the user and opens course {id}; a failure opens the course list. */
const providerRedirect = async (deps: GuardDeps, url: URL) => {
  const match = /^\/redirect\/([^/]+)\/?$/.exec(url.pathname);
  if (!match) return;
  const id = match[1] as string;
  try {
    await deps.providerLogin(id, { provider: url.searchParams.get('provider'), user: url.searchParams.get('user') });
    await deps.loadUser();
  } catch (error) {
    deps.logError('Unable to log in through the provider', error);
    throw redirect(COURSES);
  }
  // Id 0: a sign-in that was not for a particular course opens the course list.
  throw redirect(id === '0' ? COURSES : `${COURSES}/${encodeURIComponent(id)}`);
};

/** authenticated: a `token` query parameter is exchanged; without a jwt a non-public page goes to login with the full path. */
const authenticated = async (deps: GuardDeps, url: URL) => {
  const loginToken = url.searchParams.get('token');
  if (loginToken) {
    const rest = new URL(url);
    rest.searchParams.delete('token');
    const withoutToken = rest.pathname + rest.search;
    try {
      await deps.exchangeLoginToken(loginToken);
    } catch (error) {
      deps.logError('Token exchange failed', error);
      deps.clearSession();
      throw redirect(loginUrl(withoutToken, rest.searchParams.get('messenger_id')));
    }
    throw redirect(withoutToken);
  }
  if (!deps.token() && !isPublicPath(url.pathname)) throw redirect(loginUrl(url.pathname + url.search, url.searchParams.get('messenger_id')));
};

/** redirect: a signed-in user on the login page goes where it would send them; one lacking consents goes to them. */
const redirectGuard = async (deps: GuardDeps, url: URL) => {
  if (!deps.token()) return;
  if (url.pathname === '/prijava') {
    const target = url.searchParams.get('redirect');
    throw redirect(safeLocalPath(target));
  }
  if (isPublicPath(url.pathname)) return;
  let user: CurrentUser;
  try {
    user = await deps.loadUser();
  } catch (error) {
    // A refused token is handled by the API client (401: session cleared, login); other failures are only logged.
    deps.logError('Unable to fetch user profile', error);
    return;
  }
  const consents = deps.missingConsentsRedirect(user, url.pathname + url.search);
  if (consents && url.pathname !== '/pogoji') throw redirect(consents);
  const number = deps.missingProfessionNumber(user);
  if (number && !PROFILE_PATHS.some((path) => url.pathname === path || url.pathname.startsWith(`${path}/`))) {
    deps.toast(number);
    throw redirect('/profil');
  }
};

/** Where a user with an incomplete profile may still go: the profile itself and its neighbours. */
const PROFILE_PATHS = ['/profil', '/pogoji', '/sprememba-e-naslova', '/version'];

export const createGuard =
  (deps: GuardDeps) =>
  async ({ request }: { request: Request }): Promise<null> => {
    const url = new URL(request.url);
    await userLogAs(deps, url);
    await providerRedirect(deps, url);
    await authenticated(deps, url);
    await redirectGuard(deps, url);
    return null;
  };
