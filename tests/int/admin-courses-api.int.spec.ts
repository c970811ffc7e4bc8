import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

type Item = { id: number; title: string; type: number; published: boolean; status: string; blocksCount: number; gaps: string[] };
type Page = { items: Item[]; total: number };

/** The admins' course list of issue 15 (GET /api/courses, 1017): a page with search, filters, sort, status and publishing gaps. */
describe('admin course list API', () => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};

  const call = async (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const response = await p.app.inject({ method, url, headers: { authorization: `JWT ${tokens[who]}` }, ...(payload ? { payload } : {}) });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(parsePosition(position));
    return response;
  };
  const list = async (query = '') => {
    const response = await call('admin', 'GET', `/api/courses${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Page;
  };
  const titles = (page: Page) => page.items.map((i) => i.title);
  const day = 24 * 3600 * 1000;
  const at = (days: number) => new Date(Date.now() + days * day).toISOString();

  beforeAll(async () => {
    p = await startTestPlatform();
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    await p.createUser('urednica', [{ roleId: ROLE.editor, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    tokens.editor = (await p.login('urednica')).token;
    const company = (await call('admin', 'POST', '/api/companies', { name: 'Lekarne', address: 'Cesta 1' })).json() as { id: number };
    const unit = (await call('admin', 'POST', '/api/units', { name: 'A', companyId: company.id })).json() as { id: number };
    await p.createUser('ana', [{ roleId: ROLE.participant, unitId: unit.id, companyId: company.id }]);
    tokens.ana = (await p.login('ana')).token;
    const course = async (key: string, body: object) => {
      const created = await call('admin', 'POST', '/api/courses', {
        description: 'Izobraževanje za preverjanje seznama.',
        cover: '/c.svg',
        creditPoints: 1,
        ...body,
      });
      expect(created.statusCode, created.body).toBe(201);
      ids[key] = (created.json() as { id: number }).id;
    };
    // Complete but for tags: notifications on, targeted, video, quiz and NPS; published; open now.
    await course('a', { type: 3, title: 'Antikoagulanti', notificationsEnabled: true, audience: { unitIds: [unit.id] } });
    for (const block of [
      { kind: 'video', name: 'Uvod', vimeoId: '76979871' },
      {
        kind: 'quiz',
        name: 'Kviz',
        batchSize: 1,
        successThreshold: 100,
        retries: 1,
        questions: [
          {
            id: 'q',
            text: 'Da?',
            answers: [
              { id: 'a', text: 'Da', correct: true },
              { id: 'b', text: 'Ne' },
            ],
          },
        ],
      },
      { kind: 'nps', name: 'NPS', question: 'Priporočili?', set: 1, reasons: { detractor: [], neutral: [], promoter: [] }, commentEnabled: false },
    ]) {
      expect((await call('admin', 'POST', `/api/courses/${ids.a}/blocks`, { block })).statusCode).toBe(201);
    }
    expect((await call('admin', 'POST', `/api/courses/${ids.a}/publish`)).statusCode).toBe(200);
    // Public, nothing in it, opens in ten days: reserved.
    await course('b', { type: 4, title: 'Betablokatorji', public: true, intervals: [{ startsAt: at(10), stopsAt: at(20) }] });
    // Closed ten days ago: expired.
    await course('c', { type: 3, title: 'Čaji in zdravila', public: true, intervals: [{ startsAt: at(-20), stopsAt: at(-10) }] });
    await course('d', { type: 3, title: 'Cepiva', public: true });
    expect((await call('admin', 'POST', `/api/courses/${ids.d}/archive`)).statusCode).toBe(200);
    await course('gone', { type: 3, title: 'Izbrisano izobraževanje', public: true });
    expect((await call('admin', 'DELETE', `/api/courses/${ids.gone}`)).statusCode).toBe(200);
    const academy = await call('admin', 'POST', '/api/academies', {
      title: 'Akademija',
      description: 'Serija izobraževanj za lekarne.',
      cover: '/c.svg',
      courseIds: [ids.a, ids.c],
    });
    ids.academy = (academy.json() as { id: number }).id;
  });

  afterAll(async () => p.close());

  it('pages the courses, newest change first, deleted ones left out, each with its status and what it lacks for publishing', async () => {
    const page = await list();
    expect(page.total).toBe(4);
    expect(titles(page)).toEqual(['Cepiva', 'Čaji in zdravila', 'Betablokatorji', 'Antikoagulanti']);
    const byTitle = Object.fromEntries(page.items.map((i) => [i.title, i]));
    expect(byTitle.Antikoagulanti).toMatchObject({ type: 3, published: true, status: 'active', blocksCount: 3, gaps: ['tags'] });
    expect(byTitle.Betablokatorji).toMatchObject({ published: false, status: 'reserved', gaps: ['notifications', 'nps', 'quiz', 'tags', 'video'] });
    expect(byTitle['Čaji in zdravila']?.status).toBe('expired');
    expect(byTitle.Cepiva?.status).toBe('archived');
    const second = await list('?pageSize=3&page=2');
    expect(second).toMatchObject({ total: 4, items: [{ title: 'Antikoagulanti' }] });
  });

  it('searches, filters by type, status, publication and academy, and sorts in the Slovenian alphabet', async () => {
    expect(titles(await list('?search=BLOKATOR'))).toEqual(['Betablokatorji']);
    expect(titles(await list('?type=3&sort=title'))).toEqual(['Antikoagulanti', 'Cepiva', 'Čaji in zdravila']);
    expect(titles(await list('?status=reserved'))).toEqual(['Betablokatorji']);
    expect(titles(await list('?status=expired'))).toEqual(['Čaji in zdravila']);
    expect(titles(await list('?status=active'))).toEqual(['Antikoagulanti']);
    expect(titles(await list('?status=deleted'))).toEqual(['Izbrisano izobraževanje']);
    expect(titles(await list('?published=true'))).toEqual(['Antikoagulanti']);
    expect(titles(await list(`?academyId=${ids.academy}&sort=title&order=desc`))).toEqual(['Čaji in zdravila', 'Antikoagulanti']);
    expect((await list('?search=100%25')).total).toBe(0);
  });

  it('is for those who hold 1017 (admin, editor); a participant is refused; bad parameters answer 400', async () => {
    expect((await call('editor', 'GET', '/api/courses')).statusCode).toBe(200);
    expect((await call('ana', 'GET', '/api/courses')).statusCode).toBe(403);
    // Permission before body: a malformed course from someone who may not author is refused for who they are, not for what they sent.
    const malformed = await call('ana', 'POST', '/api/courses', { title: 5, unknown: true });
    expect(malformed.statusCode).toBe(403);
    expect((await p.app.inject({ method: 'POST', url: '/api/courses', payload: { title: 5 } })).statusCode).toBe(401);
    expect((await call('admin', 'POST', '/api/courses', { title: 5 })).statusCode).toBe(400);
    for (const query of ['?type=10', '?status=zaključen', '?published=da', '?sort=cost', '?pageSize=1000', '?academyId=abc']) {
      expect((await call('admin', 'GET', `/api/courses${query}`)).statusCode, query).toBe(400);
    }
  });

  it('duplicates a course with its fields, audience and blocks, unpublished, as "(kopija)"; a missing one fails with the spec message', async () => {
    const copy = await call('admin', 'POST', `/api/courses/${ids.a}/duplicate`);
    expect(copy.statusCode, copy.body).toBe(201);
    const id = (copy.json() as { id: number }).id;
    type Authored = { published: boolean; fields: Record<string, unknown>; blocks: { id: number; kind: string; name: string }[] };
    const read = async (courseId: number) => (await call('admin', 'GET', `/api/courses/${courseId}`)).json() as Authored;
    const [original, duplicate] = [await read(ids.a as number), await read(id)];
    expect(duplicate.published).toBe(false);
    expect(duplicate.fields).toEqual({ ...original.fields, title: 'Antikoagulanti (kopija)' });
    const [from, to] = [original.blocks, duplicate.blocks];
    expect(to.map((b) => [b.kind, b.name])).toEqual(from.map((b) => [b.kind, b.name]));
    expect(to).toHaveLength(3);
    // New blocks of its own: editing the copy leaves the original alone.
    expect(to.map((b) => b.id).some((blockId) => from.some((b) => b.id === blockId))).toBe(false);
    expect((await list('?search=kopija')).items).toMatchObject([{ id, published: false, gaps: ['tags'] }]);
    for (const missing of [999_999, ids.gone]) {
      expect((await call('admin', 'POST', `/api/courses/${missing}/duplicate`)).json()).toEqual({
        errors: [{ code: '404', message: 'Podvajanje izobraževanja ni uspelo.', field: null }],
      });
    }
    expect((await call('ana', 'POST', `/api/courses/${ids.a}/duplicate`)).statusCode).toBe(403);
  });

  it('counts who an audience would reach before it is saved, and lists who took the course with their progress', async () => {
    const count = async (body: object) => {
      const response = await call('admin', 'POST', '/api/courses/audience-count', body);
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as { count: number }).count;
    };
    const nobody = { unitIds: [], companyIds: [], groupIds: [], professionIds: [] };
    // Three active users: the admin, the editor and Ana, who alone holds a role in the unit.
    expect(await count({ public: true, audience: nobody })).toBe(3);
    expect(await count({ public: false, audience: nobody })).toBe(0);
    const unitOf = ((await call('admin', 'GET', `/api/courses/${ids.a}`)).json() as { fields: { audience: { unitIds: number[] } } }).fields.audience.unitIds;
    expect(await count({ public: false, audience: { ...nobody, unitIds: unitOf } })).toBe(1);
    // Organisation and profession must both be met: Ana has no profession.
    const profession = ((await call('admin', 'POST', '/api/professions', { name: 'Poklic štetja' })).json() as { id: number }).id;
    expect(await count({ public: false, audience: { ...nobody, unitIds: unitOf, byProfession: true, professionIds: [profession] } })).toBe(0);
    expect((await call('admin', 'POST', '/api/courses/audience-count', { public: 'da', audience: nobody })).statusCode).toBe(400);

    expect((await call('ana', 'POST', `/api/user-courses/${ids.a}/start`)).statusCode).toBe(200);
    const participants = (await call('admin', 'GET', `/api/courses/${ids.a}/participants`)).json() as { items: object[] };
    expect(participants.items).toEqual([expect.objectContaining({ name: 'Test ana', status: 'started', blocksDone: 0, blocksCount: 3, completedAt: null })]);
    // The list sorted by who took a course: Ana's first, or last the other way round.
    const byEnrolled = (await list('?sort=enrolled')).items as (Item & { enrolled: number })[];
    expect(byEnrolled[0]).toMatchObject({ id: ids.a, enrolled: 1 });
    expect(byEnrolled.slice(1).map((i) => i.enrolled)).toEqual(byEnrolled.slice(1).map(() => 0));
    expect((await list('?sort=enrolled&order=asc')).items.at(-1)?.id).toBe(ids.a);
    expect((await call('admin', 'GET', '/api/courses/999999/participants')).statusCode).toBe(404);
    expect((await call('ana', 'GET', `/api/courses/${ids.a}/participants`)).statusCode).toBe(403);
  });

  it('refuses prerequisites that are no course or lead back in a circle, and audiences naming nothing; what a course already names stays', async () => {
    const fieldsOf = async (id: number) => ((await call('admin', 'GET', `/api/courses/${id}`)).json() as { fields: Record<string, unknown> }).fields;
    const put = async (id: number, fields: object) => call('admin', 'PUT', `/api/courses/${id}`, { ...(await fieldsOf(id)), ...fields });
    const error = (response: { statusCode: number; json: () => unknown }) => {
      expect(response.statusCode).toBe(400);
      return (response.json() as { errors: { field: string; message: string }[] }).errors[0];
    };
    const base = { type: 3, description: 'Izobraževanje za preverjanje pogojev.', cover: '/c.svg', creditPoints: 1, public: true };
    expect(error(await call('admin', 'POST', '/api/courses', { ...base, title: 'Brez pogoja', prerequisites: [999_999] }))).toEqual({
      code: '400',
      field: 'prerequisites',
      message: 'Izbrano izobraževanje ne obstaja ali ni na voljo (št. 999999).',
    });
    expect(error(await call('admin', 'POST', '/api/courses', { ...base, title: 'Tuje podjetje', public: false, audience: { companyIds: [999_999] } }))).toEqual(
      {
        code: '400',
        field: 'audience.companyIds',
        message: 'Izbrano podjetje ne obstaja ali ni na voljo (št. 999999).',
      },
    );
    const made = async (title: string) => ((await call('admin', 'POST', '/api/courses', { ...base, title })).json() as { id: number }).id;
    const [x, y, z] = [await made('Pogoj X'), await made('Pogoj Y'), await made('Pogoj Z')];
    // x needs y, y needs z: z needing x (or y needing x) would close a circle.
    expect((await put(x, { prerequisites: [y] })).statusCode).toBe(200);
    expect((await put(y, { prerequisites: [z] })).statusCode).toBe(200);
    const before = await fieldsOf(z);
    expect(error(await put(z, { prerequisites: [x] }))).toMatchObject({ field: 'prerequisites', message: expect.stringContaining('v krogu') });
    expect(error(await put(y, { prerequisites: [z, x] }))).toMatchObject({ field: 'prerequisites' });
    expect(await fieldsOf(z)).toEqual(before);
    expect((await put(y, { prerequisites: [z, ids.gone] })).statusCode).toBe(400);
    // A course it already needs that is deleted since does not block saving the course's other fields.
    expect((await put(y, { prerequisites: [z] })).statusCode).toBe(200);
    expect((await call('admin', 'DELETE', `/api/courses/${z}`)).statusCode).toBe(200);
    expect((await put(y, { title: 'Pogoj Y (popravljen)' })).statusCode).toBe(200);
    expect((await fieldsOf(y)).title).toBe('Pogoj Y (popravljen)');
  });

  it('keeps every general field of spec §3: tags (the list filters by them and the tags gap goes), reminder, live webinar, e-mails, ids, package', async () => {
    const tag = (await call('admin', 'POST', '/api/tags', { kind: 'course', name: 'Kardiologija', internalUse: false })).json() as { id: number };
    const unitTag = (await call('admin', 'POST', '/api/tags', { kind: 'unit', name: 'Mestna lekarna', internalUse: false })).json() as { id: number };
    const authored = (await call('admin', 'GET', `/api/courses/${ids.a}`)).json() as { fields: Record<string, unknown> };
    const put = (fields: object) => call('admin', 'PUT', `/api/courses/${ids.a}`, { ...authored.fields, ...fields });
    const refused = async (fields: object, field: string, message: string) => {
      const response = await put(fields);
      expect(response.statusCode, response.body).toBe(400);
      expect((response.json() as { errors: { field: string; message: string }[] }).errors).toContainEqual(expect.objectContaining({ field, message }));
    };
    await refused({ tagIds: [unitTag.id] }, 'tagIds', `Izbrana značka ne obstaja (št. ${unitTag.id}).`);
    await refused({ reminder: { everyWeeks: 5, days: [1] } }, 'reminder.everyWeeks', 'Izberite, na koliko tednov');
    await refused({ reminder: { everyWeeks: 2, days: [] } }, 'reminder.days', 'Izberite vsaj en dan v tednu');
    await refused({ notificationEmails: ['ni-e-naslov'] }, 'notificationEmails.0', 'Vnesite veljaven e-naslov');
    await refused({ vimeoId: 'abc' }, 'vimeoId', 'Vimeo ID je številka');
    await refused({ campaignPackage: 4 }, 'campaignPackage', 'Izberite paket');
    const live = { roomId: 'soba-1', startsAt: at(1), stopsAt: at(2), roles: { host: ['gost@lekarne.si'], interpreter: [], moderator: [], presenter: [] } };
    await refused({ live }, 'live', 'Podatki spletnega dogodka veljajo le za izobraževanje v živo');
    await refused({ type: 8, live: { ...live, stopsAt: at(0) } }, 'live.stopsAt', 'Konec mora biti po začetku');
    // Refused input changed nothing.
    expect(((await call('admin', 'GET', `/api/courses/${ids.a}`)).json() as { fields: object }).fields).toEqual(authored.fields);

    const saved = await put({
      tagIds: [tag.id],
      detailNps: true,
      reminder: { everyWeeks: 2, days: [5, 1, 1] },
      notificationEmails: ['obvestila@lekarne.si'],
      vimeoId: '76979871',
      typeformId: 'aBc123',
      campaignPackage: 2,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const fields = ((await call('admin', 'GET', `/api/courses/${ids.a}`)).json() as { fields: Record<string, unknown> }).fields;
    expect(fields).toMatchObject({
      tagIds: [tag.id],
      detailNps: true,
      reminder: { everyWeeks: 2, days: [1, 5] },
      notificationEmails: ['obvestila@lekarne.si'],
      vimeoId: '76979871',
      typeformId: 'aBc123',
      campaignPackage: 2,
      live: null,
    });
    // Tagged, the course lacks nothing for publishing, and the list finds it by its tag.
    expect((await list('?search=Antikoagulanti')).items[0]?.gaps).toEqual([]);
    expect(titles(await list(`?tagId=${tag.id}`))).toEqual(['Antikoagulanti']);

    // A live course keeps its webinar: the room, its times and who hosts it.
    const webinar = await call('admin', 'POST', '/api/courses', {
      type: 8,
      title: 'Spletni seminar',
      description: 'Predavanje v živo za farmacevte.',
      cover: '/c.svg',
      creditPoints: 1,
      public: true,
      live,
    });
    expect(webinar.statusCode, webinar.body).toBe(201);
    const webinarId = (webinar.json() as { id: number }).id;
    expect(((await call('admin', 'GET', `/api/courses/${webinarId}`)).json() as { fields: { live: unknown } }).fields.live).toEqual(live);
  });

  it('hides a powerclass certificate (type 7) from the participant’s lists but not from her academy’s link or her completed courses', async () => {
    const created = await call('admin', 'POST', '/api/courses', {
      type: 7,
      title: 'Certifikat akademije',
      description: 'Zaključni certifikat serije izobraževanj.',
      cover: '/c.svg',
      creditPoints: 2,
      public: true,
    });
    const id = (created.json() as { id: number }).id;
    await call('admin', 'POST', `/api/courses/${id}/blocks`, { block: { kind: 'points', name: 'Točke', points: 2 } });
    await call('admin', 'POST', `/api/courses/${id}/publish`);
    const listed = async (query = '') => ((await call('ana', 'GET', `/api/user-courses${query}`)).json() as { items: { id: number }[] }).items.map((c) => c.id);
    expect(await listed()).not.toContain(id);
    expect(await listed('?filter=new')).not.toContain(id);
    expect((await call('ana', 'GET', `/api/user-courses/${id}`)).statusCode).toBe(200);
    await call('ana', 'POST', `/api/user-courses/${id}/start`);
    const blocks = ((await call('ana', 'GET', `/api/block?course_id=${id}`)).json() as { items: { id: number }[] }).items;
    expect((await call('ana', 'POST', `/api/user-courses/${id}/blocks/${blocks[0]?.id}/open`)).json()).toMatchObject({ completed: true });
    expect(await listed()).not.toContain(id);
    expect(await listed('?filter=completed')).toContain(id);
  });
});
