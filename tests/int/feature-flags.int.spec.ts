import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleCommand } from '../../application/shared/handle-command.ts';
import { courseRule } from '../../domain/courses/course.rules.ts';
import { courseDecider, courseStream } from '../../domain/courses/course.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { SAMPLE_PNG } from '../support/sample-png.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

const ALL = ['VIMEO_UPLOAD', 'S3_UPLOAD', 'ZOOM', 'INTERACTR', 'LIVE_COURSES', 'NEWSLETTERS', 'DELETE_ACCOUNT', 'EXTERNAL_ID'];
const flags = (on: boolean) => Object.fromEntries(ALL.map((name) => [`FEATURE_${name}`, String(on)]));

/** A few bytes that are an MP4 as far as its header goes (a box of type "ftyp"). */
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42', 'latin1'), Buffer.alloc(2048, 7)]);

/**
 * The feature flags of spec §1 switch their features for real (decision 0016): two platforms, one
 * with every flag on and one with every flag off, asked the same things. (Delete account: see
 * profile-api.int.spec.ts, which tests it on and off.)
 */
describe.each([true, false])('feature flags all %s', (on) => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  let unitId: number;
  let professionId: number;

  const call = async (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) => {
    const response = await p.app.inject({
      method,
      url,
      headers: { authorization: `JWT ${tokens[who]}`, ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(parsePosition(position));
    return response;
  };
  const course = (extra: object) => ({
    type: 4,
    title: 'Tečaj',
    description: 'Opis izobraževanja za preizkus zastavic.',
    cover: '/c.jpg',
    creditPoints: 1,
    audience: { unitIds: [unitId] },
    ...extra,
  });
  const createPublished = async (extra: object) => {
    const created = await call('admin', 'POST', '/api/courses', course(extra));
    if (created.statusCode !== 201) return { created, id: 0 };
    const id = (created.json() as { id: number }).id;
    await call('admin', 'POST', `/api/courses/${id}/blocks`, { block: { kind: 'points', name: 'Točke', points: 1 } });
    await call('admin', 'POST', `/api/courses/${id}/publish`);
    return { created, id };
  };

  beforeAll(async () => {
    p = await startTestPlatform(flags(on));
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    const company = (await call('admin', 'POST', '/api/companies', { name: 'Podjetje', address: 'Cesta 1' })).json() as { id: number };
    unitId = ((await call('admin', 'POST', '/api/units', { name: 'Enota', companyId: company.id })).json() as { id: number }).id;
    professionId = ((await call('admin', 'POST', '/api/professions', { name: 'Farmacevt' })).json() as { id: number }).id;
    const userId = await p.createUser('ana', [{ roleId: ROLE.participant, unitId, companyId: company.id }]);
    tokens.ana = (await p.login('ana')).token;
    await call('ana', 'PUT', '/api/users/me', { firstName: 'Ana', lastName: 'Novak', phone: '041 000 000', professionId });
    expect(userId).toBeGreaterThan(0);
  });
  afterAll(async () => p.close());

  it(`reports the flags as configured (${on ? 'on' : 'off'})`, async () => {
    const features = (await p.app.inject({ method: 'GET', url: '/api/features' })).json() as Record<string, boolean>;
    expect(Object.values(features)).toEqual(Array(8).fill(on));
  });

  it('Vimeo upload: a course video is uploaded and served, with ranges, to the course audience; off, the route does not exist', async () => {
    const uploaded = await call('admin', 'POST', '/api/videos?name=uvod.mp4', MP4, { 'content-type': 'video/mp4' });
    if (!on) {
      expect(uploaded.statusCode).toBe(404);
      return;
    }
    expect(uploaded.statusCode).toBe(201);
    const video = uploaded.json() as { fileUrl: string; vimeoId: string | null };
    expect(video).toMatchObject({ vimeoId: null, fileUrl: expect.stringMatching(/^\/api\/files\/\d+$/) });
    expect((await call('admin', 'POST', '/api/videos', Buffer.from('<html>'), { 'content-type': 'video/mp4' })).statusCode).toBe(400);
    // Not in a course yet: the participant is told it does not exist.
    expect((await call('ana', 'GET', video.fileUrl)).statusCode).toBe(404);
    await createPublished({});
    const { id } = await createPublished({ title: 'Z videom' });
    await call('admin', 'POST', `/api/courses/${id}/blocks`, { block: { kind: 'video', name: 'Uvod', fileUrl: video.fileUrl }, position: 0 });
    const whole = await call('ana', 'GET', video.fileUrl);
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(MP4)).toBe(true);
    const part = await call('ana', 'GET', video.fileUrl, undefined, { range: 'bytes=4-11' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 4-11/${MP4.length}`);
    expect(part.rawPayload.toString('latin1')).toBe('ftypmp42');
  });

  it('S3 upload: uploads go to the object store (not the database row) and come back the same; off, into PostgreSQL', async () => {
    const stored = await call('admin', 'POST', '/api/files?name=slika.png', SAMPLE_PNG, { 'content-type': 'image/png' });
    expect(stored.statusCode).toBe(201);
    const id = (stored.json() as { id: number }).id;
    const row = (await p.db.pg.query('select storage, bytes is null as empty, object_key from public.files where id = $1', [id])).rows[0] as {
      storage: string;
      empty: boolean;
      object_key: string | null;
    };
    expect(row).toMatchObject(on ? { storage: 'object', empty: true } : { storage: 'postgres', empty: false, object_key: null });
    const objects = (await readdir(p.config.objectStoreDir, { recursive: true })).filter((name) => name.includes('files/'));
    expect(objects.length > 0).toBe(on);
    expect((await call('admin', 'GET', `/api/files/${id}`)).rawPayload.equals(SAMPLE_PNG)).toBe(true);
  });

  it('Zoom: a course keeps its Zoom link and shows it; off, the link is refused', async () => {
    const { created, id } = await createPublished({ zoomUrl: 'https://us02web.zoom.us/j/123456789' });
    if (!on) {
      expect(created.statusCode).toBe(400);
      expect(created.json()).toEqual({ errors: [{ code: '400', field: 'zoomUrl', message: 'Povezave Zoom na tej platformi niso vključene.' }] });
      return;
    }
    expect(((await call('ana', 'GET', `/api/user-courses/${id}`)).json() as { zoomUrl: string }).zoomUrl).toBe('https://us02web.zoom.us/j/123456789');
    expect((await call('admin', 'POST', '/api/courses', course({ zoomUrl: 'https://zoom.evil.example/j/1' }))).statusCode).toBe(400);
  });

  it('Interactr: the embed code is kept as an Interactr iframe only (scripts and other frames dropped); off, refused', async () => {
    const embed =
      '<iframe src="https://player.interactr.io/abc" width="640" onload="x()"></iframe><script>alert(1)</script><iframe src="https://evil.example/x"></iframe>';
    const { created, id } = await createPublished({ interactrHtml: embed });
    if (!on) {
      expect(created.statusCode).toBe(400);
      expect((created.json() as { errors: { field: string }[] }).errors[0]?.field).toBe('interactrHtml');
      return;
    }
    const shown = ((await call('ana', 'GET', `/api/user-courses/${id}`)).json() as { interactrHtml: string }).interactrHtml;
    expect(shown).toContain('https://player.interactr.io/abc');
    expect(shown).not.toMatch(/script|onload|evil/);
    expect((await call('admin', 'POST', '/api/courses', course({ interactrHtml: '<script>alert(1)</script>' }))).statusCode).toBe(400);
  });

  it('Interactr block: an interactive video block keeps only its Interactr iframe and is done by opening; off, refused', async () => {
    const { id } = await createPublished({});
    const embed = '<iframe src="https://player.interactr.io/xyz" width="640"></iframe><script>alert(1)</script>';
    const added = await call('admin', 'POST', `/api/courses/${id}/blocks`, {
      block: { kind: 'interactr', name: 'Interaktivni video', html: embed },
      position: 0,
    });
    if (!on) {
      expect(added.statusCode).toBe(400);
      expect((added.json() as { errors: { field: string }[] }).errors[0]?.field).toBe('kind');
      return;
    }
    expect(added.statusCode, added.body).toBe(201);
    const blockId = (added.json() as { id: number }).id;
    const blocks = (await call('ana', 'GET', `/api/block?course_id=${id}`)).json() as { items: { id: number; fields: { html?: string } }[] };
    const html = blocks.items.find((b) => b.id === blockId)?.fields.html ?? '';
    expect(html).toContain('https://player.interactr.io/xyz');
    expect(html).not.toContain('script');
    await call('ana', 'POST', `/api/user-courses/${id}/start`);
    expect((await call('ana', 'POST', `/api/user-courses/${id}/blocks/${blockId}/open`)).json()).toMatchObject({ completed: false });
    const bare = await call('admin', 'POST', `/api/courses/${id}/blocks`, { block: { kind: 'interactr', name: 'Prazno', html: '<script>alert(1)</script>' } });
    expect(bare.statusCode).toBe(400);
  });

  it('live courses: type 8 is created and listed; off, refused, and one already there is hidden from participants', async () => {
    const { created, id } = await createPublished({ type: 8, title: 'V živo' });
    if (on) {
      expect(created.statusCode).toBe(201);
      expect(((await call('ana', 'GET', '/api/user-courses')).json() as { items: { id: number }[] }).items.map((c) => c.id)).toContain(id);
      return;
    }
    expect(created.json()).toEqual({ errors: [{ code: '400', field: 'type', message: 'Izobraževanja v živo na tej platformi niso vključena.' }] });
    // A live course written while the feature was on (here: straight into the store) stays out of sight.
    const fields = courseRule.parse(course({ type: 8, title: 'Star prenos v živo' }));
    const written = await handleCommand(p.store, {
      streamName: courseStream(900_001),
      decider: courseDecider,
      command: { type: 'CreateCourse', courseId: 900_001, fields },
      metadata: {},
    });
    await handleCommand(p.store, {
      streamName: courseStream(900_001),
      decider: courseDecider,
      command: { type: 'AddBlock', blockId: 900_001, block: { kind: 'points', name: 'T', points: 1 } },
      metadata: {},
    });
    const published = await handleCommand(p.store, {
      streamName: courseStream(900_001),
      decider: courseDecider,
      command: { type: 'PublishCourse', approval: { steps: null, actorId: null, now: new Date() } },
      metadata: {},
    });
    await p.settleAll(published.position ?? written.position);
    expect(((await call('ana', 'GET', '/api/user-courses')).json() as { items: { id: number }[] }).items.map((c) => c.id)).not.toContain(900_001);
    expect((await call('ana', 'GET', '/api/user-courses/900001')).statusCode).toBe(404);
    expect((await call('ana', 'POST', '/api/user-courses/900001/start')).statusCode).toBe(404);
  });

  it('newsletters: written, published for a profession and read by its members; off, every newsletter route answers 404', async () => {
    const created = await call('admin', 'POST', '/api/newsletters', {
      title: 'Novičnik november',
      issue: '2026/11',
      description: 'Novosti iz farmacije.',
      keywords: ['farmacija'],
      url: 'https://novice.example.si/11',
      professionIds: [professionId],
      published: true,
    });
    if (!on) {
      expect(created.statusCode).toBe(404);
      for (const url of ['/api/newsletters', '/api/user-newsletters', '/api/user-newsletters/1']) expect((await call('ana', 'GET', url)).statusCode).toBe(404);
      return;
    }
    expect(created.statusCode).toBe(201);
    const id = (created.json() as { id: number }).id;
    const other = await call('admin', 'POST', '/api/newsletters', { title: 'Za zdravnike', description: 'Drugo.', professionIds: [999_999] });
    expect(other.json()).toEqual({ errors: [{ code: '400', field: 'professionIds', message: 'Izbrani poklic ne obstaja (št. 999999).' }] });
    const bad = await call('admin', 'POST', '/api/newsletters', { title: '', description: '', url: 'ftp://x' });
    expect((bad.json() as { errors: { field: string }[] }).errors.map((e) => e.field).sort()).toEqual(['description', 'title', 'url']);
    const mine = (await call('ana', 'GET', '/api/user-newsletters')).json() as { items: { id: number; title: string }[] };
    expect(mine.items.map((n) => n.title)).toEqual(['Novičnik november']);
    expect((await call('ana', 'GET', `/api/user-newsletters/${id}`)).statusCode).toBe(200);
    expect((await call('ana', 'GET', '/api/newsletters')).statusCode).toBe(403);
    await call('admin', 'PUT', `/api/newsletters/${id}`, { title: 'Novičnik november', description: 'Novosti.', published: false });
    expect((await call('ana', 'GET', `/api/user-newsletters/${id}`)).statusCode).toBe(404);
  });

  it('external id: a company and a course keep their external id and chamber; off, both are refused and not shown', async () => {
    const company = await call('admin', 'POST', '/api/companies', { name: 'Zunanje', address: 'Pot 2', externalId: 'EXT-7', syncDestination: 2 });
    const courseCreated = await call('admin', 'POST', '/api/courses', course({ externalId: 'TEC-9', syncDestination: 1 }));
    if (!on) {
      expect(company.json()).toEqual({ errors: [{ code: '400', field: 'externalId', message: expect.stringContaining('nista vključena') }] });
      expect(courseCreated.statusCode).toBe(400);
      const plain = (await call('admin', 'POST', '/api/companies', { name: 'Navadno', address: 'Pot 3' })).json() as { id: number };
      expect((await call('admin', 'GET', `/api/companies/${plain.id}`)).json()).toMatchObject({ externalId: null, syncDestination: null });
      return;
    }
    expect((await call('admin', 'GET', `/api/companies/${(company.json() as { id: number }).id}`)).json()).toMatchObject({
      externalId: 'EXT-7',
      syncDestination: 2,
    });
    const read = (await call('admin', 'GET', `/api/courses/${(courseCreated.json() as { id: number }).id}`)).json() as { fields: object };
    expect(read.fields).toMatchObject({ externalId: 'TEC-9', syncDestination: 1 });
  });
});
