import { describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../features/users/api/me.ts';
import { createGuard, type GuardDeps } from './guards.ts';

const someone = { id: 5, fullName: 'Ana' } as CurrentUser;

const deps = (overrides: Partial<GuardDeps> = {}, token: string | null = null) => {
  let jwt = token;
  const calls: string[] = [];
  const base: GuardDeps = {
    token: () => jwt,
    setToken: (t) => {
      calls.push(`setToken ${t}`);
      jwt = t;
    },
    keepRealToken: (t) => calls.push(`keepReal ${t}`),
    clearSession: () => {
      calls.push('clearSession');
      jwt = null;
    },
    exchangeLoginToken: async (t) => {
      calls.push(`exchange ${t}`);
      jwt = 'from-exchange';
      return jwt;
    },
    tokenSignsIn: async (t) => t !== 'bad',
    providerLogin: async (id) => {
      calls.push(`provider ${id}`);
      jwt = 'from-provider';
      return jwt;
    },
    loadUser: async () => {
      calls.push('loadUser');
      return someone;
    },
    missingConsentsRedirect: () => null,
    missingProfessionNumber: () => null,
    toast: (key) => calls.push(`toast ${key}`),
    logError: (message) => calls.push(`log ${message}`),
  };
  return { deps: { ...base, ...overrides }, calls };
};

/** Runs the guard for a URL: the redirect target, or null when the page may render. */
const run = async (d: GuardDeps, path: string) => {
  try {
    await createGuard(d)({ request: new Request(`http://localhost${path}`) });
    return null;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.headers.get('Location');
    throw thrown;
  }
};

describe('navigation guards (spec §2)', () => {
  it('sends a visitor without a jwt to login with the full original path, keeping messenger_id', async () => {
    const { deps: d } = deps();
    expect(await run(d, '/admin/users?page=2')).toBe('/prijava?redirect=%2Fadmin%2Fusers%3Fpage%3D2');
    expect(await run(d, '/izobrazevanja/4?messenger_id=77')).toBe('/prijava?redirect=%2Fizobrazevanja%2F4%3Fmessenger_id%3D77&messenger_id=77');
  });

  it('lets the public pages through without a jwt', async () => {
    const { deps: d } = deps();
    for (const path of [
      '/prijava',
      '/prijava/2fa',
      '/anketa/3',
      '/certifikat/ML-2026-7KQ4X-9M2PD',
      '/glp',
      '/geslo',
      '/geslo/complete',
      '/registracija',
      '/registracija/bind-email',
      '/registracija/complete',
      '/nov-uporabnik',
    ]) {
      expect(await run(d, path), path).toBeNull();
    }
  });

  it('exchanges a token query parameter and strips it', async () => {
    const { deps: d, calls } = deps();
    expect(await run(d, '/izobrazevanja?token=abc&x=1')).toBe('/izobrazevanja?x=1');
    expect(calls).toEqual(['exchange abc']);
  });

  it('strips a token that fails and sends the user to login', async () => {
    const { deps: d, calls } = deps({ exchangeLoginToken: () => Promise.reject(new Error('401')) }, 'old');
    expect(await run(d, '/izobrazevanja/5?token=bad')).toBe('/prijava?redirect=%2Fizobrazevanja%2F5');
    expect(calls).toContain('clearSession');
  });

  it('login-as stores the id as jwt, loads the user and goes to courses; a failure is logged and still goes there', async () => {
    const ok = deps();
    expect(await run(ok.deps, '/login-as?id=tok123')).toBe('/izobrazevanja');
    expect(ok.calls).toEqual(['setToken tok123', 'loadUser']);
    const failing = deps({ loadUser: () => Promise.reject(new Error('nope')) });
    expect(await run(failing.deps, '/login-as?id=tok456')).toBe('/izobrazevanja');
    expect(failing.calls).toContain('log Prijava z uporabnikom je bila neuspešna.');
  });

  it('login-as with a token that does not sign in keeps the admin signed in as themselves, says so, and still goes to courses', async () => {
    const { deps: d, calls } = deps({}, 'admin-jwt');
    expect(await run(d, '/login-as?id=bad')).toBe('/izobrazevanja');
    expect(calls).toContain('log Prijava z uporabnikom je bila neuspešna.');
    expect(calls).toContain('toast people.loginAsFailed');
    expect(calls.some((c) => c.startsWith('setToken') || c.startsWith('keepReal') || c === 'clearSession')).toBe(false);
  });

  it('provider redirect opens course {id} on success and the course list on failure', async () => {
    const ok = deps();
    expect(await run(ok.deps, '/redirect/42?provider=google&user=7')).toBe('/izobrazevanja/42');
    expect(ok.calls).toEqual(['provider 42', 'loadUser']);
    const failing = deps({ providerLogin: () => Promise.reject(new Error('404')) });
    expect(await run(failing.deps, '/redirect/42')).toBe('/izobrazevanja');
  });

  it('runs in the spec order: login-as before the authentication check', async () => {
    // Without a jwt, /login-as must not be sent to login: user-log-as comes first.
    const { deps: d } = deps();
    expect(await run(d, '/login-as?id=x')).toBe('/izobrazevanja');
  });

  it('sends a signed-in user away from the login page to its redirect target', async () => {
    const { deps: d } = deps({}, 'jwt');
    expect(await run(d, '/prijava?redirect=%2Fprofil')).toBe('/profil');
    expect(await run(d, '/prijava?redirect=https%3A%2F%2Fevil.example')).toBe('/');
  });

  it('calls the consents hook with the user and follows it', async () => {
    const hook = vi.fn(() => '/pogoji?redirect=%2Fprofil');
    const { deps: d } = deps({ missingConsentsRedirect: hook }, 'jwt');
    expect(await run(d, '/profil')).toBe('/pogoji?redirect=%2Fprofil');
    expect(hook).toHaveBeenCalledWith(someone, '/profil');
    expect(await run(d, '/pogoji')).toBeNull();
  });

  it('login-as from a signed-in admin keeps the admin’s jwt, so leaving returns to the admin', async () => {
    const { deps: d, calls } = deps({}, 'admin-jwt');
    expect(await run(d, '/login-as?id=user-jwt')).toBe('/izobrazevanja');
    expect(calls.slice(0, 2)).toEqual(['keepReal admin-jwt', 'setToken user-jwt']);
  });

  it('sends a user lacking the licence or chamber number of their profession to the profile, with the spec toast', async () => {
    const { deps: d, calls } = deps({ missingProfessionNumber: () => 'user.licenceNumber.warning' }, 'jwt');
    expect(await run(d, '/izobrazevanja')).toBe('/profil');
    expect(calls).toContain('toast user.licenceNumber.warning');
    // The profile and its neighbours stay open, or the user could never fill the number in.
    for (const path of ['/profil', '/profil/pogoji', '/sprememba-e-naslova', '/pogoji']) expect(await run(d, path), path).toBeNull();
    const { deps: complete } = deps({}, 'jwt');
    expect(await run(complete, '/izobrazevanja')).toBeNull();
  });
});
