import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { startSmtpSink, tokenIn } from '../support/smtp-sink.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

/**
 * Issue 13 item 8: no token, code or password ever reaches a log line, at any level, whatever path
 * it travels (a body, a mail link, a query string, a header, a cookie). Every line the process
 * writes is captured while a person registers, confirms from the mail, resets the password, signs in
 * with a second factor, exchanges a one-time login link from a query string and opens a stored file
 * with the media cookie; then each secret is looked for in every line.
 */
describe('logs hold no secrets', () => {
  const lines: string[] = [];
  let p: TestPlatform;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  const secrets: string[] = [];

  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers: Record<string, string> = {}) => {
    const response = await p.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(parsePosition(position));
    return response;
  };
  const keep = (secret: string) => {
    secrets.push(secret);
    return secret;
  };

  beforeAll(async () => {
    smtp = await startSmtpSink();
    p = await startTestPlatform({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://medilearn.test', LOG_LEVEL: 'trace' }, { jobs: true, logLines: lines });
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
  }, 120_000);

  afterAll(async () => {
    await p?.close();
    await smtp?.close();
  });

  it('writes log lines, none of which holds a password, a token, a link, a code or a session', async () => {
    const admin = keep((await p.login('skrbnik')).token);
    const profession = ((await call('POST', '/api/professions', { name: 'Magister farmacije' }, { authorization: `JWT ${admin}` })).json() as { id: number })
      .id;
    const password = keep('Skrivno1234!');
    const registered = await call('POST', '/api/auth/register', {
      username: 'mojca',
      email: 'mojca@lekarna.si',
      password,
      passwordConfirmation: password,
      firstName: 'Mojca',
      middleName: 'Ana',
      lastName: 'Kranjc',
      phone: '041 555 666',
      professionId: profession,
      consents: [1, 2, 3, 4],
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const confirmLink = keep(tokenIn(await smtp.waitFor('mojca@lekarna.si', /Potrdite svoj e-naslov/)));
    const session = keep(((await call('POST', '/api/auth/register/confirm', { token: confirmLink })).json() as { authToken: string }).authToken);

    await call('POST', '/api/auth/password-reset', { email: 'mojca@lekarna.si' });
    const resetLink = keep(tokenIn(await smtp.waitFor('mojca@lekarna.si', /Ponastavitev gesla/)));
    const newPassword = keep('Novejse5678!');
    expect(
      (await call('POST', '/api/auth/password-reset/complete', { token: resetLink, password: newPassword, passwordConfirmation: newPassword })).statusCode,
    ).toBe(200);

    const signedIn = keep(
      ((await call('POST', '/api/auth/login', { usernameOrEmail: 'mojca', password: newPassword })).json() as { authToken: string }).authToken,
    );
    expect((await call('PUT', '/api/users/me/second-factor', { enabled: true, password: newPassword }, { authorization: `JWT ${signedIn}` })).statusCode).toBe(
      200,
    );
    const first = (await call('POST', '/api/auth/login', { usernameOrEmail: 'mojca', password: newPassword })).json() as {
      secondFactorAuth: { authToken: string };
    };
    const auth2FAToken = keep(first.secondFactorAuth.authToken);
    const code = keep(/(\d{6})/.exec((await smtp.waitFor('mojca@lekarna.si', /Koda za prijavo/)).subject)?.[1] as string);
    const twoFactor = await call('POST', '/api/auth/2fa', { auth2FAToken, code, rememberMe: true });
    keep((twoFactor.json() as { authToken: string }).authToken);
    const device = String(twoFactor.headers['set-cookie']).split(';')[0]?.split('=')[1] as string;
    keep(device);

    // A one-time login link an admin issues, exchanged as the UI does from a ?token= query string, and a file by cookie.
    const users = (await call('GET', '/api/users?search=mojca', undefined, { authorization: `JWT ${admin}` })).json() as { items: { id: number }[] };
    const loginToken = keep(
      ((await call('POST', `/api/users/${users.items[0]?.id}/login-tokens`, undefined, { authorization: `JWT ${admin}` })).json() as { token: string }).token,
    );
    await call('GET', `/api/users/me?token=${encodeURIComponent(loginToken)}`);
    expect((await call('POST', '/api/auth/token', { token: loginToken })).statusCode).toBe(200);
    await call('GET', '/api/files/1', undefined, { cookie: `medilearn_media=${session}` });
    await call('GET', '/api/users/me', undefined, { authorization: `JWT not-a-real-${'x'.repeat(20)}` });

    // Let the mail jobs finish logging.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.some((line) => line.includes('/api/auth/password-reset/complete'))).toBe(true);
    const leaks = secrets
      .filter((secret) => secret.length >= 6)
      .flatMap((secret) => lines.filter((line) => line.includes(secret)).map((line) => `${secret.slice(0, 8)}… in ${line.slice(0, 300)}`));
    expect(leaks).toEqual([]);
  });
});
