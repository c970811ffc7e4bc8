import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { SAMPLE_PNG } from '../support/sample-png.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

describe('files API: uploads for authors', () => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  const upload = (who: string, contentType: string, body: Buffer, name = 'podpis.png') =>
    p.app.inject({
      method: 'POST',
      url: `/api/files?name=${encodeURIComponent(name)}`,
      headers: { authorization: `JWT ${tokens[who]}`, 'content-type': contentType },
      payload: body,
    });

  beforeAll(async () => {
    p = await startTestPlatform();
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    await p.createUser('ana', [{ roleId: ROLE.participant, unitId: 1, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    tokens.ana = (await p.login('ana')).token;
  });

  afterAll(async () => p.close());

  it('stores a PNG and serves the same bytes back', async () => {
    const stored = await upload('admin', 'image/png', SAMPLE_PNG, 'Podpis direktorice <script>.png');
    expect(stored.statusCode).toBe(201);
    const file = stored.json() as { id: number; name: string; size: number };
    expect(file).toMatchObject({ name: 'Podpis direktorice _script_.png', size: SAMPLE_PNG.length });
    const back = await p.app.inject({ method: 'GET', url: `/api/files/${file.id}`, headers: { authorization: `JWT ${tokens.admin}` } });
    expect(back.headers['content-type']).toBe('image/png');
    expect(back.rawPayload.equals(SAMPLE_PNG)).toBe(true);
  });

  it('serves a file to the browser by the media cookie (an <img> or <video> sends no header), and to nobody without a valid session', async () => {
    const file = (await upload('admin', 'image/png', SAMPLE_PNG)).json() as { id: number };
    const get = (cookie?: string) => p.app.inject({ method: 'GET', url: `/api/files/${file.id}`, headers: cookie ? { cookie } : {} });
    const byCookie = await get(`other=1; medilearn_media=${tokens.admin}`);
    expect(byCookie.statusCode).toBe(200);
    expect(byCookie.rawPayload.equals(SAMPLE_PNG)).toBe(true);
    expect((await get()).statusCode).toBe(401);
    expect((await get('medilearn_media=not.a.token')).statusCode).toBe(401);
    // The cookie is read for stored files only: any other route wants the header.
    const me = await p.app.inject({ method: 'GET', url: '/api/users/me', headers: { cookie: `medilearn_media=${tokens.admin}` } });
    expect(me.statusCode).toBe(401);
  });

  it('refuses other kinds, content that does not match its type, and users who do not author', async () => {
    expect((await upload('admin', 'text/html', Buffer.from('<script>alert(1)</script>'))).statusCode).toBe(415);
    expect((await upload('admin', 'image/png', Buffer.from('<svg onload=alert(1)>'))).json()).toEqual({
      errors: [{ code: '400', field: 'file', message: 'Vsebina datoteke ne ustreza njeni vrsti.' }],
    });
    expect((await upload('ana', 'image/png', SAMPLE_PNG)).statusCode).toBe(403);
    expect((await p.app.inject({ method: 'GET', url: '/api/files/999999', headers: { authorization: `JWT ${tokens.ana}` } })).statusCode).toBe(404);
  });

  it("accepts only an uploaded PNG as a company's signature image", async () => {
    const company = (
      await p.app.inject({
        method: 'POST',
        url: '/api/companies',
        headers: { authorization: `JWT ${tokens.admin}` },
        payload: { name: 'Lekarne', address: 'Cesta 1' },
      })
    ).json() as { id: number };
    const pdf = (await upload('admin', 'application/pdf', Buffer.from('%PDF-1.4\n%%EOF'), 'x.pdf')).json() as { id: number };
    const sign = (imageFileId: number) =>
      p.app.inject({
        method: 'PUT',
        url: `/api/companies/${company.id}/signature`,
        headers: { authorization: `JWT ${tokens.admin}` },
        payload: { name: 'Ana Novak', role: 'Direktorica', imageFileId },
      });
    expect((await sign(pdf.id)).statusCode).toBe(400);
    expect((await sign(999_999)).statusCode).toBe(400);
    const png = (await upload('admin', 'image/png', SAMPLE_PNG)).json() as { id: number };
    expect((await sign(png.id)).statusCode).toBe(200);
  });

  it('serves a file only to those who may see what it belongs to: a signature to its company, not to participants or other companies', async () => {
    const call = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      p.app.inject({ method, url, headers: { authorization: `JWT ${tokens[who]}` }, ...(payload ? { payload } : {}) });
    const companyOf = async (name: string) => ((await call('admin', 'POST', '/api/companies', { name, address: 'Cesta 2' })).json() as { id: number }).id;
    const signing = await companyOf('Podpisnik d.o.o.');
    const other = await companyOf('Drugo d.o.o.');
    const unitOf = async (companyId: number) => (await call('admin', 'POST', '/api/units', { name: `Enota ${companyId}`, companyId })).json() as { id: number };
    const signingUnit = await unitOf(signing);
    const otherUnit = await unitOf(other);
    await p.createUser('vodjapodpis', [{ roleId: ROLE.manager, unitId: signingUnit.id, companyId: signing }]);
    await p.createUser('vodjadrugi', [{ roleId: ROLE.manager, unitId: otherUnit.id, companyId: other }]);
    await p.createUser('revizorka', [{ roleId: ROLE.auditor, unitId: 0, companyId: null }]);
    for (const who of ['vodjapodpis', 'vodjadrugi', 'revizorka']) tokens[who] = (await p.login(who)).token;

    const png = (await upload('admin', 'image/png', SAMPLE_PNG)).json() as { id: number };
    const signed = await call('admin', 'PUT', `/api/companies/${signing}/signature`, { name: 'Ana Novak', role: 'Direktorica', imageFileId: png.id });
    await p.settle(parsePosition(signed.headers['x-event-position'] as string));
    const read = async (who: string) => (await call(who, 'GET', `/api/files/${png.id}`)).statusCode;
    expect(await read('admin')).toBe(200);
    expect(await read('vodjapodpis')).toBe(200);
    // Everyone else is told the file does not exist: an id alone reveals nothing.
    expect(await read('vodjadrugi')).toBe(404);
    expect(await read('ana')).toBe(404);
    expect(await read('revizorka')).toBe(404);
    const loose = (await upload('admin', 'image/png', SAMPLE_PNG)).json() as { id: number };
    expect((await call('vodjapodpis', 'GET', `/api/files/${loose.id}`)).statusCode).toBe(404);
    expect((await p.app.inject({ method: 'GET', url: `/api/files/${loose.id}` })).statusCode).toBe(401);
  });
});
