import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { SAMPLE_PNG } from '../support/sample-png.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

describe('academies API: a series of courses with progress and credit points', () => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  const courseIds: number[] = [];
  let academyId: number;

  const call = async (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const response = await p.app.inject({ method, url, headers: { authorization: `JWT ${tokens[who]}` }, ...(payload ? { payload } : {}) });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string')
      await p.platform.runner.waitFor(['courses', 'academies', 'users', 'organisation'], parsePosition(position) as never, 10_000);
    return response;
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
    // Two courses for unit A (1.5 and 2 points) and a public one (1 point).
    for (const [title, creditPoints, audience] of [
      ['Interakcije zdravil', 1.5, { unitIds: [unitA] }],
      ['Antikoagulanti v praksi', 2, { unitIds: [unitA] }],
      ['Samozdravljenje prehlada', 1, null],
    ] as const) {
      const created = await call('admin', 'POST', '/api/courses', {
        type: 6,
        title,
        description: 'Izobraževanje iz serije lekarniške prakse.',
        cover: '/covers/a.svg',
        creditPoints,
        ...(audience ? { audience } : { public: true }),
      });
      const id = (created.json() as { id: number }).id;
      await call('admin', 'POST', `/api/courses/${id}/blocks`, { block: { kind: 'article', name: 'Besedilo', html: '<p>Vsebina</p>' } });
      await call('admin', 'POST', `/api/courses/${id}/publish`);
      courseIds.push(id);
    }
  });

  afterAll(async () => p.close());

  it('validates an academy and refuses courses that do not exist', async () => {
    const bad = await call('admin', 'POST', '/api/academies', { title: '', description: 'kratko', cover: '/c.svg', courseIds: [] });
    expect(bad.statusCode).toBe(400);
    expect((bad.json() as { errors: { field: string }[] }).errors.map((e) => e.field).sort()).toEqual(['courseIds', 'description', 'title']);
    const missing = await call('admin', 'POST', '/api/academies', {
      title: 'Akademija',
      description: 'Serija izobraževanj za lekarne.',
      cover: '/c.svg',
      courseIds: [courseIds[0], 99_999],
    });
    expect(missing.json()).toEqual({ errors: [{ code: '400', field: 'courseIds', message: 'Izbrano izobraževanje ne obstaja ali ni na voljo (št. 99999).' }] });
    expect(((await call('admin', 'GET', '/api/academies')).json() as { items: unknown[] }).items).toEqual([]);
  });

  it('shows a published academy to participants with the courses they may take, series progress and credit points', async () => {
    const created = await call('admin', 'POST', '/api/academies', {
      title: 'Akademija lekarniške prakse',
      description: 'Serija izobraževanj za vsakdanje delo v lekarni.',
      cover: '/covers/akademija.svg',
      courseIds,
    });
    expect(created.statusCode).toBe(201);
    academyId = (created.json() as { id: number }).id;
    expect((await call('ana', 'GET', `/api/user-academies/${academyId}`)).statusCode).toBe(404);
    expect((await call('ana', 'POST', `/api/academies/${academyId}/publish`)).statusCode).toBe(403);
    expect((await call('admin', 'POST', `/api/academies/${academyId}/publish`)).statusCode).toBe(200);

    const admin = (await call('admin', 'GET', `/api/academies/${academyId}`)).json() as { courses: { id: number }[]; creditPoints: number; published: boolean };
    expect(admin).toMatchObject({ published: true, creditPoints: 4.5 });
    expect(admin.courses.map((c) => c.id)).toEqual(courseIds);
    expect((await call('ana', 'GET', `/api/academies/${academyId}`)).statusCode).toBe(403);

    const ana = (await call('ana', 'GET', `/api/user-academies/${academyId}`)).json() as Record<string, unknown> & { courses: { id: number }[] };
    expect(ana).toMatchObject({ coursesTotal: 3, coursesCompleted: 0, creditPoints: 4.5, creditPointsEarned: 0 });
    // Bojan's unit is not targeted: he sees the academy with the public course only.
    const bojan = (await call('bojan', 'GET', `/api/user-academies/${academyId}`)).json() as Record<string, unknown> & { courses: { id: number }[] };
    expect(bojan.courses.map((c) => c.id)).toEqual([courseIds[2]]);
    expect(bojan).toMatchObject({ coursesTotal: 1, creditPoints: 1 });
  });

  it('counts completed courses and earned points as the participant completes them', async () => {
    const [first] = courseIds;
    expect((await call('ana', 'POST', `/api/user-courses/${first}/start`)).statusCode).toBe(200);
    const blocks = (await call('ana', 'GET', `/api/block?course_id=${first}`)).json() as { items: { id: number }[] };
    expect((await call('ana', 'POST', `/api/user-courses/${first}/blocks/${blocks.items[0]?.id}/open`)).json()).toMatchObject({ completed: true });
    const list = (await call('ana', 'GET', '/api/user-academies')).json() as { items: Record<string, unknown>[] };
    expect(list.items).toEqual([expect.objectContaining({ id: academyId, coursesCompleted: 1, coursesTotal: 3, creditPointsEarned: 1.5 })]);
  });

  it('hides an unpublished or deleted academy from participants', async () => {
    expect((await call('admin', 'POST', `/api/academies/${academyId}/unpublish`)).statusCode).toBe(200);
    expect((await call('ana', 'GET', `/api/user-academies/${academyId}`)).statusCode).toBe(404);
    expect((await call('admin', 'DELETE', `/api/academies/${academyId}`)).statusCode).toBe(200);
    expect((await call('admin', 'GET', `/api/academies/${academyId}`)).statusCode).toBe(404);
    expect((await call('admin', 'POST', `/api/academies/${academyId}/publish`)).statusCode).toBe(404);
  });

  it("gives the academy form each course's credit points from the course list", async () => {
    const list = (await call('admin', 'GET', '/api/courses?sort=title&order=asc&pageSize=100')).json() as { items: { id: number; creditPoints: number }[] };
    expect(Object.fromEntries(list.items.map((c) => [c.id, c.creditPoints]))).toEqual({
      [courseIds[0] as number]: 1.5,
      [courseIds[1] as number]: 2,
      [courseIds[2] as number]: 1,
    });
  });

  it('serves an uploaded academy cover to the participants who see the published academy, and to nobody else', async () => {
    const uploaded = await p.app.inject({
      method: 'POST',
      url: '/api/files?name=akademija.png',
      headers: { authorization: `JWT ${tokens.admin}`, 'content-type': 'image/png' },
      payload: SAMPLE_PNG,
    });
    expect(uploaded.statusCode).toBe(201);
    const cover = `/api/files/${(uploaded.json() as { id: number }).id}`;
    const created = await call('admin', 'POST', '/api/academies', {
      title: 'Akademija antikoagulacije',
      description: 'Serija izobraževanj za enoto A, s svojo sliko.',
      cover,
      courseIds: [courseIds[1]],
    });
    const id = (created.json() as { id: number }).id;
    const read = async (who: string) => (await call(who, 'GET', cover)).statusCode;
    // A draft's cover is the authors' only.
    expect(await read('admin')).toBe(200);
    expect(await read('ana')).toBe(404);
    await call('admin', 'POST', `/api/academies/${id}/publish`);
    expect(((await call('ana', 'GET', `/api/user-academies/${id}`)).json() as { cover: string }).cover).toBe(cover);
    expect(await read('ana')).toBe(200);
    // Bojan's unit is not targeted by the academy's course: he does not see the academy, nor its cover.
    expect(await read('bojan')).toBe(404);
    await call('admin', 'POST', `/api/academies/${id}/unpublish`);
    expect(await read('ana')).toBe(404);
  });
});
