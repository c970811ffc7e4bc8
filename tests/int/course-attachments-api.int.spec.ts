import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { SAMPLE_PNG } from '../support/sample-png.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

type Attachment = { fileId: number; name: string; contentType: string; size: number };

/** Issue 15 item 7: a course's attachments (jpg, png, gif, pdf, zip up to 25 MB, by content) and covers (jpg, png). */
describe('course attachments API', () => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  let courseId = 0;
  let otherCourse = 0;

  const call = async (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const response = await p.app.inject({ method, url, headers: { authorization: `JWT ${tokens[who]}` }, ...(payload ? { payload } : {}) });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(parsePosition(position));
    return response;
  };
  const upload = (contentType: string, bytes: Buffer, name: string) =>
    p.app.inject({
      method: 'POST',
      url: `/api/files?name=${encodeURIComponent(name)}`,
      headers: { authorization: `JWT ${tokens.admin}`, 'content-type': contentType },
      payload: bytes,
    });
  const uploaded = async (contentType: string, bytes: Buffer, name: string) => {
    const response = await upload(contentType, bytes, name);
    expect(response.statusCode, response.body).toBe(201);
    return (response.json() as { id: number }).id;
  };
  const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(20)]);
  const ZIP = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(30)]);
  const PDF = Buffer.from('%PDF-1.4\n%%EOF\n');
  const course = async (title: string, more: object) => {
    const created = await call('admin', 'POST', '/api/courses', {
      type: 3,
      title,
      description: 'Izobraževanje s prilogami za udeležence.',
      cover: '/c.svg',
      creditPoints: 1,
      ...more,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { id: number }).id;
    await call('admin', 'POST', `/api/courses/${id}/blocks`, { block: { kind: 'points', name: 'Točke', points: 1 } });
    await call('admin', 'POST', `/api/courses/${id}/publish`);
    return id;
  };

  beforeAll(async () => {
    p = await startTestPlatform();
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    const company = (await call('admin', 'POST', '/api/companies', { name: 'Lekarne', address: 'Cesta 1' })).json() as { id: number };
    const unitA = ((await call('admin', 'POST', '/api/units', { name: 'A', companyId: company.id })).json() as { id: number }).id;
    const unitB = ((await call('admin', 'POST', '/api/units', { name: 'B', companyId: company.id })).json() as { id: number }).id;
    await p.createUser('ana', [{ roleId: ROLE.participant, unitId: unitA, companyId: company.id }]);
    await p.createUser('bojan', [{ roleId: ROLE.participant, unitId: unitB, companyId: company.id }]);
    tokens.ana = (await p.login('ana')).token;
    tokens.bojan = (await p.login('bojan')).token;
    courseId = await course('Priloge', { audience: { unitIds: [unitA] } });
    otherCourse = await course('Brez prilog', { public: true });
  });

  afterAll(async () => p.close());

  it('offers jpg, png, gif, pdf and zip files with the course, each once, and lists them for the course team and its participants', async () => {
    const files = {
      png: await uploaded('image/png', SAMPLE_PNG, 'slika.png'),
      gif: await uploaded('image/gif', GIF, 'animacija.gif'),
      zip: await uploaded('application/zip', ZIP, 'gradivo.zip'),
      pdf: await uploaded('application/pdf', PDF, 'navodila.pdf'),
    };
    for (const fileId of Object.values(files)) expect((await call('admin', 'POST', `/api/courses/${courseId}/attachments`, { fileId })).statusCode).toBe(201);
    // Offering the same file again changes nothing.
    expect((await call('admin', 'POST', `/api/courses/${courseId}/attachments`, { fileId: files.pdf })).statusCode).toBe(201);
    const authored = (await call('admin', 'GET', `/api/courses/${courseId}`)).json() as { attachments: Attachment[] };
    expect(authored.attachments.map((a) => [a.name, a.contentType])).toEqual([
      ['slika.png', 'image/png'],
      ['animacija.gif', 'image/gif'],
      ['gradivo.zip', 'application/zip'],
      ['navodila.pdf', 'application/pdf'],
    ]);
    const seen = (await call('ana', 'GET', `/api/user-courses/${courseId}`)).json() as { attachments: Attachment[] };
    expect(seen.attachments).toEqual(authored.attachments);
    // Ana downloads the archive; Bojan, outside the course's audience, is told it does not exist.
    const download = await p.app.inject({ method: 'GET', url: `/api/files/${files.zip}`, headers: { authorization: `JWT ${tokens.ana}` } });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(ZIP)).toBe(true);
    expect((await p.app.inject({ method: 'GET', url: `/api/files/${files.zip}`, headers: { authorization: `JWT ${tokens.bojan}` } })).statusCode).toBe(404);

    // Removed, it is gone for the participant and her download.
    expect((await call('admin', 'DELETE', `/api/courses/${courseId}/attachments/${files.zip}`)).statusCode).toBe(200);
    expect(((await call('ana', 'GET', `/api/user-courses/${courseId}`)).json() as { attachments: Attachment[] }).attachments).toHaveLength(3);
    expect((await p.app.inject({ method: 'GET', url: `/api/files/${files.zip}`, headers: { authorization: `JWT ${tokens.ana}` } })).statusCode).toBe(404);
    expect((await call('admin', 'DELETE', `/api/courses/${courseId}/attachments/${files.zip}`)).statusCode).toBe(404);

    // A copy of the course offers the same files.
    const copy = (await call('admin', 'POST', `/api/courses/${courseId}/duplicate`)).json() as { id: number };
    expect(((await call('admin', 'GET', `/api/courses/${copy.id}`)).json() as { attachments: Attachment[] }).attachments).toHaveLength(3);
  });

  it('refuses a file whose content is not its kind, a kind that is not an attachment, and a file that does not exist', async () => {
    const disguised = await upload('application/zip', Buffer.from('<script>alert(1)</script>'), 'gradivo.zip');
    expect(disguised.statusCode).toBe(400);
    expect(disguised.json()).toEqual({ errors: [{ code: '400', field: 'file', message: 'Vsebina datoteke ne ustreza njeni vrsti.' }] });
    expect((await upload('text/html', Buffer.from('<p>x</p>'), 'x.html')).statusCode).toBe(415);
    const missing = await call('admin', 'POST', `/api/courses/${otherCourse}/attachments`, { fileId: 999_999 });
    expect(missing.json()).toEqual({ errors: [{ code: '400', field: 'fileId', message: 'Izbrana datoteka ne obstaja ali ni na voljo (št. 999999).' }] });
    expect(((await call('admin', 'GET', `/api/courses/${otherCourse}`)).json() as { attachments: Attachment[] }).attachments).toEqual([]);
    expect((await call('ana', 'POST', `/api/courses/${otherCourse}/attachments`, { fileId: 1 })).statusCode).toBe(403);
  });

  it('takes as a cover an uploaded jpg or png, not a pdf, and shows it to those the course is for', async () => {
    const pdf = await uploaded('application/pdf', PDF, 'ovitek.pdf');
    const png = await uploaded('image/png', SAMPLE_PNG, 'ovitek.png');
    const authored = (await call('admin', 'GET', `/api/courses/${courseId}`)).json() as { fields: Record<string, unknown> };
    const refused = await call('admin', 'PUT', `/api/courses/${courseId}`, { ...authored.fields, cover: `/api/files/${pdf}` });
    expect(refused.json()).toEqual({ errors: [{ code: '400', field: 'cover', message: 'Naslovna slika mora biti datoteka JPG ali PNG.' }] });
    expect((await call('admin', 'PUT', `/api/courses/${courseId}`, { ...authored.fields, cover: `/api/files/${png}` })).statusCode).toBe(200);
    expect((await p.app.inject({ method: 'GET', url: `/api/files/${png}`, headers: { authorization: `JWT ${tokens.ana}` } })).statusCode).toBe(200);
    expect((await p.app.inject({ method: 'GET', url: `/api/files/${png}`, headers: { authorization: `JWT ${tokens.bojan}` } })).statusCode).toBe(404);
  });
});
