import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import {
  HOSTILE,
  multiScoPackage,
  SCORM12,
  scorm12Package,
  scorm2004Package,
  symlinkPackage,
  unsupportedVersionPackage,
  zipSlipPackage,
} from '../support/content-packages.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

type Launched = {
  standard: string;
  registration: string;
  session: string;
  itemId: string;
  url: string;
  resume: { location: string | null; suspendData: string | null; score: number | null; totalSeconds: number };
};
type BlockRecord = { block_id: number; done: boolean; quizScore?: number | null };

/**
 * Issue 35 items 1 to 3 over the API: an author uploads a package (refused with what is wrong when
 * it is hostile or invalid), adds it as a block with a completion rule; a participant launches it,
 * its files come from the content origin under the launch's token only, its commits are recorded
 * once each (a retry changes nothing, concurrent ones lose nothing), the state resumes on the next
 * launch, and the block is done by the author's rule.
 */
describe('SCORM packages: upload, launch, content origin, runtime data', () => {
  let p: TestPlatform;
  const tokens: { [who: string]: string } = {};

  const call = async (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const response = await p.app.inject({ method, url, headers: { authorization: `JWT ${tokens[who]}` }, ...(payload ? { payload } : {}) });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(parsePosition(position));
    return response;
  };
  const upload = (who: string, zip: Buffer, name = 'paket.zip') =>
    p.app.inject({
      method: 'POST',
      url: `/api/packages?name=${name}`,
      headers: { authorization: `JWT ${tokens[who]}`, 'content-type': 'application/zip' },
      payload: zip,
    });
  const message = (response: { json: () => unknown }) => (response.json() as { errors: { message: string }[] }).errors[0]?.message ?? '';

  const courseWith = async (block: object) => {
    const created = await call('admin', 'POST', '/api/courses', {
      type: 3,
      title: `Paket ${randomUUID().slice(0, 8)}`,
      description: 'Izobraževanje s paketom SCORM za farmacevte.',
      cover: '/c.svg',
      creditPoints: 1,
      public: true,
    });
    const id = (created.json() as { id: number }).id;
    const added = await call('admin', 'POST', `/api/courses/${id}/blocks`, { block });
    expect(added.statusCode, added.body).toBe(201);
    expect((await call('admin', 'POST', `/api/courses/${id}/publish`)).statusCode).toBe(200);
    expect((await call('ana', 'POST', `/api/user-courses/${id}/start`)).statusCode).toBe(200);
    return { id, block: (added.json() as { id: number }).id };
  };
  const launch = async (course: { id: number; block: number }, itemId: string = SCORM12.itemId) => {
    const response = await call('ana', 'POST', `/api/user-courses/${course.id}/blocks/${course.block}/package/launch`, { itemId });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Launched;
  };
  const commit = (course: { id: number; block: number }, launched: { registration: string; session: string }, cmi: object, reportId: string = randomUUID()) =>
    call('ana', 'POST', `/api/user-courses/${course.id}/blocks/${course.block}/package/commit`, {
      registration: launched.registration,
      session: launched.session,
      reportId,
      cmi,
    });
  const record = async (course: { id: number; block: number }) =>
    ((await call('ana', 'GET', `/api/record?course_id=${course.id}`)).json() as { items: BlockRecord[] }).items.find((r) => r.block_id === course.block);
  const contentPath = (url: string) => new URL(url).pathname;
  const packageEvents = async (course: { id: number }, userId: number) =>
    (await p.store.readStream(`enrollment-${course.id}_${userId}`)).events.filter((e) => e.type.startsWith('Package')).map((e) => e.type);

  let anaId = 0;
  let scorm12Id = 0;

  beforeAll(async () => {
    p = await startTestPlatform();
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    anaId = await p.createUser('ana', [{ roleId: ROLE.participant, unitId: 1, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    tokens.ana = (await p.login('ana')).token;
    const uploaded = await upload('admin', scorm12Package());
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    scorm12Id = (uploaded.json() as { id: number }).id;
  });
  afterAll(async () => p.close());

  it('reads what an uploaded package holds, and refuses hostile or invalid ones with what is wrong', async () => {
    const described = await call('admin', 'GET', `/api/packages/${scorm12Id}`);
    expect(described.json()).toMatchObject({
      standard: 'scorm12',
      version: '1.2',
      title: SCORM12.title,
      items: [{ id: SCORM12.itemId, title: SCORM12.itemTitle, masteryScore: SCORM12.masteryScore }],
    });
    const multi = await upload('admin', multiScoPackage());
    expect((multi.json() as { items: unknown[] }).items).toHaveLength(2);
    const v2004 = await upload('admin', scorm2004Package({ edition: 3 }));
    expect(v2004.json()).toMatchObject({ standard: 'scorm2004', version: '2004 3rd Edition' });

    const before = await p.db.pg.query('select count(*)::int as n from public.content_packages');
    for (const [zip, named] of [
      [zipSlipPackage(), HOSTILE.zipSlip],
      [symlinkPackage(), HOSTILE.symlink],
      [unsupportedVersionPackage(), HOSTILE.unsupportedVersion],
    ] as const) {
      const refused = await upload('admin', zip);
      expect(refused.statusCode).toBe(400);
      expect(message(refused)).toContain(named);
    }
    const notZip = await upload('admin', Buffer.from('PK\u0003\u0004 to ni arhiv'));
    expect(notZip.statusCode).toBe(400);
    expect((await p.db.pg.query('select count(*)::int as n from public.content_packages')).rows[0]).toEqual(before.rows[0]);
    // A participant uploads nothing.
    expect((await upload('ana', scorm12Package())).statusCode).toBe(403);
  });

  it("keeps another author's package out of reach, and takes a block's items from the package, not the request", async () => {
    await p.createUser('urednica', [{ roleId: ROLE.client, unitId: 1, companyId: 1 }]);
    tokens.client = (await p.login('urednica')).token;
    // A company's author edits blocks too, but this package is the platform author's: it is not there for her.
    expect((await call('client', 'GET', `/api/packages/${scorm12Id}`)).statusCode).toBe(404);
    const created = await courseWith({ kind: 'package', name: 'Shranjevanje', packageId: scorm12Id, completion: 'completed', items: [] });
    const blocks = (await call('admin', 'GET', `/api/block?course_id=${created.id}`)).json() as {
      items: { id: number; fields: { items: { id: string }[] } }[];
    };
    expect(blocks.items[0]?.fields.items.map((i) => i.id)).toEqual([SCORM12.itemId]);
    const missing = await call('admin', 'POST', `/api/courses/${created.id}/blocks`, {
      block: { kind: 'package', name: 'Ni ga', packageId: 999_999, completion: 'completed' },
    });
    expect(missing.statusCode).toBe(400);
    const noThreshold = await call('admin', 'POST', `/api/courses/${created.id}/blocks`, {
      block: { kind: 'package', name: 'Prag', packageId: scorm12Id, completion: 'score' },
    });
    expect(noThreshold.statusCode).toBe(400);
    expect(message(noThreshold)).toBe('Vnesite prag rezultata');
  });

  it('serves the package only under a launch token, from the content origin, with its own policy', async () => {
    const course = await courseWith({ kind: 'package', name: 'Shranjevanje', packageId: scorm12Id, completion: 'completed' });
    const launched = await launch(course);
    expect(launched.url).toMatch(/\/p\/[\w-]{40,}\/__scorm\/frame\.html$/);
    const frame = await p.contentApp.inject({ method: 'GET', url: contentPath(launched.url) });
    expect(frame.statusCode).toBe(200);
    expect(frame.body).toContain('CrossFrameAPI');
    expect(frame.body).toContain(SCORM12.launch);
    expect(frame.headers['content-security-policy']).toContain(`frame-ancestors 'self' ${new URL(p.config.publicUrl).origin}`);
    const sco = await p.contentApp.inject({ method: 'GET', url: contentPath(launched.url).replace('__scorm/frame.html', SCORM12.launch) });
    expect(sco.statusCode).toBe(200);
    expect(sco.headers['content-type']).toContain('text/html');
    expect(sco.headers['x-content-type-options']).toBe('nosniff');
    // No token, a made-up token, a path out of the package: nothing.
    expect((await p.contentApp.inject({ method: 'GET', url: `/p/${'x'.repeat(43)}/${SCORM12.launch}` })).statusCode).toBe(404);
    expect(
      (await p.contentApp.inject({ method: 'GET', url: contentPath(launched.url).replace('__scorm/frame.html', '..%2F..%2Fetc%2Fpasswd') })).statusCode,
    ).toBe(404);
    // The platform's API does not answer on the content origin, and a session is not accepted there.
    expect((await p.contentApp.inject({ method: 'GET', url: '/api/users/me', headers: { authorization: `JWT ${tokens.ana}` } })).statusCode).toBe(404);
  });

  it('records commits once each, resumes the saved state, and completes the block by the rule', async () => {
    const course = await courseWith({ kind: 'package', name: 'Shranjevanje', packageId: scorm12Id, completion: 'score', threshold: 70 });
    const first = await launch(course);
    expect(first.resume).toMatchObject({ location: null, suspendData: null });
    const page2 = { cmi: { core: { lesson_location: '2', lesson_status: 'incomplete', session_time: '00:00:30' }, suspend_data: 'stran=2' } };
    const reportId = randomUUID();
    expect((await commit(course, first, page2, reportId)).statusCode).toBe(200);
    // The same commit again (a retry), and a commit that changes nothing: no new events.
    await commit(course, first, page2, reportId);
    await commit(course, first, page2);
    expect(await packageEvents(course, anaId)).toEqual(['PackageReported']);

    // Another device: a new launch resumes where the participant left.
    const second = await launch(course);
    expect(second.registration).toBe(first.registration);
    // The first device's tab, still open, commits an older state: refused, so it cannot undo the newer launch's.
    const stale = await commit(course, first, { cmi: { core: { lesson_location: '1', lesson_status: 'incomplete' } } });
    expect(stale.statusCode).toBe(409);
    expect(message(stale)).toContain('drugem oknu ali napravi');
    expect(second.resume).toMatchObject({ location: '2', suspendData: 'stran=2', totalSeconds: 30 });
    expect((await record(course))?.done).toBe(false);

    // Below the threshold: a result, not done; at 80: done and the course completes.
    await commit(course, second, { cmi: { core: { lesson_status: 'failed', score: { raw: '50', min: '0', max: '100' } } } });
    expect((await record(course))?.done).toBe(false);
    const passed = await commit(course, second, { cmi: { core: { lesson_status: 'passed', score: { raw: '80', min: '0', max: '100' } } } });
    expect(passed.json()).toMatchObject({ completed: true });
    expect((await record(course))?.done).toBe(true);
    expect(await packageEvents(course, anaId)).toEqual([
      'PackageReported',
      'PackageReported',
      'PackageScored',
      'PackageReported',
      'PackageScored',
      'PackageCompleted',
    ]);
    // The package's results count in the course's success rates (and its report) as quiz attempts do.
    const success = await call('admin', 'GET', `/api/courses/${course.id}/success`);
    expect(success.statusCode, success.body).toBe(200);
    expect((success.json() as { success: object }).success).toMatchObject({ attempted: 1, passed: 1, completed: 1, averageScore: 80 });
  });

  it("shows per question what the package's participants answered, to the platform's readers of success rates", async () => {
    const course = await courseWith({ kind: 'package', name: 'Shranjevanje', packageId: scorm12Id, completion: 'passed' });
    const launched = await launch(course);
    const interactions = {
      '0': { id: 'q1', type: 'choice', student_response: 'a', result: 'correct' },
      '1': { id: 'q2', type: 'fill-in', student_response: 'v hladilniku', result: 'wrong' },
    };
    await commit(course, launched, { cmi: { core: { lesson_status: 'incomplete' }, interactions } });
    // The same answers restated by the next commit are not recorded again.
    await commit(course, launched, { cmi: { core: { lesson_status: 'passed' }, interactions } });
    const reported = (await p.store.readStream(`enrollment-${course.id}_${anaId}`)).events.filter((e) => e.type === 'PackageReported');
    expect(reported.filter((e) => (e.data as { interactions?: string }).interactions !== undefined)).toHaveLength(1);
    const answers = await call('admin', 'GET', `/api/courses/${course.id}/blocks/${course.block}/answers`);
    expect(answers.statusCode, answers.body).toBe(200);
    expect((answers.json() as { items: unknown[] }).items).toEqual([
      {
        itemId: SCORM12.itemId,
        questionId: 'q1',
        type: 'choice',
        description: null,
        answered: 1,
        correct: 1,
        wrong: 0,
        responses: [{ response: 'a', count: 1 }],
      },
      {
        itemId: SCORM12.itemId,
        questionId: 'q2',
        type: 'fill-in',
        description: null,
        answered: 1,
        correct: 0,
        wrong: 1,
        responses: [{ response: 'v hladilniku', count: 1 }],
      },
    ]);
    // A participant reads no statistics.
    expect((await call('ana', 'GET', `/api/courses/${course.id}/blocks/${course.block}/answers`)).statusCode).toBe(403);
    // The answers are the participant's: in the event log only sealed with their key.
    const raw = await p.db.pg.query<{ data: string }>("select data::text as data from es.events where data::text like '%hladilniku%'");
    expect(raw.rowCount).toBe(0);
  });

  it('loses no commit and duplicates none when commits arrive at once', async () => {
    const course = await courseWith({ kind: 'package', name: 'Shranjevanje', packageId: scorm12Id, completion: 'passed' });
    const launched = await launch(course);
    const ids = Array.from({ length: 8 }, () => randomUUID());
    const responses = await Promise.all(
      ids.flatMap((id, i) => [
        commit(course, launched, { cmi: { core: { lesson_location: String(i + 1) } } }, id),
        commit(course, launched, { cmi: { core: { lesson_location: String(i + 1) } } }, id),
      ]),
    );
    expect(responses.every((r) => r.statusCode === 200)).toBe(true);
    const reported = (await p.store.readStream(`enrollment-${course.id}_${anaId}`)).events.filter((e) => e.type === 'PackageReported');
    expect(new Set(reported.map((e) => (e.data as { reportId: string }).reportId))).toEqual(new Set(ids));
    expect(reported).toHaveLength(ids.length);
  });

  it("takes no commit for another participant's launch", async () => {
    const course = await courseWith({ kind: 'package', name: 'Shranjevanje', packageId: scorm12Id, completion: 'completed' });
    const { registration, session } = await launch(course);
    await p.createUser('bojan', [{ roleId: ROLE.participant, unitId: 1, companyId: null }]);
    tokens.bojan = (await p.login('bojan')).token;
    await call('bojan', 'POST', `/api/user-courses/${course.id}/start`);
    const foreign = await call('bojan', 'POST', `/api/user-courses/${course.id}/blocks/${course.block}/package/commit`, {
      registration,
      session,
      reportId: randomUUID(),
      cmi: { cmi: { core: { lesson_status: 'completed' } } },
    });
    expect(foreign.statusCode).toBe(404);
    expect((await record(course))?.done).toBe(false);
  });
});
