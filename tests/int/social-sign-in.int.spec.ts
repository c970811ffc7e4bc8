import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { signInAtProvider, startOidcProvider } from '../support/oidc-browser.ts';
import { startTestPlatform, TEST_PASSWORD, type TestPlatform } from '../support/test-platform.ts';

const PUBLIC_URL = 'https://medilearn.test';
const CALLBACK = `${PUBLIC_URL}/api/auth/social/google/callback`;

/**
 * Social sign-in (issue 13) against a real OpenID provider (oidc-provider) started here, standing in
 * for Google; Facebook is not configured. Every leg: start, the provider's pages, the callback, the
 * UI path it sends the browser to, and GET /api/redirect/{id}.
 */
describe('social sign-in through an OpenID provider', () => {
  let p: TestPlatform;
  let oidc: Awaited<ReturnType<typeof startOidcProvider>>;
  let profession: number;

  const inject = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options: { token?: string; cookie?: string; payload?: object } = {}) => {
    const response = await p.app.inject({
      method,
      url,
      headers: { ...(options.token ? { authorization: `JWT ${options.token}` } : {}), ...(options.cookie ? { cookie: options.cookie } : {}) },
      ...(options.payload ? { payload: options.payload } : {}),
    });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(parsePosition(position));
    return response;
  };
  const cookieOf = (response: { headers: Record<string, unknown> }) => String(response.headers['set-cookie'] ?? '').split(';')[0] as string;

  /** Start (or a bind URL), the provider as `login`, then the callback: the UI path the browser is sent to. */
  const signIn = async (login: string, start: { url: string; cookie: string } | null = null) => {
    const started: { url: string; cookie: string } =
      start ??
      (await inject('GET', '/api/auth/social/google/start?redirect=/izobrazevanja&courseId=7').then((r) => ({
        url: String(r.headers.location),
        cookie: cookieOf(r),
      })));
    const back = await signInAtProvider(started.url, login, CALLBACK);
    const callback = await inject('GET', `${back.pathname}${back.search}`, { cookie: started.cookie });
    expect(callback.statusCode).toBe(302);
    return new URL(String(callback.headers.location), PUBLIC_URL);
  };

  beforeAll(async () => {
    const clientSecret = 'skrivnost-odjemalca-za-preizkus';
    oidc = await startOidcProvider([{ clientId: 'medilearn-google', clientSecret, redirectUris: [CALLBACK] }]);
    p = await startTestPlatform({
      PUBLIC_URL,
      GOOGLE_OIDC_ISSUER: oidc.issuer,
      GOOGLE_OIDC_CLIENT_ID: 'medilearn-google',
      GOOGLE_OIDC_CLIENT_SECRET: clientSecret,
    });
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    const admin = (await p.login('skrbnik')).token;
    profession = ((await inject('POST', '/api/professions', { token: admin, payload: { name: 'Farmacevtski tehnik' } })).json() as { id: number }).id;
  }, 60_000);

  afterAll(async () => {
    await p?.close();
    await oidc?.close();
  });

  it('lists which providers are there, and sends a Facebook sign-in back with the §8 "unavailable" case', async () => {
    expect((await inject('GET', '/api/auth/social')).json()).toEqual({
      providers: [
        { platform: 'google', available: true },
        { platform: 'facebook', available: false },
      ],
    });
    const facebook = await inject('GET', '/api/auth/social/facebook/start');
    expect(facebook.headers.location).toBe('/prijava?napaka=facebook');
  });

  it('sends an unknown identity to registration with the vouched e-mail filled in; registering binds it and signs in', async () => {
    const landed = await signIn('petra@gmail.com');
    expect(landed.pathname).toBe('/registracija');
    expect(landed.searchParams.get('oauthEmail')).toBe('petra@gmail.com');
    expect(landed.searchParams.get('oauthPlatform')).toBe('google');
    const registered = await inject('POST', '/api/auth/register', {
      payload: {
        username: 'petra',
        email: 'petra@gmail.com',
        password: 'Geslo1234!',
        passwordConfirmation: 'Geslo1234!',
        firstName: 'Petra',
        middleName: 'Marija',
        lastName: 'Zupan',
        phone: '031 222 333',
        professionId: profession,
        consents: [1, 2, 3, 4],
        socialToken: landed.searchParams.get('socialToken'),
      },
    });
    expect(registered.statusCode).toBe(201);
    // The provider vouched for the address: no confirmation mail is needed, the account signs in at once.
    const token = (registered.json() as { authToken: string }).authToken;
    expect((await inject('GET', '/api/users/me', { token })).json()).toMatchObject({ socialIdentities: [{ platform: 'google', email: 'petra@gmail.com' }] });
  });

  it('signs a bound identity in through /redirect/{id} with a one-time code', async () => {
    const landed = await signIn('petra@gmail.com');
    expect(landed.pathname).toBe('/redirect/7');
    expect(landed.searchParams.get('provider')).toBe('google');
    const code = landed.searchParams.get('user') as string;
    const exchanged = await inject('GET', `/api/redirect/7?provider=google&user=${encodeURIComponent(code)}`);
    expect(exchanged.statusCode).toBe(200);
    const { data } = exchanged.json() as { data: { authToken: string } };
    expect((await inject('GET', '/api/users/me', { token: data.authToken })).json()).toMatchObject({ username: 'petra' });
    expect((await inject('GET', `/api/redirect/7?provider=google&user=${encodeURIComponent(code)}`)).statusCode).toBe(401);
    expect((await inject('GET', '/api/redirect/7?provider=google&user=ponarejeno')).statusCode).toBe(401);
  });

  it('sends an identity without an e-mail to /registracija/bind-email', async () => {
    const landed = await signIn('petra-brez-naslova');
    expect(landed.pathname).toBe('/registracija/bind-email');
    expect(landed.searchParams.get('socialToken')).toBeTruthy();
  });

  it('sends an identity whose e-mail has an account to log in with the password, which binds it', async () => {
    await p.createUser('marko');
    const landed = await signIn('marko@test.si');
    expect(landed.pathname).toBe('/prijava');
    expect(landed.searchParams.get('oauthEmail')).toBe('marko@test.si');
    expect(landed.searchParams.get('oauthPlatform')).toBe('google');
    const login = await inject('POST', '/api/auth/login', {
      payload: {
        usernameOrEmail: 'marko@test.si',
        password: TEST_PASSWORD,
        oauthEmail: 'marko@test.si',
        oauthPlatform: 'google',
        oauthToken: landed.searchParams.get('oauthToken'),
      },
    });
    expect(login.statusCode).toBe(200);
    expect((await signIn('marko@test.si')).pathname).toBe('/redirect/7');
  });

  it('binds from the profile, refuses an account bound to someone else, and unbinds', async () => {
    await p.createUser('nina');
    const token = (await p.login('nina')).token;
    const start = await inject('POST', '/api/users/me/social/google/bind', { token });
    const bound = await signIn('nina.zasebno@gmail.com', { url: (start.json() as { url: string }).url, cookie: cookieOf(start) });
    expect(bound.pathname + bound.search).toBe('/profil?povezano=google');
    expect((await inject('GET', '/api/users/me', { token })).json()).toMatchObject({
      socialIdentities: [{ platform: 'google', email: 'nina.zasebno@gmail.com' }],
    });
    const again = await inject('POST', '/api/users/me/social/google/bind', { token });
    const taken = await signIn('petra@gmail.com', { url: (again.json() as { url: string }).url, cookie: cookieOf(again) });
    expect(taken.pathname + taken.search).toBe('/profil?napaka=povezava');
    expect((await inject('DELETE', '/api/users/me/social/google', { token })).statusCode).toBe(200);
    expect((await inject('GET', '/api/users/me', { token })).json()).toMatchObject({ socialIdentities: [] });
    expect((await signIn('nina.zasebno@gmail.com')).pathname).toBe('/registracija');
  });

  it('asks a bound identity with the second factor on for the mailed code', async () => {
    const petra = (await p.login('petra', 'Geslo1234!')).token;
    await inject('PUT', '/api/users/me/second-factor', { token: petra, payload: { enabled: true, password: 'Geslo1234!' } });
    const landed = await signIn('petra@gmail.com');
    expect(landed.pathname).toBe('/prijava/2fa');
    expect(landed.searchParams.get('auth2FAToken')).toBeTruthy();
    expect(landed.searchParams.get('oauthPlatform')).toBe('google');
  });

  it('refuses a callback that was not started here (no state cookie)', async () => {
    const start = await inject('GET', '/api/auth/social/google/start');
    const back = await signInAtProvider(String(start.headers.location), 'tuja@gmail.com', CALLBACK);
    const callback = await inject('GET', `${back.pathname}${back.search}`);
    expect(callback.headers.location).toBe('/prijava?napaka=social');
  });
});
