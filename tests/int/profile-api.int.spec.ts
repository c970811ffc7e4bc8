import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { startTestPlatform, TEST_PASSWORD, type TestPlatform } from '../support/test-platform.ts';

/** One's own account (issue 12): profile (1001), password (1003), a request to delete one's data or, with the delete-account feature on, deleting the account (1002). */
describe('profile API', () => {
  let p: TestPlatform;
  let professions: { plain: number; licensed: number };
  let ana: number;

  const call = async (token: string, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) => {
    const response = await p.app.inject({ method, url, headers: { authorization: `JWT ${token}` }, ...(payload ? { payload } : {}) });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(parsePosition(position));
    return response;
  };

  beforeAll(async () => {
    p = await startTestPlatform({ FEATURE_DELETE_ACCOUNT: 'true' });
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    const admin = (await p.login('skrbnik')).token;
    const plain = await call(admin, 'POST', '/api/professions', { name: 'Farmacevtski tehnik' });
    const licensed = await call(admin, 'POST', '/api/professions', { name: 'Magister farmacije', needsLicenceNumber: true });
    professions = { plain: (plain.json() as { id: number }).id, licensed: (licensed.json() as { id: number }).id };
    ana = await p.createUser('ana', [{ roleId: ROLE.participant, unitId: 1, companyId: null }]);
  });

  afterAll(async () => p.close());

  const profile = (changes: object = {}) => ({
    firstName: 'Ana',
    middleName: 'Marija',
    lastName: 'Novak',
    phone: '+386 41 123 456',
    professionId: professions.plain,
    otherJob: 'Svetovanje',
    licenceNumber: null,
    chamberMembershipNumber: 'ZB-1234',
    ...changes,
  });

  it('updates one’s own profile, validated as spec §5 says, and shows it on /users/me', async () => {
    const { token } = await p.login('ana');
    const bad = await call(token, 'PUT', '/api/users/me', profile({ firstName: ' ', phone: 'pokličite me', licenceNumber: '123456' }));
    expect(bad.statusCode).toBe(400);
    expect((bad.json() as { errors: { field: string; message: string }[] }).errors).toEqual(
      expect.arrayContaining([
        { code: '400', field: 'firstName', message: 'Vnos je obvezen' },
        { code: '400', field: 'phone', message: 'Vnesite veljavno telefonsko številko' },
        { code: '400', field: 'licenceNumber', message: 'Številka licence ima največ 5 znakov' },
      ]),
    );
    expect((await call(token, 'PUT', '/api/users/me', profile({ professionId: 999_999 }))).json()).toEqual({
      errors: [{ code: '400', field: 'professionId', message: 'Izbrani poklic ne obstaja (št. 999999).' }],
    });
    expect((await call(token, 'PUT', '/api/users/me', profile({ professionId: professions.licensed }))).json()).toEqual({
      errors: [{ code: '400', field: 'licenceNumber', message: 'Za izbrani poklic je številka licence obvezna.' }],
    });
    expect((await call(token, 'PUT', '/api/users/me', profile({ lastName: 'Novak\nKranjc' }))).statusCode).toBe(400);

    const saved = await call(token, 'PUT', '/api/users/me', profile({ professionId: professions.licensed, licenceNumber: '12345' }));
    expect(saved.statusCode).toBe(200);
    const me = (await call(token, 'GET', '/api/users/me')).json();
    expect(me).toMatchObject({
      id: ana,
      fullName: 'Ana Marija Novak',
      phone: '+386 41 123 456',
      profession: { id: professions.licensed, name: 'Magister farmacije' },
      otherJob: 'Svetovanje',
      licenceNumber: '12345',
      chamberMembershipNumber: 'ZB-1234',
      deletionRequestedAt: null,
    });
    // The same profile again is no change: no event.
    const again = await call(token, 'PUT', '/api/users/me', profile({ professionId: professions.licensed, licenceNumber: '12345' }));
    expect(again.headers['x-event-position']).toBeUndefined();
  });

  it('changes one’s own password after checking the current one, and ends the account’s other sessions', async () => {
    const here = (await p.login('ana')).token;
    const elsewhere = (await p.login('ana')).token;
    const change = (body: object) => call(here, 'PUT', '/api/users/me/password', body);
    expect((await change({ currentPassword: 'napačno12', password: 'NovoGeslo1', passwordConfirmation: 'NovoGeslo1' })).json()).toEqual({
      errors: [{ code: '400', field: 'currentPassword', message: 'Trenutno geslo ni pravilno.' }],
    });
    expect((await change({ currentPassword: TEST_PASSWORD, password: 'NovoGeslo1', passwordConfirmation: 'NovoGeslo2' })).json()).toEqual({
      errors: [{ code: '422007', field: 'passwordConfirmation', message: 'Gesli se ne ujemata' }],
    });
    expect((await change({ currentPassword: TEST_PASSWORD, password: 'kratko', passwordConfirmation: 'kratko' })).json()).toEqual({
      // spec §8: 422007 for the password, as at registration.
      errors: [{ code: '422007', field: 'password', message: 'Geslo je prekratko (zahtevano je najmanj 8 znakov)' }],
    });
    expect((await change({ currentPassword: TEST_PASSWORD, password: 'NovoGeslo1', passwordConfirmation: 'NovoGeslo1' })).statusCode).toBe(200);
    expect((await call(here, 'GET', '/api/users/me')).statusCode).toBe(200);
    expect((await call(elsewhere, 'GET', '/api/users/me')).statusCode).toBe(401);
    await expect(p.login('ana')).rejects.toThrow(/401/);
    expect((await p.login('ana', 'NovoGeslo1')).token).toBeTruthy();
  });

  it('takes a request to delete one’s data once, with the spec §8 answer, also from a user without consents', async () => {
    await p.createUser('brez', [{ roleId: ROLE.participant, unitId: 1, companyId: null }], TEST_PASSWORD, { consents: false });
    const { token } = await p.login('brez');
    const asked = await call(token, 'POST', '/api/users/me/deletion-request', { reason: 'Ne uporabljam več.\nHvala.' });
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({ message: 'Zahteva za izbris podatkov je poslana. Obdelali jo bomo v 5 delovnih dneh.' });
    const me = (await call(token, 'GET', '/api/users/me')).json() as { deletionRequestedAt: string | null };
    expect(me.deletionRequestedAt).not.toBeNull();
    const twice = await call(token, 'POST', '/api/users/me/deletion-request', {});
    expect(twice.statusCode).toBe(202);
    expect(twice.headers['x-event-position']).toBeUndefined();
    const stream = await p.store.readStream(`user-${(me as unknown as { id: number }).id}`);
    expect(stream.events.filter((e) => e.type === 'UserDeletionRequested')).toHaveLength(1);
    // Admins see it in their queue, with the reason; a participant may not read the queue.
    const admin = await p.login('skrbnik');
    const queue = (await call(admin.token, 'GET', '/api/users/deletion-requests')).json() as { items: { username: string; reason: string | null }[] };
    expect(queue.items).toContainEqual(expect.objectContaining({ username: 'brez', reason: 'Ne uporabljam več.\nHvala.' }));
    expect((await call(token, 'GET', '/api/users/deletion-requests')).statusCode).toBe(403);
  });

  it('deletes one’s own account at once with the feature on: the password confirms it, the login follows, an admin account is kept', async () => {
    await p.createUser('odhaja', [{ roleId: ROLE.participant, unitId: 1, companyId: null }]);
    const { token } = await p.login('odhaja');
    const wrong = await call(token, 'DELETE', '/api/users/me', { password: 'napacno1' });
    expect(wrong.json()).toEqual({ errors: [{ code: '400', field: 'password', message: 'Geslo ni pravilno.' }] });
    expect((await call(token, 'GET', '/api/users/me')).statusCode).toBe(200);
    expect((await call(token, 'DELETE', '/api/users/me', { password: TEST_PASSWORD })).statusCode).toBe(200);
    // The session ended with the account, and the password no longer signs in.
    expect((await call(token, 'GET', '/api/users/me')).statusCode).toBe(401);
    const login = await p.app.inject({ method: 'POST', url: '/api/auth/login', payload: { usernameOrEmail: 'odhaja', password: TEST_PASSWORD } });
    expect(login.statusCode).toBe(401);
    const admin = (await p.login('skrbnik')).token;
    expect((await call(admin, 'DELETE', '/api/users/me', { password: TEST_PASSWORD })).statusCode).toBe(403);
    expect((await call(admin, 'GET', '/api/users/me')).statusCode).toBe(200);
  });
});

describe('the delete-account feature switched off (spec §1 default)', () => {
  it('has no way to delete one’s own account at once (404), and still takes the request to delete one’s data: an admin handles it', async () => {
    const p = await startTestPlatform();
    try {
      await p.createUser('ana', [{ roleId: ROLE.participant, unitId: 1, companyId: null }]);
      const { token } = await p.login('ana');
      const direct = await p.app.inject({
        method: 'DELETE',
        url: '/api/users/me',
        headers: { authorization: `JWT ${token}` },
        payload: { password: TEST_PASSWORD },
      });
      expect(direct.statusCode).toBe(404);
      const response = await p.app.inject({ method: 'POST', url: '/api/users/me/deletion-request', headers: { authorization: `JWT ${token}` }, payload: {} });
      expect(response.statusCode).toBe(202);
      expect(response.json()).toEqual({ message: 'Zahteva za izbris podatkov je poslana. Obdelali jo bomo v 5 delovnih dneh.' });
    } finally {
      await p.close();
    }
  });
});
