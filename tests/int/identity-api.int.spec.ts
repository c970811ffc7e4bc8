import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { startSmtpSink, tokenIn } from '../support/smtp-sink.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

type Sink = Awaited<ReturnType<typeof startSmtpSink>>;
type Answer = { statusCode: number; json(): unknown; headers: Record<string, unknown> };

/**
 * The identity side (issue 13) over the API, with mail sent by pg-boss jobs through a real SMTP
 * server started here and read back with mailparser: registration and its confirmation, password
 * reset, e-mail change, the second factor, the secondary e-mail, the push preference.
 */
describe('identity API with mail delivered over SMTP', () => {
  let p: TestPlatform;
  let smtp: Sink;
  let professions: { pharmacist: number; specialist: number };

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, token?: string, headers: Record<string, string> = {}) => {
    const response = await p.app.inject({
      method,
      url,
      headers: { ...(token ? { authorization: `JWT ${token}` } : {}), ...headers },
      ...(payload ? { payload } : {}),
    });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(parsePosition(position));
    return response;
  };
  const errors = (response: Answer) => (response.json() as { errors: { code: string; field: string | null; message: string }[] }).errors;

  const registration = (changes: object = {}) => ({
    username: 'mojca',
    email: 'mojca@lekarna.si',
    password: 'Geslo1234!',
    passwordConfirmation: 'Geslo1234!',
    firstName: 'Mojca',
    middleName: 'Ana',
    lastName: 'Kranjc',
    phone: '041 555 666',
    professionId: professions.pharmacist,
    licenceNumber: '12345',
    consents: [1, 2, 3, 4],
    ...changes,
  });

  beforeAll(async () => {
    smtp = await startSmtpSink();
    p = await startTestPlatform({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://medilearn.test' }, { jobs: true });
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    const admin = (await p.login('skrbnik')).token;
    const create = async (body: object) => ((await call('POST', '/api/professions', body, admin)).json() as { id: number }).id;
    professions = {
      pharmacist: await create({ name: 'Magister farmacije', needsLicenceNumber: true }),
      specialist: await create({ name: 'Specialist družinske medicine', needsLicenceNumber: true, needsChamberNumber: true }),
    };
  }, 120_000);

  afterAll(async () => {
    await p?.close();
    await smtp?.close();
  });

  it('validates registration as spec §5 says, with the §8 codes, and registers nobody on bad input', async () => {
    const bad = await call(
      'POST',
      '/api/auth/register',
      registration({ email: 'ni-naslov', username: 'ne-sme', password: 'kratko', passwordConfirmation: 'drugo' }),
    );
    expect(bad.statusCode).toBe(400);
    expect(errors(bad)).toEqual(
      expect.arrayContaining([
        { code: '422004', field: 'email', message: 'Vnesite veljaven e-naslov' },
        { code: '422014', field: 'username', message: 'Uporabniško ime lahko vsebuje le črke in številke' },
        { code: '422007', field: 'password', message: 'Geslo je prekratko (zahtevano je najmanj 8 znakov)' },
      ]),
    );
    expect(errors(await call('POST', '/api/auth/register', registration({ passwordConfirmation: 'Geslo1234?' })))).toEqual([
      { code: '422007', field: 'passwordConfirmation', message: 'Gesli se ne ujemata' },
    ]);
    expect(errors(await call('POST', '/api/auth/register', registration({ password: 'x'.repeat(25), passwordConfirmation: 'x'.repeat(25) })))[0]?.message).toBe(
      'Geslo je predolgo (zahtevano je največ 24 znakov)',
    );
    expect(errors(await call('POST', '/api/auth/register', registration({ consents: [1, 2, 3] })))[0]).toMatchObject({
      field: 'consents',
      message: 'Za registracijo potrebujemo vse obvezne privolitve.',
    });
    expect(
      errors(await call('POST', '/api/auth/register', registration({ middleName: '', phone: '' })))
        .map((e) => e.field)
        .sort(),
    ).toEqual(['middleName', 'phone']);
    expect(errors(await call('POST', '/api/auth/register', registration({ licenceNumber: null })))).toEqual([
      { code: '400', field: 'licenceNumber', message: 'Za izbrani poklic je številka licence obvezna.' },
    ]);
    expect(errors(await call('POST', '/api/auth/register', registration({ professionId: professions.specialist })))).toEqual([
      { code: '400', field: 'chamberMembershipNumber', message: 'Za izbrani poklic je številka članstva v zbornici obvezna.' },
    ]);
    expect(await p.store.readStream('username-mojca')).toMatchObject({ events: [] });
  });

  it('registers, mails a confirmation link, refuses the login until it is followed, then signs in from the link once', async () => {
    const registered = await call('POST', '/api/auth/register', registration());
    expect(registered.statusCode).toBe(201);
    expect((registered.json() as { message: string }).message).toContain('potrditev');
    // Taken username and e-mail: the §8 codes.
    expect(errors(await call('POST', '/api/auth/register', registration({ email: 'druga@lekarna.si' })))[0]?.code).toBe('422013');
    expect(errors(await call('POST', '/api/auth/register', registration({ username: 'drugamojca' })))[0]?.code).toBe('422005');

    const mail = await smtp.waitFor('mojca@lekarna.si', /Potrdite svoj e-naslov/);
    expect(mail.text).toContain('Pozdravljeni, Mojca!');
    expect(mail.text).toMatch(/https:\/\/medilearn\.test\/registracija\/complete\?link=/);
    expect(mail.html).toContain('<a href="https://medilearn.test/registracija/complete?link=');
    expect(mail.parsed.headers.get('content-language')).toBe('sl');

    // Not confirmed: refused exactly like a wrong password.
    const early = await call('POST', '/api/auth/login', { usernameOrEmail: 'mojca', password: 'Geslo1234!' });
    expect(early.statusCode).toBe(401);
    expect(errors(early)[0]?.message).toBe('Prijava ni uspela. Poskusite ponovno.');

    const confirmed = await call('POST', '/api/auth/register/confirm', { token: tokenIn(mail) });
    expect(confirmed.statusCode).toBe(200);
    const token = (confirmed.json() as { authToken: string }).authToken;
    const me = (await call('GET', '/api/users/me', undefined, token)).json() as {
      username: string;
      middleName: string;
      licenceNumber: string;
      missingConsents: number[];
    };
    expect(me).toMatchObject({ username: 'mojca', middleName: 'Ana', licenceNumber: '12345', missingConsents: [] });
    const again = await call('POST', '/api/auth/register/confirm', { token: tokenIn(mail) });
    expect(errors(again)).toEqual([{ code: '401', field: 'token', message: 'Povezava je neveljavna ali je potekla.' }]);
    expect((await call('POST', '/api/auth/login', { usernameOrEmail: 'MOJCA@lekarna.si', password: 'Geslo1234!' })).statusCode).toBe(200);
  });

  it('resets a forgotten password by a link used once; the same answer for an unknown address; the old sessions end', async () => {
    const before = (await call('POST', '/api/auth/login', { usernameOrEmail: 'mojca', password: 'Geslo1234!' })).json() as { authToken: string };
    const unknown = await call('POST', '/api/auth/password-reset', { email: 'nihce@lekarna.si' });
    const known = await call('POST', '/api/auth/password-reset', { email: 'mojca@lekarna.si' });
    expect([unknown.statusCode, known.statusCode]).toEqual([202, 202]);
    expect(unknown.json()).toEqual(known.json());
    const mail = await smtp.waitFor('mojca@lekarna.si', /Ponastavitev gesla/);
    expect(mail.text).toContain('https://medilearn.test/geslo/complete?link=');
    const token = tokenIn(mail);
    expect(errors(await call('POST', '/api/auth/password-reset/complete', { token, password: 'NovoGeslo1', passwordConfirmation: 'Drugo' }))[0]?.message).toBe(
      'Gesli se ne ujemata',
    );
    const done = await call('POST', '/api/auth/password-reset/complete', { token, password: 'NovoGeslo1', passwordConfirmation: 'NovoGeslo1' });
    expect(done.statusCode).toBe(200);
    expect((await call('GET', '/api/users/me', undefined, before.authToken)).statusCode).toBe(401);
    expect((await call('POST', '/api/auth/login', { usernameOrEmail: 'mojca', password: 'Geslo1234!' })).statusCode).toBe(401);
    expect((await call('POST', '/api/auth/login', { usernameOrEmail: 'mojca', password: 'NovoGeslo1' })).statusCode).toBe(200);
    expect(
      errors(await call('POST', '/api/auth/password-reset/complete', { token, password: 'Tretje123', passwordConfirmation: 'Tretje123' }))[0]?.message,
    ).toBe('Povezava je neveljavna ali je potekla.');
    expect(smtp.received.filter((m) => m.to.includes('nihce'))).toEqual([]);
  });

  it('changes the e-mail after the password, confirmed from the new address; the old one is told; a taken one is refused', async () => {
    const token = ((await call('POST', '/api/auth/login', { usernameOrEmail: 'mojca', password: 'NovoGeslo1' })).json() as { authToken: string }).authToken;
    expect(errors(await call('POST', '/api/users/me/email-change', { email: 'nova@lekarna.si', password: 'napacno1' }, token))[0]).toMatchObject({
      field: 'password',
    });
    expect(errors(await call('POST', '/api/users/me/email-change', { email: 'skrbnik@test.si', password: 'NovoGeslo1' }, token))[0]?.code).toBe('422005');
    expect(errors(await call('POST', '/api/users/me/email-change', { email: 'ni-naslov', password: 'NovoGeslo1' }, token))[0]).toMatchObject({
      code: '422004',
      field: 'email',
    });
    expect((await call('POST', '/api/users/me/email-change', { email: 'nova@lekarna.si', password: 'NovoGeslo1' }, token)).statusCode).toBe(202);
    const notice = await smtp.waitFor('mojca@lekarna.si', /Zahteva za spremembo e-naslova/);
    expect(notice.text).toContain('nova@lekarna.si');
    const confirm = await smtp.waitFor('nova@lekarna.si', /Potrdite nov e-naslov/);
    const changed = await call('POST', '/api/auth/email-change/confirm', { token: tokenIn(confirm) });
    expect(changed.json()).toEqual({ email: 'nova@lekarna.si' });
    expect((await call('GET', '/api/users/me', undefined, token)).json()).toMatchObject({ email: 'nova@lekarna.si' });
    expect((await call('POST', '/api/auth/login', { usernameOrEmail: 'nova@lekarna.si', password: 'NovoGeslo1' })).statusCode).toBe(200);
    expect((await call('POST', '/api/auth/login', { usernameOrEmail: 'mojca@lekarna.si', password: 'NovoGeslo1' })).statusCode).toBe(401);
    // The old address is free again.
    expect((await call('POST', '/api/auth/register', registration({ username: 'mojcina', email: 'mojca@lekarna.si' }))).statusCode).toBe(201);
  });

  it('asks for a mailed code at login with the second factor on; a wrong code is refused; "remember me" trusts the device', async () => {
    const token = ((await call('POST', '/api/auth/login', { usernameOrEmail: 'mojca', password: 'NovoGeslo1' })).json() as { authToken: string }).authToken;
    expect((await call('PUT', '/api/users/me/second-factor', { enabled: true, password: 'napacno1' }, token)).statusCode).toBe(400);
    expect((await call('PUT', '/api/users/me/second-factor', { enabled: true, password: 'NovoGeslo1' }, token)).json()).toEqual({ enabled: true });

    const first = (await call('POST', '/api/auth/login', { usernameOrEmail: 'mojca', password: 'NovoGeslo1' })).json() as {
      secondFactorAuth: { authToken: string };
    };
    const auth2FAToken = first.secondFactorAuth.authToken;
    const mail = await smtp.waitFor('nova@lekarna.si', /Koda za prijavo/);
    const code = /(\d{6})/.exec(mail.subject)?.[1] as string;
    const wrong = await call('POST', '/api/auth/2fa', { auth2FAToken, code: code === '000000' ? '111111' : '000000' });
    expect(errors(wrong)).toEqual([{ code: '401', field: 'code', message: 'Potrditev ni uspela. Poskusite ponovno.' }]);
    const right = await call('POST', '/api/auth/2fa', { auth2FAToken, code, rememberMe: true });
    expect(right.statusCode).toBe(200);
    const cookie = String(right.headers['set-cookie']);
    expect(cookie).toMatch(/medilearn_device=[\w-]+; Path=\/api\/auth; Max-Age=\d+; HttpOnly; SameSite=Strict/);
    // The same code does not open a second session.
    expect((await call('POST', '/api/auth/2fa', { auth2FAToken, code })).statusCode).toBe(401);
    // With the trusted device's cookie, the password alone signs in.
    const trusted = await call('POST', '/api/auth/login', { usernameOrEmail: 'mojca', password: 'NovoGeslo1' }, undefined, {
      cookie: cookie.split(';')[0] as string,
    });
    expect(trusted.json()).toEqual({ authToken: expect.any(String) });
    // Without it, a code again; resend sends a new one.
    const again = (await call('POST', '/api/auth/login', { usernameOrEmail: 'mojca', password: 'NovoGeslo1' })).json() as {
      secondFactorAuth: { authToken: string };
    };
    const resent = await call('POST', '/api/auth/2fa/resend', { auth2FAToken: again.secondFactorAuth.authToken });
    expect(resent.json()).toEqual({ auth2FAToken: expect.any(String) });
    await expect.poll(() => smtp.received.filter((m) => /Koda za prijavo/.test(m.subject)).length, { timeout: 15_000 }).toBe(3);
  });

  it('keeps a secondary e-mail that is nobody else’s (422016 otherwise) and the push preference', async () => {
    await p.createUser('tina');
    const token = { authToken: (await p.login('tina')).token };
    const profile = { firstName: 'Mojca', lastName: 'Kranjc', phone: '041 555 666', professionId: professions.pharmacist, licenceNumber: '12345' };
    expect(errors(await call('PUT', '/api/users/me', { ...profile, secondaryEmail: 'nova@lekarna.si' }, token.authToken))).toEqual([
      { code: '422016', field: 'secondaryEmail', message: 'Ta e-naslov že uporablja drug račun.' },
    ]);
    expect((await call('PUT', '/api/users/me', { ...profile, secondaryEmail: 'zasebno@mail.si' }, token.authToken)).statusCode).toBe(200);
    expect((await call('POST', '/api/users/onesignal', { onesignalEnabled: 1 }, token.authToken)).json()).toEqual({ onesignalEnabled: 1 });
    expect((await call('GET', '/api/users/me', undefined, token.authToken)).json()).toMatchObject({
      secondaryEmail: 'zasebno@mail.si',
      onesignalEnabled: 1,
      rating: null,
    });
  });

  it('records a failing relay and tries again until the mail goes', async () => {
    smtp.refuse(true);
    await call('POST', '/api/auth/password-reset', { email: 'nova@lekarna.si' });
    await expect
      .poll(async () => (await p.db.pg.query("select count(*)::int as n from es.events where event_type = 'MailFailed'")).rows[0].n, { timeout: 20_000 })
      .toBeGreaterThan(0);
    smtp.refuse(false);
    const arrived = await smtp.waitFor('nova@lekarna.si', /Ponastavitev gesla/, 60_000);
    expect(arrived.subject).toBe('Ponastavitev gesla');
  }, 90_000);
});

describe('identity mail without SMTP: the local outbox', () => {
  it('keeps the message, link and all, for an admin to read', async () => {
    const p = await startTestPlatform({}, { jobs: true });
    try {
      await p.createUser('ana');
      await p.app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email: 'ana@test.si' } });
      await expect
        .poll(async () => (await p.db.pg.query('select subject, text_body from public.mail_outbox')).rows as { subject: string; text_body: string }[], {
          timeout: 15_000,
        })
        .toEqual([expect.objectContaining({ subject: 'Ponastavitev gesla', text_body: expect.stringContaining('/geslo/complete?link=') })]);
      // The admin reads it at GET /api/mail (1008), with the delivery log; a participant may not.
      await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
      const admin = await p.login('skrbnik');
      const ana = await p.login('ana');
      await expect
        .poll(
          async () => {
            const response = await p.app.inject({ method: 'GET', url: '/api/mail', headers: { authorization: `JWT ${admin.token}` } });
            return response.json() as {
              smtp: boolean;
              outbox: { to: string; text: string }[];
              log: { kind: string; recipient: string; status: string; attempts: number }[];
            };
          },
          { timeout: 15_000 },
        )
        .toMatchObject({
          smtp: false,
          outbox: [expect.objectContaining({ to: 'ana@test.si', text: expect.stringContaining('/geslo/complete?link=') })],
          log: [expect.objectContaining({ kind: 'password-reset', recipient: 'ana@test.si', status: 'sent', attempts: 1 })],
        });
      expect((await p.app.inject({ method: 'GET', url: '/api/mail', headers: { authorization: `JWT ${ana.token}` } })).statusCode).toBe(403);
    } finally {
      await p.close();
    }
  });
});
