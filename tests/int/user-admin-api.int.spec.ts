import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { pdfText } from '../support/pdf-text.ts';
import { startSmtpSink, tokenIn } from '../support/smtp-sink.ts';
import { startTestPlatform, TEST_PASSWORD, type TestPlatform } from '../support/test-platform.ts';

type Sink = Awaited<ReturnType<typeof startSmtpSink>>;
type Errors = { errors: { code: string; field?: string; message: string }[] };
type Page = { items: { id: number; username: string; status: string; fullName: string }[]; total: number };

/**
 * Users administration (issue 14) over the API: the admin's list, form and lifecycle with the
 * login following it, the welcome mail over real SMTP, and managers' users and change requests.
 */
describe('users administration API', () => {
  let p: TestPlatform;
  let smtp: Sink;
  let companyA: number;
  let companyB: number;
  let unitA1: number;
  let unitA2: number;
  let unitB1: number;
  let group: number;
  let pharmacist: number;
  const token: Record<string, string> = {};

  const call = async (who: string, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) => {
    const response = await p.app.inject({ method, url, headers: { authorization: `JWT ${token[who]}` }, ...(payload ? { payload } : {}) });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(position);
    return response;
  };
  const id = (response: { json: () => unknown }) => (response.json() as { id: number }).id;
  const list = async (who: string, query: string) => (await call(who, 'GET', `/api/users?${query}`)).json() as Page;

  const userForm = (changes: object = {}) => ({
    username: 'mojcak',
    email: 'Mojca.Kos@lekarna.si',
    firstName: 'Mojca',
    middleName: null,
    lastName: 'Kos',
    phone: '041 555 666',
    professionId: pharmacist,
    otherJob: null,
    licenceNumber: null,
    chamberMembershipNumber: null,
    secondaryEmail: null,
    notes: 'Vodja izmene',
    roles: [{ roleId: ROLE.participant, companyId: companyA, unitId: unitA1 }],
    ...changes,
  });

  beforeAll(async () => {
    smtp = await startSmtpSink();
    p = await startTestPlatform({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://medilearn.test' }, { jobs: true });
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    await p.createUser('urednik', [{ roleId: ROLE.editor, unitId: 0, companyId: null }]);
    token.admin = (await p.login('skrbnik')).token;
    token.editor = (await p.login('urednik')).token;
    companyA = id(await call('admin', 'POST', '/api/companies', { name: 'Lekarne A', address: 'Cesta 1' }));
    companyB = id(await call('admin', 'POST', '/api/companies', { name: 'Lekarne B', address: 'Cesta 2' }));
    unitA1 = id(await call('admin', 'POST', '/api/units', { name: 'A1', companyId: companyA }));
    unitA2 = id(await call('admin', 'POST', '/api/units', { name: 'A2', companyId: companyA }));
    unitB1 = id(await call('admin', 'POST', '/api/units', { name: 'B1', companyId: companyB }));
    group = id(await call('admin', 'POST', '/api/community-groups', { name: 'Skupina', unitIds: [unitA2] }));
    pharmacist = id(await call('admin', 'POST', '/api/professions', { name: 'Farmacevt' }));
    await p.createUser('vodjaa', [
      { roleId: ROLE.manager, unitId: unitA1, companyId: companyA },
      { roleId: ROLE.manager, unitId: unitA2, companyId: companyA },
    ]);
    await p.createUser('direktorb', [{ roleId: ROLE.director, unitId: 0, companyId: companyB }]);
    await p.createUser('racunovodja', [{ roleId: ROLE.accountant, unitId: unitA1, companyId: companyA }]);
    await p.createUser('clanb', [{ roleId: ROLE.participant, unitId: unitB1, companyId: companyB }]);
    await p.createUser('clana2', [{ roleId: ROLE.participant, unitId: unitA2, companyId: companyA }]);
    token.manager = (await p.login('vodjaa')).token;
    token.directorB = (await p.login('direktorb')).token;
    token.accountant = (await p.login('racunovodja')).token;
    token.participant = (await p.login('clanb')).token;
  }, 60_000);

  afterAll(async () => {
    await p?.close();
    await smtp?.close();
  });

  it('an admin creates a user with every §3 field and a role; the welcome mail’s link sets the first password', async () => {
    const bad = await call('admin', 'POST', '/api/users', userForm({ username: 'mojca k', email: 'ni-naslov', firstName: ' ', phone: '' }));
    expect(bad.statusCode).toBe(400);
    expect((bad.json() as Errors).errors).toEqual(
      expect.arrayContaining([
        { code: '422014', field: 'username', message: 'Uporabniško ime lahko vsebuje le črke in številke' },
        { code: '422004', field: 'email', message: 'Vnesite veljaven e-naslov' },
        { code: '400', field: 'firstName', message: 'Vnos je obvezen' },
        { code: '400', field: 'phone', message: 'Vnos je obvezen' },
      ]),
    );
    const wrongUnit = await call('admin', 'POST', '/api/users', userForm({ roles: [{ roleId: ROLE.participant, companyId: companyB, unitId: unitA1 }] }));
    expect(wrongUnit.statusCode).toBe(400);
    expect((await list('admin', 'search=mojca')).total).toBe(0);

    const created = await call('admin', 'POST', '/api/users', userForm());
    expect(created.statusCode).toBe(201);
    const mojca = id(created);
    const page = (await call('admin', 'GET', `/api/users/${mojca}`)).json();
    expect(page).toMatchObject({
      username: 'mojcak',
      email: 'mojca.kos@lekarna.si',
      fullName: 'Mojca Kos',
      professionName: 'Farmacevt',
      notes: 'Vodja izmene',
      status: 'active',
      origin: 'admin',
      onesignalEnabled: 0,
      roles: [{ roleId: ROLE.participant, unitId: unitA1, unitName: 'A1', companyId: companyA, companyName: 'Lekarne A' }],
      systemAbilities: [],
      courses: [],
      changeRequests: [],
    });
    expect(page).not.toHaveProperty('rating');

    const welcome = await smtp.waitFor('mojca.kos@lekarna.si', /Dobrodošli/);
    expect(welcome.text).toContain('/nov-uporabnik?link=');
    const set = await p.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset/complete',
      payload: { token: tokenIn(welcome), password: 'Mojca1234!', passwordConfirmation: 'Mojca1234!' },
    });
    expect(set.statusCode).toBe(200);
    expect((await p.login('mojcak', 'Mojca1234!')).token).toBeTruthy();

    const dupUsername = await call('admin', 'POST', '/api/users', userForm({ username: 'MojcaK', email: 'druga@lekarna.si' }));
    expect((dupUsername.json() as Errors).errors[0]).toMatchObject({ code: '422013', field: 'username' });
    const dupEmail = await call('admin', 'POST', '/api/users', userForm({ username: 'druga', email: 'mojca.kos@LEKARNA.si' }));
    expect((dupEmail.json() as Errors).errors[0]).toMatchObject({ code: '422005', field: 'email' });
  });

  it('edits a user: a new username frees the old one, roles are replaced, a taken second e-mail is 422016', async () => {
    const created = await call('admin', 'POST', '/api/users', userForm({ username: 'tinaz', email: 'tina@lekarna.si', sendWelcome: false }));
    const tina = id(created);
    const taken = await call(
      'admin',
      'PUT',
      `/api/users/${tina}`,
      userForm({ username: 'tinaz', email: 'tina@lekarna.si', secondaryEmail: 'mojca.kos@lekarna.si' }),
    );
    expect((taken.json() as Errors).errors[0]).toMatchObject({ code: '422016', field: 'secondaryEmail' });
    const clash = await call('admin', 'PUT', `/api/users/${tina}`, userForm({ username: 'mojcak', email: 'tina@lekarna.si' }));
    expect((clash.json() as Errors).errors[0]).toMatchObject({ code: '422013' });

    const saved = await call(
      'admin',
      'PUT',
      `/api/users/${tina}`,
      userForm({
        username: 'tinazupan',
        email: 'tina.zupan@lekarna.si',
        lastName: 'Župan',
        roles: [{ roleId: ROLE.manager, companyId: companyA, unitId: 0 }],
      }),
    );
    expect(saved.statusCode).toBe(200);
    expect((await call('admin', 'GET', `/api/users/${tina}`)).json()).toMatchObject({
      username: 'tinazupan',
      email: 'tina.zupan@lekarna.si',
      fullName: 'Mojca Župan',
      roles: [{ roleId: ROLE.manager, unitId: 0, companyId: companyA }],
    });
    // The old username and e-mail are free again.
    const reuse = await call('admin', 'POST', '/api/users', userForm({ username: 'tinaz', email: 'tina@lekarna.si', sendWelcome: false }));
    expect(reuse.statusCode).toBe(201);
  });

  it('deactivate, activate, delete and reactivate: the login follows, a deleted user leaves the list unless asked for', async () => {
    const totals = async () => ({
      shown: (await list('admin', '')).total,
      inactive: (await list('admin', 'status=inactive')).total,
      deleted: (await list('admin', 'status=deleted')).total,
    });
    const before = await totals();
    const user = await p.createUser('spela', [{ roleId: ROLE.participant, unitId: unitA1, companyId: companyA }]);
    expect(await totals()).toEqual({ ...before, shown: before.shown + 1 });
    const session = (await p.login('spela')).token;
    expect((await call('admin', 'POST', `/api/users/${user}/deactivate`)).statusCode).toBe(200);
    // The open session ends at once, and a new login is refused like a wrong password.
    expect((await p.app.inject({ method: 'GET', url: '/api/users/me', headers: { authorization: `JWT ${session}` } })).statusCode).toBe(401);
    await expect(p.login('spela')).rejects.toThrow(/401/);
    expect((await list('admin', 'status=inactive&search=spela')).items.map((u) => u.id)).toEqual([user]);
    // The unfiltered totals come from the projection's counts per status: they follow every step.
    expect(await totals()).toEqual({ ...before, shown: before.shown + 1, inactive: before.inactive + 1 });

    expect((await call('admin', 'POST', `/api/users/${user}/activate`)).statusCode).toBe(200);
    expect((await p.login('spela')).token).toBeTruthy();

    expect((await call('admin', 'DELETE', `/api/users/${user}`)).statusCode).toBe(200);
    await expect(p.login('spela')).rejects.toThrow(/401/);
    expect((await list('admin', 'search=spela')).total).toBe(0);
    expect((await list('admin', 'status=deleted&search=spela')).items.map((u) => u.id)).toEqual([user]);
    expect(await totals()).toEqual({ ...before, deleted: before.deleted + 1 });
    // spec §8 "user activation failed": a deleted user comes back only by reactivation.
    expect((await call('admin', 'POST', `/api/users/${user}/activate`)).json()).toMatchObject({
      errors: [{ code: '409', message: 'Aktivacija uporabnika ni uspela.' }],
    });
    // spec §8 "welcome message failed": nobody is mailed a link they could not use.
    expect((await call('admin', 'POST', `/api/users/${user}/welcome`)).statusCode).toBe(409);
    expect((await call('admin', 'POST', `/api/users/${user}/reactivate`)).statusCode).toBe(200);
    expect(await totals()).toEqual({ ...before, shown: before.shown + 1 });
    expect((await p.login('spela')).token).toBeTruthy();

    const me = (await call('admin', 'GET', '/api/users/me')).json() as { id: number };
    expect((await call('admin', 'POST', `/api/users/${me.id}/deactivate`)).statusCode).toBe(400);
  });

  it('bulk deactivation acts on each user and lists the refusals', async () => {
    const a = await p.createUser('bulka', [{ roleId: ROLE.participant, unitId: unitA1, companyId: companyA }]);
    const b = await p.createUser('bulkb', [{ roleId: ROLE.participant, unitId: unitA1, companyId: companyA }]);
    const me = ((await call('admin', 'GET', '/api/users/me')).json() as { id: number }).id;
    const result = await call('admin', 'POST', '/api/users/bulk-status', { userIds: [a, b, me], active: false });
    expect(result.json()).toEqual({ changed: 2, failed: [{ id: me, message: 'Svojega računa ne morete deaktivirati ali izbrisati.' }] });
    expect((await list('admin', 'search=bulk&status=inactive')).total).toBe(2);
    expect((await call('admin', 'POST', '/api/users/bulk-status', { userIds: [], active: true })).statusCode).toBe(400);
  });

  it('the list searches, filters by role, company, unit, group, profession and pages', async () => {
    expect((await list('admin', 'search=MOJCA.KOS')).items.map((u) => u.username)).toEqual(['mojcak']);
    expect((await list('admin', `roleId=${ROLE.director}`)).items.map((u) => u.username)).toEqual(['direktorb']);
    expect((await list('admin', `companyId=${companyB}`)).items.map((u) => u.username).sort()).toEqual(['clanb', 'direktorb']);
    expect((await list('admin', `unitId=${unitA2}`)).items.map((u) => u.username)).toEqual(['clana2', 'vodjaa']);
    expect((await list('admin', `groupId=${group}`)).items.map((u) => u.username)).toEqual(['clana2', 'vodjaa']);
    expect((await list('admin', `groupId=${group}&roleId=${ROLE.participant}`)).items.map((u) => u.username)).toEqual(['clana2']);
    // One role must carry role and company together: the director of B is no participant of B.
    expect((await list('admin', `companyId=${companyB}&roleId=${ROLE.participant}`)).items.map((u) => u.username)).toEqual(['clanb']);
    expect((await list('admin', `unitId=${unitA2}&roleId=${ROLE.manager}`)).items.map((u) => u.username)).toEqual(['vodjaa']);
    expect((await list('admin', `unitId=${unitA2}&companyId=${companyB}`)).total).toBe(0);
    expect((await list('admin', `professionId=${pharmacist}`)).items.every((u) => ['mojcak', 'tinazupan', 'tinaz'].includes(u.username))).toBe(true);
    const first = await list('admin', 'pageSize=2&page=1&sort=username');
    const second = await list('admin', 'pageSize=2&page=2&sort=username');
    expect(first.items).toHaveLength(2);
    expect(first.total).toBeGreaterThan(4);
    expect(second.items[0]?.username.localeCompare(first.items[1]?.username ?? '')).toBeGreaterThan(0);
    expect((await call('admin', 'GET', '/api/users?sort=password')).statusCode).toBe(400);
  });

  it('deletes a profession nobody holds (1012); one that users hold is refused with the reason', async () => {
    const held = await call('admin', 'DELETE', `/api/professions/${pharmacist}`);
    expect(held.statusCode).toBe(422);
    expect((held.json() as Errors).errors[0]?.message).toMatch(/Poklica ni mogoče izbrisati/);
    const spare = id(await call('admin', 'POST', '/api/professions', { name: 'Nepotreben poklic' }));
    expect((await call('participant', 'DELETE', `/api/professions/${spare}`)).statusCode).toBe(403);
    expect((await call('admin', 'DELETE', `/api/professions/${spare}`)).statusCode).toBe(200);
    expect((await call('admin', 'GET', `/api/professions/${spare}`)).statusCode).toBe(404);
    expect((await call('admin', 'DELETE', `/api/professions/${spare}`)).statusCode).toBe(404);
  });

  it('permissions: 1004 reads, 1005-1007 write; the editor and the participant are refused', async () => {
    expect((await call('editor', 'GET', '/api/users')).statusCode).toBe(200);
    expect((await call('editor', 'POST', '/api/users', userForm({ username: 'x1', email: 'x1@x.si' }))).statusCode).toBe(403);
    expect((await call('participant', 'GET', '/api/users')).statusCode).toBe(403);
    expect((await call('manager', 'GET', '/api/users')).statusCode).toBe(403);
    expect((await call('accountant', 'GET', '/api/manager/users')).statusCode).toBe(403);
  });

  it('a manager sees the users of their units only; another company’s user is 404; a change request goes to the admins and back', async () => {
    const seen = (await call('manager', 'GET', '/api/manager/users')).json() as Page;
    expect(seen.items.map((u) => u.username).sort()).toEqual(expect.arrayContaining(['mojcak', 'vodjaa']));
    expect(seen.items.map((u) => u.username)).toContain('clana2');
    expect(seen.items.map((u) => u.username)).not.toContain('clanb');
    expect(seen.items.map((u) => u.username)).not.toContain('direktorb');
    const director = (await call('directorB', 'GET', '/api/manager/users')).json() as Page;
    expect(director.items.map((u) => u.username).sort()).toEqual(['clanb', 'direktorb']);

    const clanb = (await list('admin', 'search=clanb')).items[0]?.id as number;
    const mojca = (await list('admin', 'search=mojcak')).items[0]?.id as number;
    expect((await call('manager', 'GET', `/api/manager/users/${clanb}`)).statusCode).toBe(404);
    expect((await call('manager', 'POST', `/api/users/${clanb}/change-requests`, { kind: 'other', description: 'x' })).statusCode).toBe(404);
    // The admin label stays with the admins.
    expect((await call('manager', 'GET', `/api/manager/users/${mojca}`)).json()).toMatchObject({ username: 'mojcak', notes: null });
    expect((await call('admin', 'GET', `/api/users/${mojca}`)).json()).toMatchObject({ notes: expect.any(String) });

    const empty = await call('manager', 'POST', `/api/users/${mojca}/change-requests`, { kind: 'deletion', description: '  ' });
    expect((empty.json() as Errors).errors).toEqual([{ code: '400', field: 'description', message: 'Vnos je obvezen' }]);
    const outside = await call('manager', 'POST', `/api/users/${mojca}/change-requests`, { kind: 'unit', description: 'Premestitev', unitId: unitB1 });
    expect((outside.json() as Errors).errors[0]).toMatchObject({ field: 'unitId' });
    const filed = await call('manager', 'POST', `/api/users/${mojca}/change-requests`, { kind: 'unit', description: 'Premeščena v A2.', unitId: unitA2 });
    expect(filed.statusCode).toBe(201);
    const requestId = (filed.json() as { id: string }).id;

    const queue = (await call('admin', 'GET', '/api/users/change-requests?status=open')).json() as { items: { id: string; userName: string; kind: string }[] };
    expect(queue.items).toEqual([
      expect.objectContaining({ id: requestId, userName: 'Mojca Kos', kind: 'unit', unitName: 'A2', requestedByName: 'Test vodjaa' }),
    ]);
    expect((await call('admin', 'GET', `/api/users/${mojca}`)).json()).toMatchObject({ changeRequests: [{ id: requestId, status: 'open' }] });

    const noReason = await call('admin', 'POST', `/api/users/change-requests/${requestId}/resolve`, { outcome: 'rejected' });
    expect((noReason.json() as Errors).errors[0]).toMatchObject({ field: 'reason', message: 'Ob zavrnitvi navedite razlog.' });
    expect((await call('manager', 'POST', `/api/users/change-requests/${requestId}/resolve`, { outcome: 'accepted' })).statusCode).toBe(403);
    expect((await call('admin', 'POST', `/api/users/change-requests/${requestId}/resolve`, { outcome: 'accepted' })).statusCode).toBe(200);
    // Accepted: the participation moved to the new unit.
    expect((await call('admin', 'GET', `/api/users/${mojca}`)).json()).toMatchObject({ roles: [{ roleId: ROLE.participant, unitId: unitA2 }] });
    expect((await call('admin', 'POST', `/api/users/change-requests/${requestId}/resolve`, { outcome: 'rejected', reason: 'Ne.' })).statusCode).toBe(409);
    const mine = (await call('manager', 'GET', '/api/manager/change-requests')).json() as { items: { id: string; status: string }[] };
    expect(mine.items).toEqual([expect.objectContaining({ id: requestId, status: 'accepted' })]);
    // A director of another company does not reach her at all.
    expect((await call('directorB', 'GET', `/api/manager/users/${mojca}`)).statusCode).toBe(404);
  });

  it('a password is not needed to create a user: the account waits for its first password', async () => {
    await expect(p.login('tinaz', TEST_PASSWORD)).rejects.toThrow(/401/);
  });

  it('exports one-time login links as xlsx (1066): each link signs in once; an inactive account gets none', async () => {
    const ready = await p.createUser('povezava', [{ roleId: ROLE.participant, unitId: unitA1, companyId: companyA }]);
    const locked = await p.createUser('zaklenjen', [{ roleId: ROLE.participant, unitId: unitA1, companyId: companyA }]);
    await call('admin', 'POST', `/api/users/${locked}/deactivate`);
    expect((await call('editor', 'POST', '/api/users/login-tokens/export', { userIds: [ready] })).statusCode).toBe(403);
    expect((await call('admin', 'POST', '/api/users/login-tokens/export', { userIds: [] })).statusCode).toBe(400);

    // A staff account gets no link, as "log in as" refuses admin accounts: by the export or one by one.
    const staff = await p.createUser('urednica2', [{ roleId: ROLE.editor, unitId: 0, companyId: null }]);
    expect((await call('admin', 'POST', `/api/users/${staff}/login-tokens`)).json()).toEqual({
      errors: [{ code: '403', message: 'Povezave za prijavo ni mogoče izdati za račun skrbnika, urednika ali revizorja.', field: null }],
    });

    const file = await call('admin', 'POST', '/api/users/login-tokens/export', { userIds: [ready, locked, staff] });
    expect(file.statusCode, file.body.slice(0, 300)).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    // Read by a second reader (the zip and its XML), not by the library that wrote it.
    const zip = await JSZip.loadAsync(file.rawPayload);
    const strings = (await zip.file('xl/sharedStrings.xml')?.async('string')) ?? '';
    const sheet = (await zip.file('xl/worksheets/sheet1.xml')?.async('string')) ?? '';
    expect(strings + sheet).toContain('povezava@test.si');
    expect(strings + sheet).toContain('Račun ni aktiven: povezave ni.');
    expect(strings + sheet).toContain('Račun skrbnika, urednika ali revizorja: povezave ni.');
    expect((strings + sheet).match(/\?token=/g)).toHaveLength(1);
    const link = /https?:\/\/[^<\s]+\/\?token=([^<\s]+)/.exec(strings + sheet);
    expect(link).not.toBeNull();
    const token = decodeURIComponent(link?.[1] as string);
    const first = await p.app.inject({ method: 'POST', url: '/api/auth/token', payload: { token } });
    expect(first.statusCode).toBe(200);
    const again = await p.app.inject({ method: 'POST', url: '/api/auth/token', payload: { token } });
    expect(again.statusCode).toBe(401);
  });

  it('exports everything held about a person as JSON and PDF, without secrets: one’s own, or anyone’s for an admin', async () => {
    const userId = await p.createUser('zanacebulj', [{ roleId: ROLE.participant, unitId: unitA1, companyId: companyA }]);
    token.zana = (await p.login('zanacebulj')).token;
    await call(
      'admin',
      'PUT',
      `/api/users/${userId}`,
      userForm({
        username: 'zanacebulj',
        email: 'zanacebulj@test.si',
        firstName: 'Žana',
        lastName: 'Čebulj',
        roles: [{ roleId: ROLE.participant, companyId: companyA, unitId: unitA1 }],
      }),
    );
    const own = await call('zana', 'GET', '/api/users/me/personal-data');
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-disposition']).toContain('attachment');
    const data = own.json() as { user: { username: string; fullName: string; roles: unknown[] }; consents: unknown[]; events: { type: string }[] };
    expect(data.user).toMatchObject({ username: 'zanacebulj', fullName: 'Žana Čebulj' });
    expect(data.consents).toHaveLength(4);
    expect(data.events.map((e) => e.type)).toEqual(expect.arrayContaining(['UserRegistered', 'UserLoggedIn', 'UserProfileUpdated', 'ConsentGiven']));
    // The platform's proofs are not the person's data.
    expect(own.body).not.toMatch(/passwordHash|tokenHash|sealed|\$argon2/);

    const pdf = await call('zana', 'GET', '/api/users/me/personal-data.pdf');
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Osebni podatki – Žana Čebulj');
    expect(text).toContain('Privolitve');

    expect((await call('participant', 'GET', `/api/users/${userId}/personal-data`)).statusCode).toBe(403);
    const forAdmin = await call('admin', 'GET', `/api/users/${userId}/personal-data`);
    expect((forAdmin.json() as { user: { id: number } }).user.id).toBe(userId);
    expect((await call('admin', 'GET', '/api/users/99999999/personal-data.pdf')).statusCode).toBe(404);
  });

  it('two admins creating the same username at once: one user, the other told 422013, the totals count one', async () => {
    const before = (await list('admin', '')).total;
    const form = (email: string) => userForm({ username: 'istocasno', email, sendWelcome: false });
    const answers = await Promise.all([
      call('admin', 'POST', '/api/users', form('prvi@istocasno.si')),
      call('admin', 'POST', '/api/users', form('drugi@istocasno.si')),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 422]);
    const loser = answers.find((a) => a.statusCode === 422);
    expect((loser?.json() as Errors | undefined)?.errors[0]).toMatchObject({ code: '422013', field: 'username' });
    expect((await list('admin', 'search=istocasno')).total).toBe(1);
    expect((await list('admin', '')).total).toBe(before + 1);
    // The loser's e-mail claim was released: the address is free again.
    const loserEmail = answers[0]?.statusCode === 422 ? 'prvi@istocasno.si' : 'drugi@istocasno.si';
    expect((await call('admin', 'POST', '/api/users', userForm({ username: 'istocasno2', email: loserEmail, sendWelcome: false }))).statusCode).toBe(201);
  });

  it('keeps each role, company and unit total exact through role changes and the lifecycle, as a count of the rows would give', async () => {
    const user = await p.createUser('stevec', [{ roleId: ROLE.participant, unitId: unitA1, companyId: companyA }]);
    const total = async (query: string) => {
      const page = (await call('admin', 'GET', `/api/users?pageSize=100&${query}`)).json() as { items: unknown[]; total: number };
      expect(page.total, query).toBe(page.items.length);
      return page.total;
    };
    const queries = [
      `roleId=${ROLE.participant}`,
      `companyId=${companyA}`,
      `unitId=${unitA2}`,
      `companyId=${companyA}&roleId=${ROLE.participant}`,
      `unitId=${unitA1}&roleId=${ROLE.participant}`,
      `roleId=${ROLE.manager}&status=deleted`,
    ];
    const before = await Promise.all(queries.map(total));
    // Moved to A2 as a manager, then deleted: each total follows.
    const moved = await call(
      'admin',
      'PUT',
      `/api/users/${user}`,
      userForm({ username: 'stevec', email: 'stevec@test.si', roles: [{ roleId: ROLE.manager, unitId: unitA2, companyId: companyA }] }),
    );
    expect(moved.statusCode, moved.body).toBe(200);
    const after = await Promise.all(queries.map(total));
    expect(after[0]).toBe((before[0] as number) - 1);
    expect(after[2]).toBe((before[2] as number) + 1);
    expect(after[4]).toBe((before[4] as number) - 1);
    expect((await call('admin', 'DELETE', `/api/users/${user}`)).statusCode).toBe(200);
    await Promise.all(queries.map(total));
    expect(await total(`roleId=${ROLE.manager}&status=deleted`)).toBe((before[5] as number) + 1);
    // The kept counts equal a count of the rows, key by key.
    const drift = await p.db.pg.query(`
      with actual as (select k as key, status, count(*)::int as n from rm.users, unnest(role_keys) k group by k, status)
      select coalesce(a.key, c.key) as key from actual a full join (select * from rm.user_key_counts where n <> 0) c on c.key = a.key and c.status = a.status
       where a.n is distinct from c.n`);
    expect(drift.rows).toEqual([]);
  });
});
