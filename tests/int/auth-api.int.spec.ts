import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { resolveJwtSecret } from '../../infrastructure/auth/jwt-secret.ts';
import { createJwtSessionTokens } from '../../infrastructure/auth/jwt-session-tokens.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

const errorShape = { errors: expect.arrayContaining([expect.objectContaining({ code: expect.any(String), message: expect.any(String) })]) };

describe('auth API', () => {
  let p: TestPlatform;
  let adminId: number;
  let managerId: number;
  let editorId: number;

  beforeAll(async () => {
    p = await startTestPlatform();
    adminId = await p.createUser('skrbnica', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    managerId = await p.createUser('vodjaA', [{ roleId: ROLE.manager, unitId: 3, companyId: 2 }]);
    editorId = await p.createUser('urednica', [{ roleId: ROLE.editor, unitId: 0, companyId: null }]);
  });

  afterAll(async () => p.close());

  const me = (token: string, scheme = 'JWT') => p.app.inject({ method: 'GET', url: '/api/users/me', headers: { authorization: `${scheme} ${token}` } });

  it('logs in by username in any case or by e-mail, answers {authToken} with the event position', async () => {
    for (const name of ['vodjaA', 'VODJAA', 'vodjaa@test.si', '  VodjaA@Test.si ']) {
      const response = await p.app.inject({ method: 'POST', url: '/api/auth/login', payload: { usernameOrEmail: name, password: 'Geslo1234!' } });
      expect(response.statusCode, name).toBe(200);
      expect(Object.keys(response.json())).toEqual(['authToken']);
      expect(parsePosition(String(response.headers['x-event-position']))).not.toBeNull();
    }
  });

  it('answers /users/me with userRoles, systemAbilities and the derived roles, with JWT or Bearer', async () => {
    const { token } = await p.login('vodjaA');
    for (const scheme of ['JWT', 'Bearer']) {
      const response = await me(token, scheme);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        id: managerId,
        username: 'vodjaA',
        userRoles: [{ role_id: 2, unit_id: 3, company_id: 2 }],
        systemAbilities: [],
        roles: [{ id: 2, name: 'manager', unit_id: 3, company_id: 2 }],
      });
    }
    const admin = await me((await p.login('skrbnica')).token);
    const abilities = (admin.json() as { systemAbilities: { systemPermission: number }[] }).systemAbilities.map((a) => a.systemPermission);
    expect(abilities).toContain(1008);
    expect(abilities).toContain(1066);
    const editor = await me((await p.login('urednica')).token);
    const editorAbilities = (editor.json() as { systemAbilities: { systemPermission: number }[] }).systemAbilities.map((a) => a.systemPermission);
    expect(editorAbilities).toContain(1065);
    expect(editorAbilities).not.toContain(1008);
  });

  it('refuses a wrong password and an unknown user with the same 401 that says nothing about which part was wrong', async () => {
    const wrong = await p.app.inject({ method: 'POST', url: '/api/auth/login', payload: { usernameOrEmail: 'vodjaA', password: 'napacno-geslo' } });
    const unknown = await p.app.inject({ method: 'POST', url: '/api/auth/login', payload: { usernameOrEmail: 'nihce', password: 'napacno-geslo' } });
    const noPassword = await p.createUser('brezgesla', [], null);
    expect(noPassword).toBeGreaterThan(0);
    const passwordless = await p.app.inject({ method: 'POST', url: '/api/auth/login', payload: { usernameOrEmail: 'brezgesla', password: 'karkoli12' } });
    for (const response of [wrong, unknown, passwordless]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ errors: [{ code: '401', message: 'Prijava ni uspela. Poskusite ponovno.', field: null }] });
    }
  });

  it('answers bad input with 400/413/415 in the error shape, never 5xx', async () => {
    const cases = [
      { payload: '{"usernameOrEmail": "a", ', headers: { 'content-type': 'application/json' }, status: 400 },
      { payload: { usernameOrEmail: 12, password: ['x'] }, status: 400 },
      { payload: { usernameOrEmail: 'a', password: 'b', admin: true }, status: 400 },
      { payload: { usernameOrEmail: '', password: '' }, status: 400 },
      { payload: {}, status: 400 },
      { payload: { usernameOrEmail: 'a', password: 'x'.repeat(2 * 1024 * 1024) }, status: 413 },
      { payload: 'usernameOrEmail=a', headers: { 'content-type': 'text/plain' }, status: 400 },
      { payload: '<login/>', headers: { 'content-type': 'application/xml' }, status: 415 },
      { payload: '[]', headers: { 'content-type': 'application/json' }, status: 400 },
      { payload: 'null', headers: { 'content-type': 'application/json' }, status: 400 },
    ];
    for (const c of cases) {
      const response = await p.app.inject({ method: 'POST', url: '/api/auth/login', payload: c.payload as never, headers: c.headers ?? {} });
      expect(response.statusCode, JSON.stringify(c.payload).slice(0, 80)).toBe(c.status);
      expect(response.json()).toMatchObject(errorShape);
    }
    const unknownField = await p.app.inject({ method: 'POST', url: '/api/auth/login', payload: { usernameOrEmail: 'a', password: 'b', admin: true } });
    expect(unknownField.json()).toEqual({ errors: [{ code: '400', message: 'Neznano polje', field: 'admin' }] });
    const missing = await p.app.inject({ method: 'POST', url: '/api/auth/login', payload: {} });
    expect(missing.json()).toEqual({
      errors: [
        { code: '400', message: 'Vnos je obvezen', field: 'usernameOrEmail' },
        { code: '400', message: 'Vnos je obvezen', field: 'password' },
      ],
    });
  });

  it('accepts the optional regFormId, oauthEmail and oauthPlatform of the spec, and validates them', async () => {
    const ok = await p.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { usernameOrEmail: 'vodjaA', password: 'Geslo1234!', regFormId: 4, oauthEmail: 'vodja@gmail.com', oauthPlatform: 'google' },
    });
    expect(ok.statusCode).toBe(200);
    const bad = await p.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { usernameOrEmail: 'vodjaA', password: 'Geslo1234!', oauthPlatform: 'twitter' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('oauthPlatform');
  });

  it('answers 401 for a missing, malformed, forged or expired token, and after logout', async () => {
    expect((await p.app.inject({ method: 'GET', url: '/api/users/me' })).statusCode).toBe(401);
    expect((await me('garbage')).statusCode).toBe(401);
    expect((await p.app.inject({ method: 'GET', url: '/api/users/me', headers: { authorization: 'Basic abc' } })).statusCode).toBe(401);
    const forged = createJwtSessionTokens({ secret: 'x'.repeat(48), ttlSeconds: 60 });
    expect((await me(await forged.sign({ userId: managerId, sessionId: crypto.randomUUID(), realUserId: null, position: null }))).statusCode).toBe(401);
    const expired = createJwtSessionTokens({ secret: await resolveJwtSecret(p.db.pg, undefined), ttlSeconds: -10 });
    const expiredResponse = await me(await expired.sign({ userId: managerId, sessionId: crypto.randomUUID(), realUserId: null, position: null }));
    expect(expiredResponse.statusCode).toBe(401);
    expect(expiredResponse.json()).toMatchObject(errorShape);

    const { token } = await p.login('vodjaA');
    expect((await me(token)).statusCode).toBe(200);
    const out = await p.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { authorization: `JWT ${token}` } });
    expect(out.statusCode).toBe(204);
    await p.settle(parsePosition(String(out.headers['x-event-position'])));
    expect((await me(token)).statusCode).toBe(401);
    // Logout without a session still answers 204 (the UI ignores its errors).
    expect((await p.app.inject({ method: 'POST', url: '/api/auth/logout' })).statusCode).toBe(204);
  });

  it('lets an admin log in as a user; the token and every event under it keep the admin as the real user', async () => {
    const admin = await p.login('skrbnica');
    const response = await p.app.inject({ method: 'POST', url: `/api/auth/token/${managerId}`, headers: { authorization: `JWT ${admin.token}` } });
    expect(response.statusCode).toBe(200);
    const { authToken } = response.json() as { authToken: string };
    const asManager = await me(authToken);
    expect(asManager.json()).toMatchObject({ id: managerId, username: 'vodjaA', realUser: { id: adminId } });
    expect((asManager.json() as { realUser: { fullName: string } }).realUser.fullName).not.toBe('');
    // The admin's own session says nobody else is acting.
    expect((await me(admin.token)).json()).toMatchObject({ id: adminId, realUser: null });
    const out = await p.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { authorization: `JWT ${authToken}` } });
    expect(out.statusCode).toBe(204);
    const stream = await p.store.readStream(`user-${managerId}`);
    const started = stream.events.find((e) => e.type === 'UserImpersonationStarted');
    expect(started?.data).toMatchObject({ adminId });
    expect(started?.metadata).toMatchObject({ actorId: adminId, realActorId: adminId });
    const loggedOut = stream.events.at(-1);
    expect(loggedOut?.type).toBe('UserLoggedOut');
    expect(loggedOut?.metadata).toMatchObject({ actorId: managerId, realActorId: adminId });
  });

  it('refuses log-in-as without permission 1008, into an admin account, and from a log-in-as session', async () => {
    const manager = await p.login('vodjaA');
    const denied = await p.app.inject({ method: 'POST', url: `/api/auth/token/${editorId}`, headers: { authorization: `JWT ${manager.token}` } });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject(errorShape);
    const editor = await p.login('urednica');
    expect((await p.app.inject({ method: 'POST', url: `/api/auth/token/${managerId}`, headers: { authorization: `JWT ${editor.token}` } })).statusCode).toBe(
      403,
    );
    const otherAdmin = await p.createUser('skrbnik2', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    const admin = await p.login('skrbnica');
    expect((await p.app.inject({ method: 'POST', url: `/api/auth/token/${otherAdmin}`, headers: { authorization: `JWT ${admin.token}` } })).statusCode).toBe(
      403,
    );
    const as = (await p.app.inject({ method: 'POST', url: `/api/auth/token/${editorId}`, headers: { authorization: `JWT ${admin.token}` } })).json() as {
      authToken: string;
    };
    expect(as.authToken).toBeTruthy();
    expect((await p.app.inject({ method: 'POST', url: `/api/auth/token/${managerId}`, headers: { authorization: `JWT ${as.authToken}` } })).statusCode).toBe(
      403,
    );
    expect((await p.app.inject({ method: 'POST', url: '/api/auth/token/999999', headers: { authorization: `JWT ${admin.token}` } })).statusCode).toBe(404);
    expect((await p.app.inject({ method: 'POST', url: '/api/auth/token/abc', headers: { authorization: `JWT ${admin.token}` } })).statusCode).toBe(400);
  });

  it('exchanges a one-time login token exactly once, also when two exchanges race', async () => {
    const admin = await p.login('skrbnica');
    const issue = async () => {
      const response = await p.app.inject({ method: 'POST', url: `/api/users/${managerId}/login-tokens`, headers: { authorization: `JWT ${admin.token}` } });
      expect(response.statusCode).toBe(201);
      return (response.json() as { token: string }).token;
    };
    const token = await issue();
    const first = await p.app.inject({ method: 'POST', url: '/api/auth/token', payload: { token } });
    expect(first.statusCode).toBe(200);
    expect((await me((first.json() as { authToken: string }).authToken)).json()).toMatchObject({ id: managerId });
    const again = await p.app.inject({ method: 'POST', url: '/api/auth/token', payload: { token } });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ errors: [{ code: '401', message: 'Žeton je neveljaven ali je potekel.', field: null }] });

    const raced = await issue();
    const results = await Promise.all(Array.from({ length: 8 }, () => p.app.inject({ method: 'POST', url: '/api/auth/token', payload: { token: raced } })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401, 401, 401, 401, 401, 401, 401]);

    for (const bad of ['', 'abc', `${managerId}.short`, `${managerId}.${'A'.repeat(43)}`]) {
      const response = await p.app.inject({ method: 'POST', url: '/api/auth/token', payload: { token: bad } });
      expect(response.statusCode, bad).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
    }
    const manager = await p.login('vodjaA');
    expect(
      (await p.app.inject({ method: 'POST', url: `/api/users/${editorId}/login-tokens`, headers: { authorization: `JWT ${manager.token}` } })).statusCode,
    ).toBe(403);
  });

  it('refuses an expired one-time login token', async () => {
    const short = await startTestPlatform({ LOGIN_TOKEN_TTL_SECONDS: '1' });
    try {
      await short.createUser('kratki', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
      const target = await short.createUser('cilj');
      const admin = await short.login('kratki');
      const issued = await short.app.inject({ method: 'POST', url: `/api/users/${target}/login-tokens`, headers: { authorization: `JWT ${admin.token}` } });
      const { token } = issued.json() as { token: string };
      await new Promise((r) => setTimeout(r, 1200));
      expect((await short.app.inject({ method: 'POST', url: '/api/auth/token', payload: { token } })).statusCode).toBe(401);
    } finally {
      await short.close();
    }
  });

  it('limits login attempts per client and account', async () => {
    const limited = await startTestPlatform({ AUTH_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const attempt = () => limited.app.inject({ method: 'POST', url: '/api/auth/login', payload: { usernameOrEmail: 'nekdo', password: 'napacno12' } });
      for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(401);
      const blocked = await attempt();
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toMatchObject(errorShape);
    } finally {
      await limited.close();
    }
  });
});
