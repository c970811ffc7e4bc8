import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
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
    const back = await p.app.inject({ method: 'GET', url: `/api/files/${file.id}`, headers: { authorization: `JWT ${tokens.ana}` } });
    expect(back.headers['content-type']).toBe('image/png');
    expect(back.rawPayload.equals(SAMPLE_PNG)).toBe(true);
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
});
