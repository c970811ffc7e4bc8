import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE, type RoleId } from '../../domain/permissions/roles.ts';
import { formatPosition, parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { type Fixture, type Fresh, MATRIX, type MatrixRequest, newsBody } from '../support/authorization-matrix.ts';
import { importXlsx } from '../support/import-files.ts';
import { SAMPLE_PNG } from '../support/sample-png.ts';
import { allows, PRINCIPALS, type Principal, type SignedIn } from '../support/spec-access.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

/**
 * The authorization matrix (decision 0016): every route, as each of the seven roles of spec §6,
 * the auditor and an anonymous caller, against a fixture of two companies. The expected answer is
 * derived from the spec's permission ids and scopes (tests/support/spec-access.ts); the test fails
 * on an unexpected allow, on a deny where the spec grants, on a 403 where a foreign id must look
 * missing (404), and on a route that has no row.
 */
describe('authorization matrix', () => {
  let p: TestPlatform;
  let f: Fixture;
  let fresh: Fresh;
  const tokens: Partial<Record<SignedIn, string>> = {};
  let position: string | null = null;
  const USERNAME: Record<SignedIn, string> = {
    admin: 'madmin',
    editor: 'meditor',
    manager: 'mmanager',
    director: 'mdirector',
    accountant: 'maccountant',
    client: 'mclient',
    participant: 'mparticipant',
    auditor: 'mauditor',
  };

  /** A request as the UI sends it: after any write, reads wait for it (X-Min-Position). */
  const send = async (token: string | null, request: MatrixRequest) => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `JWT ${token}`;
    if (position) headers['x-min-position'] = position;
    if (request.raw) headers['content-type'] = request.raw.contentType;
    const response = await p.app.inject({
      method: request.method,
      url: request.url,
      headers,
      ...(request.raw ? { payload: request.raw.bytes } : request.body === undefined ? {} : { payload: request.body as object }),
      // The live stream never ends by itself: its answer is its status.
      ...(request.url === '/api/live' ? { simulate: { end: true, split: false, error: false, close: false }, payloadAsStream: true } : {}),
    });
    const written = response.headers['x-event-position'];
    if (typeof written === 'string') {
      position = written;
      await p.settleAll(parsePosition(written));
    }
    if (request.url === '/api/live') response.stream().destroy();
    return response;
  };

  const admin = async (method: MatrixRequest['method'], url: string, body?: unknown) => {
    const response = await send(tokens.admin as string, { method, url, body });
    if (response.statusCode >= 300) throw new Error(`fixture: ${method} ${url} answered ${response.statusCode} ${response.body}`);
    return response.body ? (response.json() as { id: number }) : { id: 0 };
  };

  beforeAll(async () => {
    p = await startTestPlatform({ FEATURE_DELETE_ACCOUNT: 'true' });
    await p.createUser('madmin', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('madmin')).token;

    const companyA = (await admin('POST', '/api/companies', { name: 'Podjetje A', address: 'Cesta 1' })).id;
    const companyB = (await admin('POST', '/api/companies', { name: 'Podjetje B', address: 'Cesta 2' })).id;
    const unit = async (name: string, companyId: number) => (await admin('POST', '/api/units', { name, companyId })).id;
    const unitA1 = await unit('Enota A1', companyA);
    const unitA2 = await unit('Enota A2', companyA);
    const unitB1 = await unit('Enota B1', companyB);
    const unitJoin = await unit('Enota za pridružitev', companyA);
    for (const id of [unitA1, unitB1, unitJoin]) await admin('POST', `/api/units/${id}/publish`);
    const group = (await admin('POST', '/api/community-groups', { name: 'Skupina matrike', unitIds: [unitA1] })).id;
    const professionGroup = (await admin('POST', '/api/profession-groups', { name: 'Skupina poklicev matrike' })).id;
    const profession = (await admin('POST', '/api/professions', { name: 'Poklic matrike', groupId: professionGroup })).id;
    const unitTag = (await admin('POST', '/api/tags', { kind: 'unit', name: 'Značka matrike' })).id;
    const signatureFile = (
      await p.app.inject({
        method: 'POST',
        url: '/api/files?name=podpis.png',
        headers: { authorization: `JWT ${tokens.admin}`, 'content-type': 'image/png' },
        payload: SAMPLE_PNG,
      })
    ).json() as { id: number };
    await admin('PUT', `/api/companies/${companyA}/signature`, { name: 'Ana Novak', role: 'Direktorica', imageFileId: signatureFile.id });

    const roles: Record<Exclude<SignedIn, 'admin'>, { roleId: RoleId; unitId: number; companyId: number | null }> = {
      editor: { roleId: ROLE.editor, unitId: 0, companyId: null },
      manager: { roleId: ROLE.manager, unitId: unitA1, companyId: companyA },
      director: { roleId: ROLE.director, unitId: 0, companyId: companyA },
      accountant: { roleId: ROLE.accountant, unitId: unitA1, companyId: companyA },
      client: { roleId: ROLE.client, unitId: unitA1, companyId: companyA },
      participant: { roleId: ROLE.participant, unitId: unitA1, companyId: companyA },
      auditor: { roleId: ROLE.auditor, unitId: 0, companyId: null },
    };
    const users = { admin: (JSON.parse((await send(tokens.admin as string, { method: 'GET', url: '/api/users/me' })).body) as { id: number }).id } as Record<
      string,
      number
    >;
    for (const [who, role] of Object.entries(roles) as [Exclude<SignedIn, 'admin'>, (typeof roles)[keyof typeof roles]][]) {
      users[who] = await p.createUser(USERNAME[who], [role]);
      tokens[who] = (await p.login(USERNAME[who])).token;
    }
    users.participantB = await p.createUser('mparticipantb', [{ roleId: ROLE.participant, unitId: unitB1, companyId: companyB }]);
    users.newcomer = await p.createUser('mnewcomer', []);
    const participantB = (await p.login('mparticipantb')).token;

    const course = async (title: string, audience: object, extra: object = {}) =>
      (
        await admin('POST', '/api/courses', {
          type: 4,
          title,
          description: 'Opis izobraževanja za matriko pravic.',
          cover: '/c.jpg',
          creditPoints: 1,
          postsEnabled: true,
          ...audience,
          ...extra,
        })
      ).id;
    const block = async (courseId: number, value: object) => (await admin('POST', `/api/courses/${courseId}/blocks`, { block: value })).id;
    const nps = { kind: 'nps', name: 'Anketa', question: 'Bi priporočili?', set: 1, reasons: { detractor: [], neutral: [], promoter: [] } };
    const courseA = await course('Tečaj A1', { audience: { unitIds: [unitA1] } });
    const blocksA = {
      video: await block(courseA, {
        kind: 'video',
        name: 'Video',
        vimeoId: '76979871',
        durationSeconds: 60,
        alternative: { kind: 'article', html: '<p>Besedilo</p>' },
      }),
      quiz: await block(courseA, {
        kind: 'quiz',
        name: 'Kviz',
        batchSize: 1,
        successThreshold: 100,
        questions: [
          {
            id: 'q1',
            text: 'Ali?',
            answers: [
              { id: 'a', text: 'Da', correct: true },
              { id: 'b', text: 'Ne' },
            ],
          },
        ],
      }),
      nps: await block(courseA, nps),
    };
    await admin('POST', `/api/courses/${courseA}/costs`, { companyId: companyA });
    await admin('POST', `/api/courses/${courseA}/publish`);
    const courseB = await course('Tečaj B1', { audience: { unitIds: [unitB1] } });
    const blocksB = { nps: await block(courseB, nps) };
    await admin('POST', `/api/courses/${courseB}/costs`, { companyId: companyB });
    await admin('POST', `/api/courses/${courseB}/publish`);
    const reports = {
      a: (await admin('POST', `/api/courses/${courseA}/reports`, { intervalId: 0 })).id,
      b: (await admin('POST', `/api/courses/${courseB}/reports`, { intervalId: 0 })).id,
    };
    const coursePublic = await course('Javni tečaj', { public: true });
    await block(coursePublic, { kind: 'points', name: 'Točke', points: 1 });
    await admin('POST', `/api/courses/${coursePublic}/publish`);
    const courseEdit = await course('Tečaj za urejanje', {});
    const blockEdit = await block(courseEdit, { kind: 'points', name: 'Točke', points: 1 });
    await admin('POST', `/api/courses/${courseEdit}/costs`, { companyId: companyA });
    // Courses a community authored (spec §6 course 2005): the fixture's client in A1, and a client of B1.
    const asUser = async (token: string, method: 'POST' | 'PUT', url: string, body: object) =>
      JSON.parse((await send(token, { method, url, body })).body) as { id: number };
    const communityCourse = async (token: string, unitId: number) =>
      (
        await asUser(token, 'POST', '/api/courses', {
          type: 3,
          title: `Tečaj skupnosti ${unitId}`,
          description: 'Opis izobraževanja, ki ga je pripravila skupnost.',
          cover: '/c.jpg',
          creditPoints: 1,
          audience: { unitIds: [unitId] },
        })
      ).id;
    await p.createUser('mclientb', [{ roleId: ROLE.client, unitId: unitB1, companyId: companyB }]);
    const clientB = (await p.login('mclientb')).token;
    const courseOwnedA1 = await communityCourse(tokens.client as string, unitA1);
    const blockOwnedA1 = (
      await asUser(tokens.client as string, 'POST', `/api/courses/${courseOwnedA1}/blocks`, { block: { kind: 'points', name: 'Točke', points: 1 } })
    ).id;
    const courseOwnedB1 = await communityCourse(clientB, unitB1);
    const academy = (
      await admin('POST', '/api/academies', {
        title: 'Akademija matrike',
        description: 'Opis akademije za matriko pravic.',
        cover: '/a.jpg',
        courseIds: [coursePublic, courseA],
      })
    ).id;
    await admin('POST', `/api/academies/${academy}/publish`);
    const postAs = async (token: string, courseId: number) =>
      (JSON.parse((await send(token, { method: 'POST', url: '/api/post', body: { courseId, message: 'Vprašanje udeleženca.' } })).body) as { id: number }).id;
    const postA = await postAs(tokens.participant as string, courseA);
    const postB = await postAs(participantB, courseB);
    const newsletter = (await admin('POST', '/api/newsletters', { title: 'Novičnik matrike', description: 'Novosti.', published: true })).id;
    const news = {
      everyone: (await admin('POST', '/api/news', newsBody('Novica za vse', true))).id,
      a1: (await admin('POST', '/api/news', newsBody('Novica za A1', true, { unitIds: [unitA1] }))).id,
      b1: (await admin('POST', '/api/news', newsBody('Novica za B1', true, { unitIds: [unitB1] }))).id,
    };

    f = {
      companyA,
      companyB,
      unitA1,
      unitA2,
      unitB1,
      unitJoin,
      group,
      profession,
      professionGroup,
      unitTag,
      signatureFile: signatureFile.id,
      courseA,
      courseB,
      coursePublic,
      courseEdit,
      courseOwnedA1,
      courseOwnedB1,
      blockOwnedA1,
      blocksA,
      blocksB,
      blockEdit,
      academy,
      postA,
      postB,
      newsletter,
      news,
      reports,
      users: users as Fixture['users'],
    };
    let serial = 0;
    const next = () => {
      serial += 1;
      return String(serial);
    };
    fresh = {
      company: async () => (await admin('POST', '/api/companies', { name: `Začasno ${next()}`, address: 'Pot 1' })).id,
      unit: async (companyId) => (await admin('POST', '/api/units', { name: `Začasna enota ${next()}`, companyId })).id,
      group: async () => (await admin('POST', '/api/community-groups', { name: `Začasna skupina ${next()}`, unitIds: [] })).id,
      course: async () => course(`Začasni tečaj ${next()}`, {}),
      block: async (courseId) => block(courseId, { kind: 'points', name: `Točke ${next()}`, points: 1 }),
      attachment: async (courseId) => {
        const file = (
          await p.app.inject({
            method: 'POST',
            url: `/api/files?name=priponka-${next()}.png`,
            headers: { authorization: `JWT ${tokens.admin}`, 'content-type': 'image/png' },
            payload: SAMPLE_PNG,
          })
        ).json() as { id: number };
        await admin('POST', `/api/courses/${courseId}/attachments`, { fileId: file.id });
        return file.id;
      },
      academy: async () =>
        (
          await admin('POST', '/api/academies', {
            title: `Začasna akademija ${next()}`,
            description: 'Opis akademije za matriko pravic.',
            cover: '/a.jpg',
            courseIds: [coursePublic],
          })
        ).id,
      post: async (author, courseId) => postAs((author === 'participantB' ? participantB : tokens[author]) as string, courseId),
      loginToken: async (userId) => ((await admin('POST', `/api/users/${userId}/login-tokens`)) as unknown as { token: string }).token,
      tag: async () => (await admin('POST', '/api/tags', { kind: 'unit', name: `Začasna značka ${next()}` })).id,
      newsletter: async () => (await admin('POST', '/api/newsletters', { title: `Začasni novičnik ${next()}`, description: 'Novosti.' })).id,
      news: async () => (await admin('POST', '/api/news', newsBody(`Začasna novica ${next()}`, false))).id,
      profession: async () => (await admin('POST', '/api/professions', { name: `Začasni poklic ${next()}` })).id,
      user: async (unitId, companyId) => {
        const n = next();
        return (
          await admin('POST', '/api/users', {
            username: `mzacasni${n}`,
            email: `mzacasni${n}@matrika.si`,
            firstName: 'Začasni',
            lastName: 'Uporabnik',
            phone: '041 000 000',
            professionId: profession,
            roles: [{ roleId: ROLE.participant, companyId, unitId }],
            sendWelcome: false,
          })
        ).id;
      },
      userImport: async () => {
        const n = next();
        const row = { username: `muvozz${n}`, email: `muvozz${n}@matrika.si`, firstName: 'Uvoz', lastName: 'Matrike', phone: '041 000 000' };
        const response = await send(tokens.admin as string, {
          method: 'POST',
          url: `/api/imports?name=matrika-${n}.xlsx`,
          raw: {
            contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            bytes: await importXlsx([{ ...row, company: 'Podjetje A', unit: 'Enota A1' }]),
          },
        });
        if (response.statusCode !== 201) throw new Error(`import: ${response.statusCode} ${response.body}`);
        return (response.json() as { id: number }).id;
      },
      changeRequest: async (userId) => {
        const response = await send(tokens.manager as string, {
          method: 'POST',
          url: `/api/users/${userId}/change-requests`,
          body: { kind: 'other', description: 'Napačen priimek.' },
        });
        if (response.statusCode !== 201) throw new Error(`change request: ${response.statusCode} ${response.body}`);
        return (response.json() as { id: string }).id;
      },
      export: async (request) => (await admin('POST', '/api/exports', request)).id,
    };
  }, 180_000);

  afterAll(async () => p?.close());

  it('has a row for every route of the API, and no row for a route that does not exist', () => {
    const routes = new Set(p.app.routeCatalogue().map((r) => `${r.method} ${r.url}`));
    const covered = new Set(MATRIX.map((c) => c.route));
    expect(
      [...routes].filter((r) => !covered.has(r)),
      'routes without a matrix row',
    ).toEqual([]);
    expect(
      [...covered].filter((r) => !routes.has(r)),
      'matrix rows for routes that do not exist',
    ).toEqual([]);
  });

  it('lets in exactly whom spec §6 grants, refuses the rest (401, 403, or 404 where a foreign id must look missing)', async () => {
    const mismatches: string[] = [];
    let checked = 0;
    for (const [index, c] of MATRIX.entries()) {
      for (const who of PRINCIPALS) {
        const requests = await c.requests(f, fresh, who, `${index}-${who}`);
        const allowed = allows(who, c.allow);
        const expected = allowed
          ? (c.outcome ?? '2xx')
          : who === 'anonymous'
            ? 401
            : c.refusedByField && allows(who, c.refusedByField)
              ? 400
              : c.hideFrom && allows(who, c.hideFrom)
                ? 404
                : 403;
        for (const request of requests) {
          let token: string | null = who === 'anonymous' ? null : (tokens[who] as string);
          if (request.ownSession && token) token = (await p.login(USERNAME[who as SignedIn])).token;
          const response = await send(token, request);
          checked += 1;
          const status = response.statusCode;
          const ok = expected === '2xx' ? status >= 200 && status < 300 : status === expected;
          if (!ok) mismatches.push(`${c.route} [${c.label}] as ${who}: expected ${expected}, got ${status} ${response.body.slice(0, 160)}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(checked).toBeGreaterThan(1000);
  }, 600_000);

  it('describes each principal the way the fixture made them (the matrix rests on it)', () => {
    const expectations: [Principal, boolean][] = [
      ['manager', allows('manager', { community: 2001, in: 'A1' })],
      ['director', allows('director', { community: 2001, in: 'A2' })],
      ['accountant', !allows('accountant', { community: 2001, in: 'A1' })],
      ['client', allows('client', { community: 1042 })],
      ['participant', allows('participant', { membership: 1045 })],
      ['auditor', allows('auditor', { system: 1070 }) && !allows('auditor', { membership: 1045 })],
    ];
    for (const [who, holds] of expectations) expect(holds, who).toBe(true);
    expect(formatPosition).toBeTypeOf('function');
  });
});
