import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { SAMPLE_PNG } from '../support/sample-png.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

/**
 * Issue 16 item 2, newsletters: readers of a profession see the published issues for it (and those for
 * every profession), newest first; an uploaded cover is served to those readers and to nobody else.
 */
describe('newsletters API: issues for a profession and their covers', () => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  let pharmacist: number;
  let doctor: number;

  const call = async (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const response = await p.app.inject({ method, url, headers: { authorization: `JWT ${tokens[who]}` }, ...(payload ? { payload } : {}) });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(parsePosition(position));
    return response;
  };
  const titles = async (who: string) => ((await call(who, 'GET', '/api/user-newsletters')).json() as { items: { title: string }[] }).items.map((n) => n.title);

  beforeAll(async () => {
    p = await startTestPlatform();
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    pharmacist = ((await call('admin', 'POST', '/api/professions', { name: 'Magister farmacije' })).json() as { id: number }).id;
    doctor = ((await call('admin', 'POST', '/api/professions', { name: 'Zdravnik' })).json() as { id: number }).id;
    for (const [username, professionId] of [
      ['ana', pharmacist],
      ['bojan', doctor],
      ['cene', null],
    ] as const) {
      await p.createUser(username, [{ roleId: ROLE.participant, unitId: 1, companyId: null }]);
      tokens[username] = (await p.login(username)).token;
      if (professionId !== null) await call(username, 'PUT', '/api/users/me', { firstName: 'Test', lastName: username, phone: '041 000 000', professionId });
    }
  });

  afterAll(async () => p.close());

  it('lists the published issues for the reader’s profession and for every profession, newest first', async () => {
    const write = async (title: string, professionIds: number[], published = true) =>
      ((await call('admin', 'POST', '/api/newsletters', { title, description: 'Novosti.', professionIds, published })).json() as { id: number }).id;
    await write('Za vse', []);
    await write('Za farmacevte', [pharmacist]);
    await write('Za zdravnike', [doctor]);
    const draft = await write('Osnutek za farmacevte', [pharmacist], false);
    expect(await titles('ana')).toEqual(['Za farmacevte', 'Za vse']);
    expect(await titles('bojan')).toEqual(['Za zdravnike', 'Za vse']);
    expect(await titles('cene')).toEqual(['Za vse']);
    expect((await call('ana', 'GET', `/api/user-newsletters/${draft}`)).statusCode).toBe(404);
    // Published later, the draft comes first.
    await call('admin', 'PUT', `/api/newsletters/${draft}`, {
      title: 'Osnutek za farmacevte',
      description: 'Novosti.',
      professionIds: [pharmacist],
      published: true,
    });
    expect(await titles('ana')).toEqual(['Osnutek za farmacevte', 'Za farmacevte', 'Za vse']);
  });

  it('serves an uploaded cover to the readers of the published issue, and to nobody else', async () => {
    const uploaded = await p.app.inject({
      method: 'POST',
      url: '/api/files?name=novicnik.png',
      headers: { authorization: `JWT ${tokens.admin}`, 'content-type': 'image/png' },
      payload: SAMPLE_PNG,
    });
    expect(uploaded.statusCode).toBe(201);
    const imageUrl = `/api/files/${(uploaded.json() as { id: number }).id}`;
    const fields = { title: 'Novičnik s sliko', description: 'Novosti s sliko.', imageUrl, professionIds: [pharmacist] };
    const id = ((await call('admin', 'POST', '/api/newsletters', fields)).json() as { id: number }).id;
    const read = async (who: string) => (await call(who, 'GET', imageUrl)).statusCode;
    // A draft's cover is its authors' only.
    expect(await read('admin')).toBe(200);
    expect(await read('ana')).toBe(404);
    await call('admin', 'PUT', `/api/newsletters/${id}`, { ...fields, published: true });
    expect(((await call('ana', 'GET', `/api/user-newsletters/${id}`)).json() as { imageUrl: string }).imageUrl).toBe(imageUrl);
    expect(await read('ana')).toBe(200);
    // Not for their profession (or they have none): not their cover either.
    expect(await read('bojan')).toBe(404);
    expect(await read('cene')).toBe(404);
    // For every profession, every reader sees it.
    await call('admin', 'PUT', `/api/newsletters/${id}`, { ...fields, professionIds: [], published: true });
    expect(await read('bojan')).toBe(200);
    expect(await read('cene')).toBe(200);
    await call('admin', 'DELETE', `/api/newsletters/${id}`);
    expect(await read('ana')).toBe(404);
  });
});
