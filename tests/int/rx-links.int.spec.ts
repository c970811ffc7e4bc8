import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { SAMPLE_PNG } from '../support/sample-png.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

/**
 * Issue 36 (decision 0062): a link to an RX course (type 1) never reaches a profession that may not
 * prescribe or supply medicines through a news item or a newsletter issue, however the link is
 * written (HTML character references, percent escapes); the editors learn which linked courses are RX.
 */
describe('links to RX courses in news and newsletters', () => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};

  const call = async (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const response = await p.app.inject({ method, url, headers: { authorization: `JWT ${tokens[who]}` }, ...(payload ? { payload } : {}) });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(parsePosition(position));
    return response;
  };
  const idOf = (response: { json: () => unknown }) => (response.json() as { id: number }).id;
  const profession = (name: string, mayPrescribe: boolean) => ({ name, needsLicenceNumber: false, mayPrescribe });
  const course = async (type: number, title: string, professionIds: number[]) => {
    const created = await call('admin', 'POST', '/api/courses', {
      type,
      title,
      description: 'Izobraževanje za preizkus povezav v novicah.',
      cover: '/c.svg',
      creditPoints: 1,
      audience: { byProfession: true, professionIds },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = idOf(created);
    await call('admin', 'POST', `/api/courses/${id}/blocks`, { block: { kind: 'article', name: 'Besedilo', html: '<p>Vsebina</p>' } });
    expect((await call('admin', 'POST', `/api/courses/${id}/publish`)).statusCode).toBe(200);
    return id;
  };

  beforeAll(async () => {
    p = await startTestPlatform();
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    const company = idOf(await call('admin', 'POST', '/api/companies', { name: 'Lekarne', address: 'Cesta 1' }));
    const unit = idOf(await call('admin', 'POST', '/api/units', { name: 'A', companyId: company }));
    ids.doctor = idOf(await call('admin', 'POST', '/api/professions', profession('Zdravnik', true)));
    ids.nurse = idOf(await call('admin', 'POST', '/api/professions', profession('Medicinska sestra', false)));
    for (const [username, professionId] of [
      ['zdravnik', ids.doctor],
      ['sestra', ids.nurse],
    ] as const) {
      await p.createUser(username, [{ roleId: ROLE.participant, unitId: unit, companyId: company }]);
      tokens[username] = (await p.login(username)).token;
      const me = await call(username, 'PUT', '/api/users/me', { firstName: 'Test', lastName: username, phone: '041 000 000', professionId });
      expect(me.statusCode, me.body).toBe(200);
    }
    ids.rx = await course(1, 'Antikoagulanti Rx', [ids.doctor]);
    ids.otc = await course(2, 'Prehlad', [ids.doctor, ids.nurse]);
  }, 120_000);

  afterAll(async () => p?.close());

  it('keeps a news item from a nurse when its text links the RX course with character references or percent escapes', async () => {
    const now = Date.now();
    const shown = async (who: string) => {
      const response = await call(who, 'GET', '/api/news/user?location=1');
      return response.statusCode === 204 ? null : idOf(response);
    };
    const write = async (htmlContent: string, actionUrl: string | null = null) => {
      const news = await call('admin', 'POST', '/api/news', {
        title: 'Novo izobraževanje',
        htmlContent,
        ...(actionUrl ? { actionUrl, actionButtonText: 'Odpri' } : {}),
        active: true,
        dateFrom: new Date(now - 60_000).toISOString(),
        dateTo: new Date(now + 86_400_000).toISOString(),
      });
      expect(news.statusCode, news.body).toBe(201);
      return idOf(news);
    };
    const stop = (id: number) => call('admin', 'DELETE', `/api/news/${id}`);
    for (const html of [
      `<p>Preberite <a href="&#47;izobrazevanja&#47;${ids.rx}">novo izobraževanje</a>.</p>`,
      `<p>Preberite <a href="%2Fizobrazevanja%2F${ids.rx}">novo izobraževanje</a>.</p>`,
      `<p>Preberite <a href="https://medilearn.test/IZOBRAZEVANJA/${ids.rx}">novo izobraževanje</a>.</p>`,
    ]) {
      const id = await write(html);
      expect(await shown('sestra'), html).toBeNull();
      expect(await shown('zdravnik'), html).toBe(id);
      await stop(id);
    }
    // A link to a course for everyone reaches the nurse.
    const otc = await write(`<p><a href="&#47;izobrazevanja&#47;${ids.otc}">Prehlad</a></p>`);
    expect(await shown('sestra')).toBe(otc);
    await stop(otc);
  });

  it('keeps a newsletter issue (and its cover) from a nurse when its address or description links the RX course', async () => {
    const uploaded = await p.app.inject({
      method: 'POST',
      url: '/api/files?name=novicnik.png',
      headers: { authorization: `JWT ${tokens.admin}`, 'content-type': 'image/png' },
      payload: SAMPLE_PNG,
    });
    const imageUrl = `/api/files/${idOf(uploaded)}`;
    const write = async (title: string, fields: object) => idOf(await call('admin', 'POST', '/api/newsletters', { title, published: true, ...fields }));
    const byUrl = await write('Novosti Rx', { description: 'Novo izobraževanje.', url: `https://medilearn.test/izobrazevanja/${ids.rx}`, imageUrl });
    const byText = await write('Novosti v opisu', { description: `Preberite medilearn.test/izobrazevanja%2F${ids.rx} še danes.` });
    const plain = await write('Novosti za vse', { description: `Preberite /izobrazevanja/${ids.otc}.` });
    const titles = async (who: string) =>
      ((await call(who, 'GET', '/api/user-newsletters')).json() as { items: { title: string }[] }).items.map((n) => n.title);
    expect(await titles('sestra')).toEqual(['Novosti za vse']);
    expect(await titles('zdravnik')).toEqual(['Novosti za vse', 'Novosti v opisu', 'Novosti Rx']);
    for (const id of [byUrl, byText]) {
      expect((await call('sestra', 'GET', `/api/user-newsletters/${id}`)).statusCode).toBe(404);
      expect((await call('zdravnik', 'GET', `/api/user-newsletters/${id}`)).statusCode).toBe(200);
    }
    expect((await call('sestra', 'GET', `/api/user-newsletters/${plain}`)).statusCode).toBe(200);
    expect((await call('sestra', 'GET', imageUrl)).statusCode).toBe(404);
    expect((await call('zdravnik', 'GET', imageUrl)).statusCode).toBe(200);
  });

  it('tells the editors which linked courses are RX, found as the readers’ filter finds them', async () => {
    const ask = (who: string, texts: string[]) => call(who, 'POST', '/api/linked-rx-courses', { texts });
    const answer = await ask('admin', [`/izobrazevanja/${ids.otc}`, `<a href="&#x2F;izobrazevanja&#x2F;${ids.rx}">x</a>`]);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ items: [{ id: ids.rx, title: 'Antikoagulanti Rx' }] });
    expect((await ask('admin', [`/izobrazevanja/${ids.otc}`])).json()).toEqual({ items: [] });
    expect((await ask('sestra', [`/izobrazevanja/${ids.rx}`])).statusCode).toBe(403);
  });
});
