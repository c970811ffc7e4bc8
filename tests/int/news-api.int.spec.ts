import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giveRequiredConsents } from '../../application/consents/consents.ts';
import { registerUser } from '../../application/users/register-user.ts';
import { newsReaderStream } from '../../domain/news/news.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { SAMPLE_PNG } from '../support/sample-png.ts';
import { startTestPlatform, TEST_PASSWORD, type TestPlatform } from '../support/test-platform.ts';

type Json = Record<string, unknown>;
type Errors = { errors: { code: string; field: string | null; message: string }[] };

describe('news API (spec §3, §4, §5, §7): authoring, the one item for a reader, actions and reach', () => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  let unitA: number;
  let unitB: number;
  let company: number;
  let otherCompany: number;
  let group: number;
  let pharmacist: number;
  let technician: number;
  const hour = 3_600_000;
  const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
  const none = { professionIds: [], companyIds: [], unitIds: [], groupIds: [] };

  const call = async (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const response = await p.app.inject({ method, url, headers: { authorization: `JWT ${tokens[who]}` }, ...(payload ? { payload } : {}) });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.platform.runner.waitFor(['news', 'users', 'organisation'], parsePosition(position) as never, 10_000);
    return response;
  };
  const news = (over: Json = {}) => ({
    title: 'Nova smernica',
    htmlContent: '<p>Preberite novo smernico.</p>',
    active: true,
    dateFrom: at(-hour),
    dateTo: at(24 * hour),
    location: 1,
    recipients: none,
    ...over,
  });
  const created: number[] = [];
  const create = async (over: Json = {}) => {
    const response = await call('admin', 'POST', '/api/news', news(over));
    expect(response.statusCode, response.body).toBe(201);
    const id = (response.json() as { id: number }).id;
    created.push(id);
    return id;
  };
  /** Every news item of a test goes at its end, so the next starts with none on. */
  const removeAll = async () => {
    for (const id of created.splice(0)) await call('admin', 'DELETE', `/api/news/${id}`);
  };
  const shown = async (who: string, query = 'location[]=1') => {
    const response = await call(who, 'GET', `/api/news/user?${query}`);
    expect([200, 204], response.body).toContain(response.statusCode);
    return response.statusCode === 204 ? null : (response.json() as { id: number }).id;
  };
  const user = async (username: string, unitId: number, companyId: number, professionId: number | null) => {
    const result = await registerUser(
      p.platform,
      { username, email: `${username}@test.si`, firstName: 'Test', lastName: username, password: TEST_PASSWORD, professionId },
      [{ roleId: ROLE.participant, unitId, companyId }],
      { actorId: null },
    );
    const consents = await giveRequiredConsents({ store: p.platform.store, now: () => new Date() }, result.userId, 'import', { actorId: null });
    await p.settleAll(consents.position ?? result.position);
    tokens[username] = (await p.login(username)).token;
    return result.userId;
  };

  beforeAll(async () => {
    p = await startTestPlatform();
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    await p.createUser('urednica', [{ roleId: ROLE.editor, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    tokens.editor = (await p.login('urednica')).token;
    const id = async (url: string, body: object) => ((await call('admin', 'POST', url, body)).json() as { id: number }).id;
    company = await id('/api/companies', { name: 'Lekarne', address: 'Cesta 1' });
    otherCompany = await id('/api/companies', { name: 'Bolnišnica', address: 'Cesta 2' });
    unitA = await id('/api/units', { name: 'Lekarna A', companyId: company });
    unitB = await id('/api/units', { name: 'Oddelek B', companyId: otherCompany });
    group = await id('/api/community-groups', { name: 'Ljubljanske lekarne', unitIds: [unitA] });
    pharmacist = await id('/api/professions', { name: 'Magister farmacije' });
    technician = await id('/api/professions', { name: 'Farmacevtski tehnik' });
    await user('ana', unitA, company, pharmacist);
    await user('bojan', unitB, otherCompany, technician);
  }, 120_000);

  afterAll(async () => p?.close());

  it('checks the fields with the Slovenian messages of spec §5', async () => {
    const empty = await call('admin', 'POST', '/api/news', { title: '', htmlContent: '', dateFrom: '', dateTo: '' });
    expect(empty.statusCode).toBe(400);
    expect(Object.fromEntries((empty.json() as Errors).errors.map((e) => [e.field, e.message]))).toEqual({
      title: 'Vnos je obvezen',
      htmlContent: 'Vnos je obvezen',
      dateFrom: 'Vnos je obvezen',
      dateTo: 'Vnos je obvezen',
    });
    const fields = async (body: Json) => (((await call('admin', 'POST', '/api/news', body)).json() as Errors).errors ?? []).map((e) => [e.field, e.message]);
    expect(await fields(news({ dateTo: at(-2 * hour) }))).toEqual([['dateTo', 'Konec mora biti po začetku']]);
    expect(await fields(news({ actionUrl: 'javascript:alert(1)', actionButtonText: 'Klik' }))).toEqual([
      ['actionUrl', 'Vnesite veljaven naslov (https://…) ali stran platforme (npr. /izobrazevanja)'],
    ]);
    expect(await fields(news({ actionUrl: 'https://zdravje.si', actionButtonText: 'Preberite celotno smernico na spletni strani' }))).toEqual([
      ['actionButtonText', 'Besedilo gumba je predolgo (največ 40 znakov)'],
    ]);
    expect(await fields(news({ recipients: { ...none, unitIds: [99_999] } }))).toEqual([
      ['recipients.unitIds', 'Izbrana enota ne obstaja ali ni na voljo (št. 99999).'],
    ]);
    // Content that is nothing but what the sanitiser removes is empty.
    expect(await fields(news({ htmlContent: '<script>alert(1)</script><iframe src="https://x.si"></iframe>' }))).toEqual([['htmlContent', 'Vnos je obvezen']]);
    expect(((await call('admin', 'GET', '/api/news')).json() as { total: number }).total).toBe(0);
  });

  it('keeps only safe HTML of the content', async () => {
    const id = await create({
      htmlContent: '<p onclick="x()">Dobro <strong>jutro</strong><script>alert(1)</script></p><a href="javascript:x">a</a><a href="https://zdravje.si">vir</a>',
      actionUrl: 'https://zdravje.si/smernica',
      actionButtonText: 'Preberi',
    });
    const item = (await call('admin', 'GET', `/api/news/${id}`)).json() as Json;
    expect(item).toMatchObject({
      id,
      htmlContent:
        '<p>Dobro <strong>jutro</strong></p><a rel="noopener noreferrer" target="_blank">a</a><a href="https://zdravje.si" rel="noopener noreferrer" target="_blank">vir</a>',
      actionUrl: 'https://zdravje.si/smernica',
      actionButtonText: 'Preberi',
      active: true,
      location: 1,
      reach: { shown: { times: 0, users: 0 }, declined: { times: 0, users: 0 }, engaged: { times: 0, users: 0 }, deferred: { times: 0, users: 0 } },
    });
    await removeAll();
  });

  it('lets only holders of 1065 author news (spec §6), and refuses before reading the body', async () => {
    expect((await call('ana', 'GET', '/api/news')).statusCode).toBe(403);
    expect((await call('ana', 'POST', '/api/news', { title: '' })).statusCode).toBe(403);
    const id = await create();
    expect((await call('ana', 'GET', `/api/news/${id}`)).statusCode).toBe(403);
    expect((await call('ana', 'PUT', `/api/news/${id}`, news())).statusCode).toBe(403);
    expect((await call('ana', 'DELETE', `/api/news/${id}`)).statusCode).toBe(403);
    const byEditor = await call('editor', 'POST', '/api/news', news({ title: 'Novica urednice' }));
    expect(byEditor.statusCode).toBe(201);
    created.push((byEditor.json() as { id: number }).id);
    expect((await call('editor', 'PUT', `/api/news/${id}`, news({ title: 'Popravljeno' }))).statusCode).toBe(200);
    expect(((await call('editor', 'GET', `/api/news/${id}`)).json() as Json).title).toBe('Popravljeno');
    expect((await call('anonymous', 'GET', '/api/news/user')).statusCode).toBe(401);
    await removeAll();
    expect((await call('admin', 'GET', `/api/news/${id}`)).statusCode).toBe(404);
    expect((await call('admin', 'PUT', `/api/news/${id}`, news())).statusCode).toBe(404);
  });

  it('answers each reader the item meant for their profession, unit, company or group, or for everyone', async () => {
    expect(await shown('ana')).toBeNull();
    const forPharmacists = await create({ recipients: { ...none, professionIds: [pharmacist] } });
    expect(await shown('ana')).toBe(forPharmacists);
    expect(await shown('bojan')).toBeNull();
    await removeAll();
    const forUnitB = await create({ recipients: { ...none, unitIds: [unitB] } });
    expect([await shown('ana'), await shown('bojan')]).toEqual([null, forUnitB]);
    await removeAll();
    const forGroup = await create({ recipients: { ...none, groupIds: [group] } });
    expect([await shown('ana'), await shown('bojan')]).toEqual([forGroup, null]);
    await removeAll();
    const forCompany = await create({ recipients: { ...none, companyIds: [otherCompany] } });
    expect([await shown('ana'), await shown('bojan')]).toEqual([null, forCompany]);
    await removeAll();
    // Organisation and profession together: both must be met.
    const both = await create({ recipients: { ...none, companyIds: [company, otherCompany], professionIds: [technician] } });
    expect([await shown('ana'), await shown('bojan')]).toEqual([null, both]);
    await removeAll();
    const everyone = await create();
    expect([await shown('ana'), await shown('bojan'), await shown('admin')]).toEqual([everyone, everyone, everyone]);
    const answer = (await call('ana', 'GET', '/api/news/user')).json() as Json;
    expect(Object.keys(answer).sort()).toEqual(['actionButtonText', 'actionUrl', 'dateFrom', 'dateTo', 'htmlContent', 'id', 'image', 'location', 'title']);
    await removeAll();
  });

  it('shows an item only while it is active and inside its dates, latest start first', async () => {
    await create({ dateFrom: at(2 * hour), dateTo: at(5 * hour) });
    await create({ dateFrom: at(-5 * hour), dateTo: at(-hour) });
    const inactive = await create({ active: false });
    expect(await shown('ana')).toBeNull();
    const older = await create({ dateFrom: at(-3 * hour) });
    const newer = await create({ dateFrom: at(-2 * hour) });
    expect(await shown('ana')).toBe(newer);
    // Switched off, the newer gives way to the older; the inactive one switched on is the latest.
    await call('admin', 'PUT', `/api/news/${newer}`, news({ dateFrom: at(-2 * hour), active: false }));
    expect(await shown('ana')).toBe(older);
    await call('admin', 'PUT', `/api/news/${inactive}`, news({ dateFrom: at(-30 * 60_000) }));
    expect(await shown('ana')).toBe(inactive);
    await removeAll();
  });

  it('filters by location, with the location list in either array style', async () => {
    const afterCourse = await create({ location: 2 });
    expect(await shown('ana', 'location[]=1')).toBeNull();
    expect(await shown('ana', '')).toBeNull();
    expect(await shown('ana', 'location[]=2')).toBe(afterCourse);
    expect(await shown('ana', 'location[]=1&location[]=2')).toBe(afterCourse);
    expect(await shown('ana', 'location=1&location=2')).toBe(afterCourse);
    expect(await shown('ana', 'location=2')).toBe(afterCourse);
    const list = await create({ location: 1, dateFrom: at(-2 * hour) });
    expect(await shown('ana', 'location=1')).toBe(list);
    expect(await shown('ana', 'location[]=1&location[]=2')).toBe(afterCourse);
    const bad = await call('ana', 'GET', '/api/news/user?location[]=3');
    expect(bad.statusCode).toBe(400);
    expect((bad.json() as Errors).errors[0]?.field).toBe('location.0');
    await removeAll();
  });

  it('records every action as an event, once per call, skips what was declined or engaged with, and counts reach', async () => {
    const first = await create({ dateFrom: at(-3 * hour) });
    const second = await create({ dateFrom: at(-2 * hour) });
    const record = async (who: string, id: number, action: number) => call(who, 'PUT', `/api/news/${id}/user/stats`, { action });
    expect(await shown('ana')).toBe(second);
    expect((await record('ana', second, 1)).json()).toEqual({ id: second, action: 1 });
    await record('ana', second, 4);
    // Deferred ("Kasneje") comes again; the pop-up's own 24 hours are the browser's.
    expect(await shown('ana')).toBe(second);
    await record('ana', second, 1);
    await record('ana', second, 2);
    expect(await shown('ana')).toBe(first);
    await record('ana', first, 1);
    await record('ana', first, 3);
    expect(await shown('ana')).toBeNull();
    expect(await shown('bojan')).toBe(second);
    await record('bojan', second, 1);
    await record('bojan', second, 3);

    const anaEvents = (await p.platform.store.readStream(newsReaderStream(second, (await userId('ana')) as number))).events;
    expect(anaEvents.map((e) => [e.type, (e.data as { action: number }).action])).toEqual([
      ['NewsActionRecorded', 1],
      ['NewsActionRecorded', 4],
      ['NewsActionRecorded', 1],
      ['NewsActionRecorded', 2],
    ]);
    const reach = ((await call('admin', 'GET', `/api/news/${second}`)).json() as { reach: Json }).reach;
    expect(reach).toEqual({
      shown: { times: 3, users: 2 },
      declined: { times: 1, users: 1 },
      engaged: { times: 1, users: 1 },
      deferred: { times: 1, users: 1 },
    });
    const list = (await call('admin', 'GET', '/api/news')).json() as { items: { id: number; reach: Json }[]; total: number };
    expect(list.total).toBe(2);
    expect(list.items.map((i) => i.id)).toEqual([second, first]);
    expect(list.items[1]?.reach).toMatchObject({ shown: { times: 1, users: 1 }, engaged: { times: 1, users: 1 } });

    // Only on an item meant for the caller, and only actions 1 to 4.
    const forTechnicians = await create({ recipients: { ...none, professionIds: [technician] } });
    expect((await record('ana', forTechnicians, 1)).statusCode).toBe(404);
    expect((await record('ana', 99_999, 1)).statusCode).toBe(404);
    expect((await record('ana', first, 5)).statusCode).toBe(400);
    expect((await call('ana', 'PUT', `/api/news/${first}/user/stats`, {})).statusCode).toBe(400);
    await removeAll();
    expect((await record('bojan', second, 1)).statusCode).toBe(404);
  });

  it("serves an uploaded image to the item's readers only", async () => {
    const upload = await p.app.inject({
      method: 'POST',
      url: '/api/files?name=novica.png',
      headers: { authorization: `JWT ${tokens.admin}`, 'content-type': 'image/png' },
      payload: SAMPLE_PNG,
    });
    const fileId = (upload.json() as { id: number }).id;
    expect((await call('ana', 'GET', `/api/files/${fileId}`)).statusCode).toBe(404);
    await create({ image: `/api/files/${fileId}`, recipients: { ...none, professionIds: [pharmacist] } });
    expect((await call('ana', 'GET', `/api/files/${fileId}`)).statusCode).toBe(200);
    expect((await call('bojan', 'GET', `/api/files/${fileId}`)).statusCode).toBe(404);
    await removeAll();
  });

  const userId = async (username: string) => {
    const me = (await call(username, 'GET', '/api/users/me')).json() as { id: number };
    return me.id;
  };
});
