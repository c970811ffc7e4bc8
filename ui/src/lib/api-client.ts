/**
 * The one API client: adds the JWT header, serialises query lists in array style (`a[]=1&a[]=2`),
 * turns the API's error shape into an ApiError, and after every mutation sends the position of
 * the last write as `X-Min-Position`, so the next read waits until the read models have seen it.
 */
import { session } from './session.ts';

export type ApiErrorItem = { code: string; message: string; field: string | null };

export class ApiError extends Error {
  readonly status: number;
  readonly errors: ApiErrorItem[];

  constructor(status: number, errors: ApiErrorItem[]) {
    super(errors[0]?.message ?? `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
  }

  /** The first error code, e.g. "422005" (spec §8). */
  get code() {
    return this.errors[0]?.code ?? String(this.status);
  }
}

type Query = Record<string, string | number | boolean | null | undefined | readonly (string | number)[]>;

export const serialiseQuery = (query: Query | undefined) => {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) params.append(`${key}[]`, String(item));
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
};

let lastWritePosition: string | null = null;

const WIRE_POSITION = /^(\d{1,20})-(\d{1,20})$/;
/** Whether wire position `a` (`<commit>-<prepare>`) is past `b`, ordered as the server orders them: commit, then prepare. */
const isPast = (a: string, b: string) => {
  const [, ac, ap] = WIRE_POSITION.exec(a) ?? [];
  const [, bc, bp] = WIRE_POSITION.exec(b) ?? [];
  if (!ac || !ap || !bc || !bp) return false;
  return BigInt(ac) === BigInt(bc) ? BigInt(ap) > BigInt(bp) : BigInt(ac) > BigInt(bc);
};

/**
 * Later reads wait for at least this position (as for the last write): the live stream's position of
 * a change, so the page's read again is not answered by a read replica that has not replayed it yet
 * (decision 0067). A position behind the one already kept changes nothing.
 */
export const readAtLeast = (position: string) => {
  if (!WIRE_POSITION.test(position)) return;
  if (lastWritePosition === null || isPast(position, lastWritePosition)) lastWritePosition = position;
};
const unauthorisedListeners = new Set<() => void>();
const consentsMissingListeners = new Set<() => void>();

/** spec §6: a 403 with code 422086 (required consents missing) sends the user to the consents page. */
export const onConsentsMissing = (listener: () => void) => {
  consentsMissingListeners.add(listener);
  return () => consentsMissingListeners.delete(listener);
};

/** Called on a 401 from any call except login and registration (spec §7). */
export const onUnauthorised = (listener: () => void) => {
  unauthorisedListeners.add(listener);
  return () => unauthorisedListeners.delete(listener);
};

// The sign-in side's calls (login, registration, links, second factor, provider sign-in) show their
// own message: a refused code or link there is not a lost session. A failed token exchange is
// handled by its guard (the token is stripped before going to login).
const signInCall = (path: string) => (path.startsWith('/auth/') && path !== '/auth/logout' ? !path.startsWith('/auth/token/') : path.startsWith('/redirect/'));

/** Whether a jwt signs in (GET /users/me answers anything but 401), without the 401 listeners: nothing of the current session changes. */
export const tokenSignsIn = async (token: string): Promise<boolean> =>
  (await fetch('/api/users/me', { headers: { Accept: 'application/json', Authorization: `JWT ${token}` } })).status !== 401;

const STALE_RETRIES = 5;
const STALE_RETRY_MS = 400;

export const api = async <T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  /** keepalive: the request outlives the page (a package's last commit as the participant leaves). */
  options: { query?: Query; body?: unknown; signal?: AbortSignal; keepalive?: boolean } = {},
): Promise<T> => {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = session.token();
  if (token) headers.Authorization = `JWT ${token}`;
  // A file (Blob) goes as it is, with its own type; everything else as JSON.
  const file = options.body instanceof Blob ? options.body : null;
  if (options.body !== undefined) headers['Content-Type'] = file ? file.type || 'application/octet-stream' : 'application/json';
  // Reads (and writes that check references in read models) wait until the last write is visible.
  if (lastWritePosition) headers['X-Min-Position'] = lastWritePosition;
  const send = () =>
    fetch(`/api${path}${serialiseQuery(options.query)}`, {
      method,
      headers,
      body: file ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
      signal: options.signal,
      ...(options.keepalive ? { keepalive: true } : {}),
    });
  let response = await send();
  // A read the server answered before its read models reached our last write (X-Read-Stale: it
  // waited READ_WAIT_MS, the machine being busy) is asked again a few times, so a page does not keep
  // showing what was there before the change the person just made.
  for (let retry = 0; method === 'GET' && retry < STALE_RETRIES && response.headers.get('X-Read-Stale') === 'true'; retry++) {
    await new Promise((resolve) => setTimeout(resolve, STALE_RETRY_MS));
    response = await send();
  }
  const position = response.headers.get('X-Event-Position');
  if (position) lastWritePosition = position;
  if (response.status === 204) return undefined as T;
  const payload = response.headers.get('Content-Type')?.includes('application/json') ? await response.json() : null;
  if (!response.ok) {
    if (response.status === 401 && !signInCall(path)) for (const listener of unauthorisedListeners) listener();
    const errors: ApiErrorItem[] = Array.isArray(payload?.errors) ? payload.errors : [{ code: String(response.status), message: '', field: null }];
    if (response.status === 403 && errors[0]?.code === '422086') for (const listener of consentsMissingListeners) listener();
    throw new ApiError(response.status, errors);
  }
  return payload as T;
};
