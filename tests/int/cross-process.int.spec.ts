import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

/**
 * Two platforms on one database, each with its own pools, caches, event store and projection runner,
 * as two API processes are (decision 0035). `a` starts first and holds every projection; `b` is a
 * standby: its reads must still see their own writes, and its course catalogue must follow changes
 * written through `a`.
 */
describe('two API processes on one database', () => {
  let a: TestPlatform;
  let b: TestPlatform;
  const tokens: Record<string, string> = {};

  const call = async (on: TestPlatform, who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, minPosition?: string) =>
    on.app.inject({
      method,
      url,
      headers: { authorization: `JWT ${tokens[who]}`, ...(minPosition ? { 'x-min-position': minPosition } : {}) },
      ...(payload ? { payload } : {}),
    });
  const position = (response: { headers: Record<string, unknown> }) => {
    const value = response.headers['x-event-position'];
    if (typeof value !== 'string') throw new Error('no X-Event-Position');
    return value;
  };
  const holds = (p: TestPlatform, name: string) => p.runner.status().find((s) => s.name === name)?.holdsLock ?? false;

  beforeAll(async () => {
    a = await startTestPlatform();
    for (let i = 0; i < 200 && !a.runner.status().every((s) => s.holdsLock); i++) await new Promise((r) => setTimeout(r, 25));
    b = await startTestPlatform({}, { joinDatabase: a.db.connectionString });
    await a.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.admin = (await a.login('skrbnik')).token;
    const company = await call(a, 'admin', 'POST', '/api/companies', { name: 'Lekarne', address: 'Cesta 1' });
    const companyId = (company.json() as { id: number }).id;
    const unit = await call(a, 'admin', 'POST', '/api/units', { name: 'Center', companyId }, position(company));
    await a.settleAll(position(unit));
    await a.createUser('ana', [{ roleId: ROLE.participant, unitId: (unit.json() as { id: number }).id, companyId }]);
    // Logged in through the standby: its token carries the login's position, which b's reads wait for.
    tokens.ana = (await b.login('ana')).token;
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('serves read-your-writes from a process that runs no projection (it waits for checkpoints another process moves)', async () => {
    expect(holds(a, 'organisation')).toBe(true);
    expect(holds(b, 'organisation')).toBe(false);
    for (let i = 0; i < 20; i++) {
      // Written through either process, read through b at once with the write's position.
      const writer = i % 2 === 0 ? b : a;
      const created = await call(writer, 'admin', 'POST', '/api/tags', { kind: 'course', name: `Značka ${i}` });
      expect(created.statusCode).toBe(201);
      const id = (created.json() as { id: number }).id;
      const read = await call(b, 'admin', 'GET', `/api/tags/${id}`, undefined, position(created));
      expect(read.statusCode, `tag ${i}`).toBe(200);
      expect(read.headers['x-read-stale']).toBeUndefined();
      expect(read.json()).toMatchObject({ id, name: `Značka ${i}` });
    }
    expect(holds(b, 'organisation')).toBe(false);
  });

  it("keeps each process's course catalogue in step with changes another process writes", async () => {
    const fields = { type: 3, description: 'Kratek pregled novosti pri izdaji zdravil.', cover: '/covers/novosti.jpg', creditPoints: 1 };
    const created = await call(a, 'admin', 'POST', '/api/courses', { ...fields, title: 'Novosti 2026', public: true });
    const id = (created.json() as { id: number }).id;
    const block = await call(a, 'admin', 'POST', `/api/courses/${id}/blocks`, { block: { kind: 'article', name: 'Članek', html: '<p>Besedilo</p>' } });
    expect(block.statusCode).toBe(201);
    const published = await call(a, 'admin', 'POST', `/api/courses/${id}/publish`);
    expect(published.statusCode).toBe(200);
    const titles = async (on: TestPlatform, minPosition?: string) => {
      const response = await call(on, 'ana', 'GET', '/api/user-courses', undefined, minPosition);
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-read-stale']).toBeUndefined();
      return (response.json() as { items: { id: number; title: string }[] }).items.filter((c) => c.id === id).map((c) => c.title);
    };
    // b loads its copy of the catalogue (and a its own).
    expect(await titles(b, position(published))).toEqual(['Novosti 2026']);
    expect(await titles(a, position(published))).toEqual(['Novosti 2026']);
    for (const title of ['Novosti v lekarni 2026', 'Novosti v lekarni, jesen 2026']) {
      const changed = await call(a, 'admin', 'PUT', `/api/courses/${id}`, { ...fields, title, public: true });
      expect(changed.statusCode).toBe(200);
      expect(await titles(b, position(changed))).toEqual([title]);
    }
    // Without a position too, once the change is in the read model: the copy's version moved with it.
    const retitled = await call(b, 'admin', 'PUT', `/api/courses/${id}`, { ...fields, title: 'Zadnje novosti', public: true });
    await b.settleAll(position(retitled));
    expect(await titles(a)).toEqual(['Zadnje novosti']);
    expect(await titles(b)).toEqual(['Zadnje novosti']);
    expect(parsePosition(position(retitled))).not.toBeNull();
  });
});
