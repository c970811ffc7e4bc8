import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { SAMPLE_PNG } from '../support/sample-png.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

type Errors = { errors: { code: string; field: string | null; message: string }[] };

/**
 * Issue 15 item 12: a client authors courses in its own community as spec §6 grants it (course 2004
 * read, 2005 create, 2006 update; block 1027 read, 1028 create, 1029 update): the course belongs to
 * the client's unit and is only for its company's people; the platform's courses and other
 * communities' courses are as missing to it (404); what it lacks (2007 delete) it is refused.
 */
describe('community authoring: a client writes courses for its own company', () => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};

  const call = async (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const response = await p.app.inject({ method, url, headers: { authorization: `JWT ${tokens[who]}` }, ...(payload ? { payload } : {}) });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(parsePosition(position));
    return response;
  };
  const course = (extra: object = {}) => ({
    type: 3,
    title: 'Svetovanje v lekarni',
    description: 'Izobraževanje, ki ga je pripravila lekarna sama.',
    cover: '/c.svg',
    creditPoints: 1,
    ...extra,
  });
  const listed = async (who: string) => ((await call(who, 'GET', '/api/courses')).json() as { items: { id: number }[] }).items.map((c) => c.id);

  beforeAll(async () => {
    p = await startTestPlatform();
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    const company = async (name: string) => ((await call('admin', 'POST', '/api/companies', { name, address: 'Cesta 1' })).json() as { id: number }).id;
    const unit = async (name: string, companyId: number) => ((await call('admin', 'POST', '/api/units', { name, companyId })).json() as { id: number }).id;
    ids.companyA = await company('Lekarne A');
    ids.companyB = await company('Lekarne B');
    ids.a1 = await unit('A1', ids.companyA);
    ids.a2 = await unit('A2', ids.companyA);
    ids.b1 = await unit('B1', ids.companyB);
    const person = async (name: string, roleId: (typeof ROLE)[keyof typeof ROLE], unitId: number, companyId: number) => {
      await p.createUser(name, [{ roleId, unitId, companyId }]);
      tokens[name] = (await p.login(name)).token;
    };
    await person('narocnica', ROLE.client, ids.a1, ids.companyA);
    await person('vodja', ROLE.manager, ids.a1, ids.companyA);
    await person('ana', ROLE.participant, ids.a1, ids.companyA);
    await person('bojan', ROLE.participant, ids.b1, ids.companyB);
    await person('narocnikb', ROLE.client, ids.b1, ids.companyB);
    const platform = await call('admin', 'POST', '/api/courses', course({ title: 'Tečaj platforme', public: true }));
    ids.platform = (platform.json() as { id: number }).id;
  });

  afterAll(async () => p.close());

  it('keeps a client’s course within its company: never public, never another company’s units', async () => {
    const open = await call('narocnica', 'POST', '/api/courses', course({ public: true }));
    expect((open.json() as Errors).errors).toEqual([{ code: '400', field: 'public', message: 'Izobraževanje skupnosti ne more biti javno.' }]);
    const foreign = await call('narocnica', 'POST', '/api/courses', course({ audience: { unitIds: [ids.b1] } }));
    // Another company's unit is not the client's to name (decision 0047): refused by its field, as one that does not exist.
    expect((foreign.json() as Errors).errors).toEqual([
      { code: '400', field: 'audience.unitIds', message: `Izbrana enota ne obstaja ali ni na voljo (št. ${ids.b1}).` },
    ]);
    expect((await call('narocnica', 'POST', `/api/courses?unitId=${ids.b1}`, course())).statusCode).toBe(403);
    expect(await listed('narocnica')).toEqual([]);

    const created = await call('narocnica', 'POST', '/api/courses', course({ audience: { unitIds: [ids.a1, ids.a2] } }));
    expect(created.statusCode, created.body).toBe(201);
    ids.own = (created.json() as { id: number }).id;
    // The whole company may be targeted; a refused change changes nothing.
    const fields = ((await call('narocnica', 'GET', `/api/courses/${ids.own}`)).json() as { fields: Record<string, unknown> }).fields;
    expect((await call('narocnica', 'PUT', `/api/courses/${ids.own}`, { ...fields, audience: { companyIds: [ids.companyB] } })).statusCode).toBe(400);
    expect((await call('narocnica', 'PUT', `/api/courses/${ids.own}`, { ...fields, audience: { companyIds: [ids.companyA] } })).statusCode).toBe(200);
  });

  it('lets the client fill, publish and read back its course; its company’s participant takes it, another company’s never sees it', async () => {
    const file = await p.app.inject({
      method: 'POST',
      url: '/api/files?name=naslovnica.png',
      headers: { authorization: `JWT ${tokens.narocnica}`, 'content-type': 'image/png' },
      payload: SAMPLE_PNG,
    });
    expect(file.statusCode).toBe(201);
    const block = await call('narocnica', 'POST', `/api/courses/${ids.own}/blocks`, { block: { kind: 'points', name: 'Točke', points: 1 } });
    expect(block.statusCode).toBe(201);
    const blockId = (block.json() as { id: number }).id;
    expect(
      (await call('narocnica', 'PUT', `/api/courses/${ids.own}/blocks/${blockId}`, { kind: 'points', name: 'Kreditne točke', points: 1 })).statusCode,
    ).toBe(200);
    const authored = (await call('narocnica', 'GET', `/api/block?course_id=${ids.own}`)).json() as { items: { name: string }[] };
    expect(authored.items.map((b) => b.name)).toEqual(['Kreditne točke']);
    expect((await call('narocnica', 'POST', `/api/courses/${ids.own}/publish`)).statusCode).toBe(200);
    expect(await listed('narocnica')).toEqual([ids.own]);

    expect((await call('ana', 'GET', `/api/user-courses/${ids.own}`)).statusCode).toBe(200);
    expect((await call('ana', 'POST', `/api/user-courses/${ids.own}/start`)).statusCode).toBe(200);
    expect((await call('bojan', 'GET', `/api/user-courses/${ids.own}`)).statusCode).toBe(404);
    // The admins see and edit it as any course.
    expect(await listed('admin')).toContain(ids.own);
    expect((await call('admin', 'POST', `/api/courses/${ids.own}/unpublish`)).statusCode).toBe(200);
  });

  it('hides the platform’s courses and other communities’ courses from the client (404), refuses what §6 does not grant (403)', async () => {
    const fields = ((await call('admin', 'GET', `/api/courses/${ids.platform}`)).json() as { fields: object }).fields;
    expect((await call('narocnica', 'GET', `/api/courses/${ids.platform}`)).statusCode).toBe(404);
    expect((await call('narocnica', 'PUT', `/api/courses/${ids.platform}`, fields)).statusCode).toBe(404);
    expect((await call('narocnica', 'POST', `/api/courses/${ids.platform}/blocks`, { block: { kind: 'points', name: 'X', points: 1 } })).statusCode).toBe(404);
    expect((await call('narocnikb', 'GET', `/api/courses/${ids.own}`)).statusCode).toBe(404);
    expect((await call('narocnikb', 'POST', `/api/courses/${ids.own}/publish`)).statusCode).toBe(404);
    // No role is granted community course delete (2007).
    expect((await call('narocnica', 'DELETE', `/api/courses/${ids.own}`)).statusCode).toBe(403);
    // Its unit's manager reads the course (2004) but does not author it (no 2006).
    expect((await call('vodja', 'GET', `/api/courses/${ids.own}`)).statusCode).toBe(200);
    expect(await listed('vodja')).toEqual([ids.own]);
    expect((await call('vodja', 'POST', `/api/courses/${ids.own}/publish`)).statusCode).toBe(403);
    expect((await call('vodja', 'POST', '/api/courses', course())).statusCode).toBe(403);
  });

  it('lets a client add a block to the course it created a moment ago, before the read models know it', async () => {
    // The courses read model is held still (its projection waits on the lock), as on a busy platform
    // where the next call comes before the projection has applied the creation.
    const holder = await p.db.connect();
    try {
      await holder.query('begin');
      await holder.query('lock table rm.courses in exclusive mode');
      const send = (method: 'POST', url: string, payload: object) =>
        p.app.inject({ method, url, headers: { authorization: `JWT ${tokens.narocnica}` }, payload });
      const created = await send('POST', '/api/courses', course({ title: 'Takoj napolnjeno' }));
      expect(created.statusCode).toBe(201);
      const id = (created.json() as { id: number }).id;
      const block = await send('POST', `/api/courses/${id}/blocks`, { block: { kind: 'points', name: 'Točke', points: 1 } });
      expect(block.statusCode, block.body).toBe(201);
      // Another community's client is still refused, known to the read model or not.
      const foreign = await p.app.inject({
        method: 'POST',
        url: `/api/courses/${id}/blocks`,
        headers: { authorization: `JWT ${tokens.narocnikb}` },
        payload: { block: { kind: 'points', name: 'Tuje', points: 1 } },
      });
      expect([403, 404]).toContain(foreign.statusCode);
    } finally {
      await holder.query('commit');
      await holder.end();
    }
  });
});
