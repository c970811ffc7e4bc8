import type { AddressInfo } from 'node:net';
import type Cmi5Types from '@xapi/cmi5';
import { Window } from 'happy-dom';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lrsPorts } from '../../application/lrs/lrs.module.ts';
import type { LrsDeps } from '../../application/lrs/lrs.ts';
import { storeStatements } from '../../application/lrs/store-statements.ts';
import { lrsClientStatementStream } from '../../domain/lrs/lrs-client-statement.ts';
import { CMI5_CATEGORY, CMI5_EXTENSIONS, CMI5_VERBS, MOVEON_CATEGORY } from '../../domain/lrs/xapi.ts';
import type { Cmi5Outcome, PackageLaunch } from '../../domain/packages/package-launch.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { ERASED_PERSON } from '../../domain/shared/event.ts';
import { START } from '../../infrastructure/event-store/event-store.port.ts';
import { createPostgresFileStore } from '../../infrastructure/files/postgres-file-store.ts';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { createPackageLaunchStore } from '../../infrastructure/packages/package-launch-store.ts';
import { createPackageStore } from '../../infrastructure/packages/package-store.ts';
import { lrsProjection } from '../../projections/lrs/lrs.projection.ts';
import { givenProjected } from '../support/projection-spec.ts';
import { readAllPages } from '../support/read-all-pages.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

/**
 * The platform as the LRS of cmi5 AUs (issue 35 item 4), over its HTTP API against the real
 * PostgreSQL: the whole cmi5 session as the @xapi/cmi5 library runs it (in Node, over real HTTP),
 * the cmi5 rules, validation, the outside client's idempotent writes, the statement query with
 * every filter and its continuation, who reads what, CORS, and a rebuild of the read model.
 */
/** The library's package names only a browser build and an ES module (no Node entry): its ES module, loaded by path. */
type Cmi5Class = typeof Cmi5Types.default;
const CMI5_MODULE = '@xapi/cmi5/dist/Cmi5.esm.js';
const CONTENT_ORIGIN = 'http://inhalt.localhost:4999';

const CLIENT = { key: 'lrs-odjemalec', secret: 'skrivnost-odjemalca-1234' };
const AU = 'https://medilearn.example/cmi5/au/hramba-cepiv';
const XAPI = { 'x-experience-api-version': '1.0.3' };
const basic = (credential: string) => `Basic ${credential}`;
const clientAuth = basic(Buffer.from(`${CLIENT.key}:${CLIENT.secret}`).toString('base64'));

describe('the platform as the LRS of cmi5 AUs', () => {
  let p: TestPlatform;
  let base: string;
  let lrs: ReturnType<typeof lrsPorts>;
  let launches: ReturnType<typeof createPackageLaunchStore>;
  let deps: LrsDeps;
  let Cmi5: Cmi5Class;
  let page: Window;
  let packageId: number;
  let courseA: number;
  const users = { participant: 0, participantB: 0 };
  const tokens = { admin: '', managerA: '', managerB: '', participant: '' };
  const outcomes: Cmi5Outcome[] = [];

  type Sent = {
    method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS';
    auth?: string | null;
    body?: unknown;
    headers?: Record<string, string>;
    version?: boolean;
  };
  const xapi = async (url: string, options: Sent = {}) => {
    const headers: Record<string, string> = { ...(options.version === false ? {} : XAPI), ...(options.headers ?? {}) };
    if (options.auth) headers.authorization = options.auth;
    const body = options.body;
    if (body !== undefined && typeof body !== 'string') headers['content-type'] ??= 'application/json';
    return p.app.inject({
      method: options.method ?? 'GET',
      url,
      headers,
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  };
  const asAdmin = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    p.app.inject({ method, url, headers: { authorization: `JWT ${tokens.admin}` }, ...(payload ? { payload } : {}) }).then((r) => {
      if (r.statusCode >= 300) throw new Error(`${method} ${url}: ${r.statusCode} ${r.body}`);
      return r.json() as { id: number };
    });

  /** A cmi5 launch of the AU for a participant, prepared as the player prepares it. */
  const launchFor = async (userId: number, courseId = courseA, blockId = 1, registration?: string) => {
    const { launch, fetchToken } = await launches.create(
      {
        ...(registration ? { registration } : {}),
        packageId,
        courseId,
        blockId,
        userId,
        itemId: AU,
        standard: 'cmi5',
        activityId: AU,
        moveOn: 'CompletedAndPassed',
        masteryScore: 0.8,
        launchParameters: null,
      },
      new Date(),
    );
    const prepared = await lrs.prepareCmi5Launch(launch, { fetchToken });
    return { launch, fetchToken, prepared };
  };
  const redeem = async (fetchToken: string) =>
    (await xapi(`/xapi/cmi5/fetch/${fetchToken}`, { method: 'POST', version: false })).json() as Record<string, string>;
  /** A launch whose AU holds its auth token and sent "initialized". */
  const started = async (userId: number) => {
    const l = await launchFor(userId);
    const auth = basic((await redeem(l.fetchToken))['auth-token'] as string);
    const initialized = statement(l.launch, l.prepared.actor, 'initialized');
    expect((await xapi('/xapi/statements', { method: 'POST', auth, body: initialized })).statusCode).toBe(200);
    return { ...l, auth };
  };

  let counter = 0;
  /** A statement of a launch's session as the cmi5 library builds one. */
  const statement = (
    launch: PackageLaunch,
    actor: object,
    verb: keyof typeof CMI5_VERBS | string,
    extra: { result?: object; moveOn?: boolean; defined?: boolean } = {},
  ) => {
    counter += 1;
    const id = `10000000-0000-4000-8000-${String(counter).padStart(12, '0')}`;
    return {
      id,
      actor,
      verb: { id: verb in CMI5_VERBS ? CMI5_VERBS[verb as keyof typeof CMI5_VERBS] : verb },
      object: { objectType: 'Activity', id: AU },
      ...(extra.result ? { result: extra.result } : {}),
      context: {
        registration: launch.registration,
        contextActivities: {
          category: [...(extra.defined === false ? [] : [{ id: CMI5_CATEGORY }]), ...(extra.moveOn ? [{ id: MOVEON_CATEGORY }] : [])],
          grouping: [{ id: AU }],
        },
        extensions: { [CMI5_EXTENSIONS.sessionId]: launch.sessionId },
      },
      timestamp: new Date().toISOString(),
    };
  };
  const clientStatement = (n: number, extra: { verb?: string; activity?: string; mbox?: string; registration?: string } = {}) => ({
    id: `20000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    actor: { objectType: 'Agent', mbox: extra.mbox ?? 'mailto:ana@zunanji.si' },
    verb: { id: extra.verb ?? 'http://adlnet.gov/expapi/verbs/experienced', display: { 'en-US': 'experienced' } },
    object: { objectType: 'Activity', id: extra.activity ?? 'https://zunanji.si/aktivnost/1' },
    ...(extra.registration ? { context: { registration: extra.registration } } : {}),
  });

  beforeAll(async () => {
    // The AU runs in a page of the content origin: a DOM's XMLHttpRequest (the library's bundled axios has no Node adapter, and
    // looks for one when loaded), so its requests are cross-origin and pass only with the LRS's CORS answers.
    page = new Window({ url: `${CONTENT_ORIGIN}/p/zeton/au/index.html` });
    (globalThis as Record<string, unknown>).XMLHttpRequest = page.XMLHttpRequest;
    Cmi5 = ((await import(CMI5_MODULE)) as { default: Cmi5Class }).default;
    p = await startTestPlatform({ LRS_CLIENT_KEY: CLIENT.key, LRS_CLIENT_SECRET: CLIENT.secret, CONTENT_ORIGIN });
    await p.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(p.app.server.address() as AddressInfo).port}`;
    launches = createPackageLaunchStore(p.db.pg);
    deps = {
      store: p.store,
      db: p.db.slonik,
      readModels: { catchUp: async () => {} },
      now: () => new Date(),
      publicUrl: p.config.publicUrl,
      contentOrigin: p.config.packages.contentOrigin,
      lrsClient: p.config.lrsClient,
      packageLaunches: launches,
      recordCmi5Outcome: async (_launch, outcome) => {
        outcomes.push(outcome);
      },
      log: silentLog,
    };
    lrs = lrsPorts({ ...deps, settings: p.config });
    const stored = await createPackageStore(p.db.pg, createPostgresFileStore(p.db.pg)).save({
      name: 'hramba-cepiv.zip',
      zip: Buffer.from('PK'),
      files: new Map([['au/index.html', Buffer.from('<!doctype html><title>AU</title>')]]),
      structure: {
        standard: 'cmi5',
        version: '1.0',
        title: 'Hramba cepiv',
        identifier: 'https://medilearn.example/cmi5/tecaji/hramba-cepiv',
        items: [{ id: AU, title: 'Shranjevanje cepiv', launch: 'au/index.html', masteryScore: 80, moveOn: 'CompletedAndPassed', launchParameters: null }],
      },
      createdBy: null,
    });
    packageId = stored.id;

    await p.createUser('lrsadmin', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('lrsadmin')).token;
    const companyA = (await asAdmin('POST', '/api/companies', { name: 'Lekarna A', address: 'Cesta 1' })).id;
    const companyB = (await asAdmin('POST', '/api/companies', { name: 'Lekarna B', address: 'Cesta 2' })).id;
    const unitA1 = (await asAdmin('POST', '/api/units', { name: 'Enota A1', companyId: companyA })).id;
    const unitB1 = (await asAdmin('POST', '/api/units', { name: 'Enota B1', companyId: companyB })).id;
    for (const id of [unitA1, unitB1]) await asAdmin('POST', `/api/units/${id}/publish`);
    courseA = (
      await asAdmin('POST', '/api/courses', {
        type: 4,
        title: 'Hramba cepiv',
        description: 'Tečaj s paketom cmi5 za preizkus LRS.',
        cover: '/c.jpg',
        creditPoints: 1,
        postsEnabled: false,
        audience: { unitIds: [unitA1] },
      })
    ).id;
    users.participant = await p.createUser('lrsudelezenec', [{ roleId: ROLE.participant, unitId: unitA1, companyId: companyA }]);
    users.participantB = await p.createUser('lrsudelezenecb', [{ roleId: ROLE.participant, unitId: unitB1, companyId: companyB }]);
    await p.createUser('lrsvodjaa', [{ roleId: ROLE.manager, unitId: unitA1, companyId: companyA }]);
    await p.createUser('lrsvodjab', [{ roleId: ROLE.manager, unitId: unitB1, companyId: companyB }]);
    tokens.managerA = (await p.login('lrsvodjaa')).token;
    tokens.managerB = (await p.login('lrsvodjab')).token;
    tokens.participant = (await p.login('lrsudelezenec')).token;
  }, 180_000);

  afterAll(async () => {
    await p?.close();
    await page?.happyDOM.close();
  });

  it('runs a whole cmi5 session as the @xapi/cmi5 library does it, over HTTP: fetch once, LaunchData, preferences, the defined statements', async () => {
    const { launch, fetchToken, prepared } = await launchFor(users.participant);
    expect(prepared.launchQuery).toContain(`registration=${launch.registration}`);
    const au = new Cmi5({
      endpoint: `${base}/xapi/`,
      fetch: `${base}/xapi/cmi5/fetch/${fetchToken}`,
      actor: prepared.actor as never,
      registration: launch.registration,
      activityId: launch.activityId,
    });
    await au.initialize();
    expect(au.getLaunchData()).toMatchObject({ launchMode: 'Normal', moveOn: 'CompletedAndPassed', masteryScore: 0.8 });
    expect(au.getLaunchData().contextTemplate.extensions?.[CMI5_EXTENSIONS.sessionId]).toBe(launch.sessionId);
    expect(au.getLearnerPreferences()).toEqual({ languagePreference: 'sl-SI' });
    await au.progress(50);
    await au.complete();
    // The library itself refuses a score under the mastery score; the LRS would too (below).
    await au.pass(0.9);
    await au.terminate();
    // Nothing after terminated.
    await expect(au.progress(60)).rejects.toMatchObject({ response: { status: 403 } });

    // The fetch URL is one-time (cmi5 §8.2.3): a second post answers the cmi5 error, with 200.
    const again = await xapi(`/xapi/cmi5/fetch/${fetchToken}`, { method: 'POST', version: false });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ 'error-code': '1', 'error-text': expect.any(String) });

    const read = await xapi(`/xapi/statements?registration=${launch.registration}&ascending=true`, { auth: `JWT ${tokens.admin}` });
    expect(read.statusCode).toBe(200);
    const verbs = (read.json() as { statements: { verb: { id: string } }[] }).statements.map((s) => s.verb.id.split('/').pop());
    expect(verbs).toEqual(['launched', 'initialized', 'progressed', 'completed', 'passed', 'terminated']);
    const passed = (read.json() as { statements: { verb: { id: string }; result?: { score?: { scaled: number } } }[] }).statements[4];
    expect(passed?.result?.score?.scaled).toBe(0.9);
  });

  it('refuses what breaks the cmi5 rules (403), what is not xAPI (400 naming each problem), and callers without a valid token (401)', async () => {
    const l = await launchFor(users.participant, courseA, 2);
    const auth = basic((await redeem(l.fetchToken))['auth-token'] as string);
    const post = (body: unknown, options: Sent = {}) => xapi('/xapi/statements', { method: 'POST', auth, body, ...options });

    expect((await post(statement(l.launch, l.prepared.actor, 'http://adlnet.gov/expapi/verbs/progressed', { defined: false }))).statusCode).toBe(403);
    expect((await post(statement(l.launch, l.prepared.actor, 'initialized'))).statusCode).toBe(200);
    const invalid = await post({ actor: l.prepared.actor, verb: { id: 'ni-iri' } });
    expect(invalid.statusCode).toBe(400);
    const fields = (invalid.json() as { errors: { field: string; message: string }[] }).errors.map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['verb.id', 'object']));
    const other = { objectType: 'Agent', account: { homePage: p.config.publicUrl, name: String(users.participantB) } };
    expect((await post(statement(l.launch, other, 'http://adlnet.gov/expapi/verbs/progressed', { defined: false }))).statusCode).toBe(403);
    const elsewhere = statement(l.launch, l.prepared.actor, 'http://adlnet.gov/expapi/verbs/progressed', { defined: false });
    expect((await post({ ...elsewhere, context: { ...elsewhere.context, registration: crypto.randomUUID() } })).statusCode).toBe(403);
    expect((await post(statement(l.launch, l.prepared.actor, 'completed', { result: { completion: true }, moveOn: true }))).statusCode).toBe(403);
    expect(
      (await post(statement(l.launch, l.prepared.actor, 'passed', { result: { success: true, score: { scaled: 0.5 }, duration: 'PT1M' }, moveOn: true })))
        .statusCode,
    ).toBe(403);
    const failed = await post(
      statement(l.launch, l.prepared.actor, 'failed', { result: { success: false, score: { scaled: 0.5 }, duration: 'PT1M' }, moveOn: true }),
    );
    expect(failed.statusCode).toBe(200);
    expect((await post(statement(l.launch, l.prepared.actor, 'passed', { result: { success: true, duration: 'PT1M' }, moveOn: true }))).statusCode).toBe(403);
    // A batch is stored whole or not at all.
    const good = statement(l.launch, l.prepared.actor, 'http://adlnet.gov/expapi/verbs/progressed', { defined: false });
    expect((await post([good, statement(l.launch, l.prepared.actor, 'initialized')])).statusCode).toBe(403);
    expect((await xapi(`/xapi/statements?statementId=${good.id}`, { auth: `JWT ${tokens.admin}` })).statusCode).toBe(404);

    expect((await post(good, { version: false })).statusCode).toBe(400);
    expect((await post(good, { auth: basic('napacen-zeton') })).statusCode).toBe(401);
    expect((await post(good, { auth: null })).statusCode).toBe(401);
    expect((await post(good, { auth: `JWT ${tokens.admin}` })).statusCode).toBe(403);
    const about = await xapi('/xapi/about', { version: false });
    expect(about.json()).toEqual({ version: ['1.0.3'] });
    expect(about.headers['x-experience-api-version']).toBe('1.0.3');
  });

  it('takes a client’s PUT once (204, again 204, other content 409), also when the same PUT comes many times at once; POST answers the ids', async () => {
    const one = clientStatement(1);
    const put = (body: unknown, id = one.id) => xapi(`/xapi/statements?statementId=${id}`, { method: 'PUT', auth: clientAuth, body });
    expect((await put(one)).statusCode).toBe(204);
    expect((await put(one)).statusCode).toBe(204);
    expect((await put({ ...one, verb: { id: 'http://adlnet.gov/expapi/verbs/attempted' } })).statusCode).toBe(409);
    expect((await put(one, clientStatement(99).id)).statusCode).toBe(400);

    // Two API processes on one database (decision 0035), the same PUT many times at once through both: stored once.
    const other = await startTestPlatform(
      { LRS_CLIENT_KEY: CLIENT.key, LRS_CLIENT_SECRET: CLIENT.secret, CONTENT_ORIGIN },
      { joinDatabase: p.db.connectionString },
    );
    try {
      const putVia = (app: TestPlatform['app'], body: { id: string }) =>
        app.inject({
          method: 'PUT',
          url: `/xapi/statements?statementId=${body.id}`,
          headers: { ...XAPI, authorization: clientAuth, 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
      const many = clientStatement(2);
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => putVia(i % 2 ? other.app : p.app, many)));
      expect(answers.map((a) => a.statusCode)).toEqual(Array(12).fill(204));
      expect((await p.store.readStream(lrsClientStatementStream(many.id))).events).toHaveLength(1);
      // Two contents for one id at once: one of them is stored, every PUT of the other is refused.
      const x = clientStatement(7);
      const y = { ...x, verb: { id: 'http://adlnet.gov/expapi/verbs/attempted' } };
      const raced = await Promise.all(Array.from({ length: 12 }, (_, i) => putVia(i % 2 ? other.app : p.app, i % 4 < 2 ? x : y)));
      const statuses = (content: object) => new Set(raced.filter((_, i) => (i % 4 < 2 ? x : y) === content).map((a) => a.statusCode));
      expect([...statuses(x), ...statuses(y)].sort()).toEqual([204, 409]);
      const stored = (await p.store.readStream(lrsClientStatementStream(x.id))).events;
      expect(stored).toHaveLength(1);
      expect(JSON.parse((stored[0]!.data as { statement: string }).statement).verb.id).toBe(statuses(x).has(204) ? x.verb.id : y.verb.id);
    } finally {
      await other.close();
    }

    const { id: _id, ...withoutId } = clientStatement(3);
    const posted = await xapi('/xapi/statements', { method: 'POST', auth: clientAuth, body: [clientStatement(4), withoutId] });
    expect(posted.statusCode).toBe(200);
    const ids = posted.json() as string[];
    expect(ids[0]).toBe(clientStatement(4).id);
    expect(ids[1]).toMatch(/^[0-9a-f-]{36}$/);
    const single = await xapi('/xapi/statements', { method: 'POST', auth: clientAuth, body: clientStatement(5) });
    expect(single.json()).toEqual([clientStatement(5).id]);
    const read = await xapi(`/xapi/statements?statementId=${clientStatement(4).id}`, { auth: clientAuth });
    expect(read.json()).toMatchObject({ id: clientStatement(4).id, stored: expect.any(String), authority: { account: { name: `client:${CLIENT.key}` } } });
    // The client writes with the wrong secret: nothing.
    const wrong = basic(Buffer.from(`${CLIENT.key}:napacna-skrivnost-12345`).toString('base64'));
    expect((await xapi('/xapi/statements', { method: 'POST', auth: wrong, body: clientStatement(6) })).statusCode).toBe(401);
  });

  it('answers each filter of GET /xapi/statements and pages with `more` to the end; a voided statement is read only as voided', async () => {
    const registration = crypto.randomUUID();
    const batch = [
      clientStatement(101, { verb: 'http://adlnet.gov/expapi/verbs/answered', activity: 'https://zunanji.si/q/1', registration }),
      clientStatement(102, { verb: 'http://adlnet.gov/expapi/verbs/answered', activity: 'https://zunanji.si/q/2', registration }),
      clientStatement(103, {
        verb: 'http://adlnet.gov/expapi/verbs/answered',
        activity: 'https://zunanji.si/q/1',
        mbox: 'mailto:bor@zunanji.si',
        registration,
      }),
      clientStatement(104, { verb: 'http://adlnet.gov/expapi/verbs/passed', activity: 'https://zunanji.si/q/1', registration }),
      clientStatement(105, { verb: 'http://adlnet.gov/expapi/verbs/answered', activity: 'https://zunanji.si/q/3', registration }),
    ];
    const before = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    expect((await xapi('/xapi/statements', { method: 'POST', auth: clientAuth, body: batch })).statusCode).toBe(200);
    const get = async (query: string) => {
      const answer = await xapi(`/xapi/statements?${query}`, { auth: clientAuth });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.headers['x-experience-api-consistent-through']).toBeTruthy();
      const body = answer.json() as { statements: { id: string }[]; more: string };
      return { ids: body.statements.map((s) => s.id.slice(-3)), more: body.more };
    };
    const r = `registration=${registration}`;
    expect((await get(`${r}&ascending=true`)).ids).toEqual(['101', '102', '103', '104', '105']);
    expect((await get(r)).ids).toEqual(['105', '104', '103', '102', '101']);
    expect((await get(`${r}&verb=${encodeURIComponent('http://adlnet.gov/expapi/verbs/passed')}`)).ids).toEqual(['104']);
    expect((await get(`${r}&activity=${encodeURIComponent('https://zunanji.si/q/1')}&ascending=true`)).ids).toEqual(['101', '103', '104']);
    expect((await get(`${r}&agent=${encodeURIComponent(JSON.stringify({ mbox: 'mailto:bor@zunanji.si' }))}`)).ids).toEqual(['103']);
    expect((await get(`${r}&since=${encodeURIComponent(before)}&ascending=true`)).ids).toHaveLength(5);
    expect((await get(`${r}&until=${encodeURIComponent(before)}`)).ids).toEqual([]);

    const pages: string[][] = [];
    let page = await get(`${r}&limit=2&ascending=true`);
    pages.push(page.ids);
    while (page.more) {
      expect(page.more).toMatch(/^\/xapi\/statements\?more=/);
      page = await get(page.more.split('?')[1] as string);
      pages.push(page.ids);
    }
    expect(pages).toEqual([['101', '102'], ['103', '104'], ['105']]);

    const voiding = {
      actor: { objectType: 'Agent', mbox: 'mailto:ana@zunanji.si' },
      verb: { id: 'http://adlnet.gov/expapi/verbs/voided' },
      object: { objectType: 'StatementRef', id: batch[1]?.id },
    };
    expect((await xapi('/xapi/statements', { method: 'POST', auth: clientAuth, body: voiding })).statusCode).toBe(200);
    expect((await xapi(`/xapi/statements?statementId=${batch[1]?.id}`, { auth: clientAuth })).statusCode).toBe(404);
    expect((await xapi(`/xapi/statements?voidedStatementId=${batch[1]?.id}`, { auth: clientAuth })).json()).toMatchObject({ id: batch[1]?.id });
    expect((await get(`${r}&ascending=true`)).ids).toEqual(['101', '103', '104', '105']);
    expect((await xapi(`/xapi/statements?statementId=${batch[0]?.id}&verb=x`, { auth: clientAuth })).statusCode).toBe(400);
    expect((await xapi('/xapi/statements?agent=nijson', { auth: clientAuth })).statusCode).toBe(400);
    expect((await xapi('/xapi/statements?more=pokvarjen', { auth: clientAuth })).statusCode).toBe(400);
  });

  it('lets report readers read as the course report lets them: the admin all, a manager of the learner’s unit their statements, another company none', async () => {
    const l = await started(users.participant);
    const read = async (token: string, query = `registration=${l.launch.registration}`) => {
      const answer = await xapi(`/xapi/statements?${query}`, { auth: `JWT ${token}` });
      return { status: answer.statusCode, count: answer.statusCode === 200 ? (answer.json() as { statements: unknown[] }).statements.length : -1 };
    };
    expect(await read(tokens.admin)).toEqual({ status: 200, count: 2 });
    expect(await read(tokens.managerA)).toEqual({ status: 200, count: 2 });
    expect(await read(tokens.managerB)).toEqual({ status: 200, count: 0 });
    expect(await read(tokens.managerB, 'limit=500')).toEqual({ status: 200, count: 0 });
    expect((await read(tokens.participant)).status).toBe(403);
    const someId = (
      (await xapi(`/xapi/statements?registration=${l.launch.registration}`, { auth: `JWT ${tokens.admin}` })).json() as { statements: { id: string }[] }
    ).statements[0]?.id;
    expect((await xapi(`/xapi/statements?statementId=${someId}`, { auth: `JWT ${tokens.managerA}` })).statusCode).toBe(200);
    expect((await xapi(`/xapi/statements?statementId=${someId}`, { auth: `JWT ${tokens.managerB}` })).statusCode).toBe(404);
    // A manager of A reads no client statement; the client reads no launch statement.
    const clientOnes = await xapi('/xapi/statements?limit=500', { auth: `JWT ${tokens.managerA}` });
    expect(
      (clientOnes.json() as { statements: { authority: { account: { name: string } } }[] }).statements.every((s) => s.authority.account.name === 'lms'),
    ).toBe(true);
    expect((await xapi(`/xapi/statements?registration=${l.launch.registration}`, { auth: clientAuth })).json()).toMatchObject({ statements: [] });
    // An AU reads its own registration only.
    const own = await xapi('/xapi/statements?limit=500', { auth: l.auth });
    const registrations = (own.json() as { statements: { context: { registration: string } }[] }).statements.map((s) => s.context.registration);
    expect(new Set(registrations)).toEqual(new Set([l.launch.registration]));
  });

  it('answers the content origin’s preflight and its requests with CORS, and no other origin', async () => {
    const origin = p.config.packages.contentOrigin;
    const preflight = await xapi('/xapi/statements', {
      method: 'OPTIONS',
      version: false,
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,x-experience-api-version' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(origin);
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('X-Experience-API-Version');
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('PUT');
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
    const foreign = await xapi('/xapi/statements', {
      method: 'OPTIONS',
      version: false,
      headers: { origin: 'https://napadalec.example', 'access-control-request-method': 'POST' },
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const fetched = await xapi('/xapi/cmi5/fetch/neznan', { method: 'POST', version: false, headers: { origin } });
    expect(fetched.headers['access-control-allow-origin']).toBe(origin);
    expect(fetched.json()).toMatchObject({ 'error-code': '1' });
    const fromElsewhere = await xapi('/xapi/about', { headers: { origin: 'https://napadalec.example' } });
    expect(fromElsewhere.headers['access-control-allow-origin']).toBeUndefined();
    // A page's script reads the LRS only from the content origin (the browser, here happy-dom, enforces what the headers say).
    const readFrom = async (origin: string) => {
      const other = new Window({ url: `${origin}/stran.html` });
      try {
        return await other.fetch(`${base}/xapi/about`).then(
          async (r) => r.status,
          () => 'blocked',
        );
      } finally {
        await other.happyDOM.close();
      }
    };
    expect(await readFrom(CONTENT_ORIGIN)).toBe(200);
    expect(await readFrom('http://napadalec.localhost:5000')).toBe('blocked');
    // The platform's own API answers no CORS at all.
    const api = await p.app.inject({ method: 'GET', url: '/api/health', headers: { origin } });
    expect(api.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('keeps an AU’s state documents of its own registration, merges JSON on POST, never lets it change LMS.LaunchData', async () => {
    const l = await started(users.participant);
    const agent = encodeURIComponent(JSON.stringify(l.prepared.actor));
    const at = (stateId?: string, extra = '') =>
      `/xapi/activities/state?activityId=${encodeURIComponent(AU)}&agent=${agent}&registration=${l.launch.registration}${stateId ? `&stateId=${stateId}` : ''}${extra}`;
    expect((await xapi(at('zaznamek'), { method: 'PUT', auth: l.auth, body: { stran: 2 } })).statusCode).toBe(204);
    expect((await xapi(at('zaznamek'), { method: 'POST', auth: l.auth, body: { rezultat: 7 } })).statusCode).toBe(204);
    const read = await xapi(at('zaznamek'), { auth: l.auth });
    expect(read.json()).toEqual({ stran: 2, rezultat: 7 });
    expect(read.headers.etag).toMatch(/^"[0-9a-f]{40}"$/);
    expect((await xapi(at('besedilo'), { method: 'PUT', auth: l.auth, body: 'navadno besedilo', headers: { 'content-type': 'text/plain' } })).statusCode).toBe(
      204,
    );
    expect((await xapi(at('besedilo'), { auth: l.auth })).body).toBe('navadno besedilo');
    expect((await xapi(at(), { auth: l.auth })).json()).toEqual(['LMS.LaunchData', 'besedilo', 'zaznamek']);
    expect((await xapi(at('LMS.LaunchData'), { method: 'PUT', auth: l.auth, body: {} })).statusCode).toBe(403);
    expect((await xapi(at(), { method: 'DELETE', auth: l.auth })).statusCode).toBe(204);
    expect((await xapi(at(), { auth: l.auth })).json()).toEqual(['LMS.LaunchData']);
    expect((await xapi(at('zaznamek'), { auth: l.auth })).statusCode).toBe(404);
    const otherAgent = encodeURIComponent(JSON.stringify({ objectType: 'Agent', account: { homePage: p.config.publicUrl, name: '999' } }));
    expect((await xapi(at('zaznamek').replace(agent, otherAgent), { auth: l.auth })).statusCode).toBe(403);
    expect((await xapi(at('zaznamek').replace(l.launch.registration, crypto.randomUUID()), { auth: l.auth })).statusCode).toBe(403);
    expect((await xapi(at('zaznamek'), { auth: clientAuth })).statusCode).toBe(403);
    // cmi5 §11: the learner preferences are the platform's.
    const profile = `/xapi/agents/profile?agent=${agent}&profileId=cmi5LearnerPreferences`;
    expect((await xapi(profile, { auth: l.auth })).json()).toEqual({ languagePreference: 'sl-SI' });
    expect((await xapi(profile, { method: 'PUT', auth: l.auth, body: { audioPreference: 'off' } })).statusCode).toBe(403);
  });

  it('tells the courses feature the outcome of each cmi5 defined statement, and again when the AU sends it again', async () => {
    const l = await started(users.participant);
    outcomes.length = 0;
    const completed = statement(l.launch, l.prepared.actor, 'completed', { result: { completion: true, duration: 'PT2M30S' }, moveOn: true });
    await storeStatements(deps, { kind: 'launch', launch: l.launch }, completed, { statementId: null, metadata: {} });
    await storeStatements(deps, { kind: 'launch', launch: l.launch }, completed, { statementId: completed.id, metadata: {} });
    expect(outcomes).toEqual([
      { verb: 'completed', scaled: null, durationSeconds: 150, statementId: completed.id, sessionId: l.launch.sessionId },
      { verb: 'completed', scaled: null, durationSeconds: 150, statementId: completed.id, sessionId: l.launch.sessionId },
    ]);
    const events = (await p.store.readStream(`lrs-${l.launch.registration}`)).events.filter(
      (e) => (e.data as { statementId?: string }).statementId === completed.id,
    );
    expect(events).toHaveLength(1);
  });

  it('abandons the learner’s earlier session that never terminated when the AU is launched again', async () => {
    const first = await started(users.participant);
    outcomes.length = 0;
    const second = await launchFor(users.participant, first.launch.courseId, first.launch.blockId, first.launch.registration);
    expect(second.launch.registration).toBe(first.launch.registration);
    // The abandoned session's outcome is told as that session's, not the new launch's (its time is the old session's).
    expect(outcomes.filter((o) => o.verb === 'abandoned').map((o) => o.sessionId)).toEqual([first.launch.sessionId]);
    expect(second.launch.sessionId).not.toBe(first.launch.sessionId);
    const read = await xapi(`/xapi/statements?registration=${first.launch.registration}&ascending=true`, { auth: `JWT ${tokens.admin}` });
    const verbs = (read.json() as { statements: { verb: { id: string }; result?: { duration?: string } }[] }).statements.map((s) => s.verb.id.split('/').pop());
    expect(verbs).toEqual(['launched', 'initialized', 'abandoned', 'launched']);
    // The first launch's token no longer works (the launch store replaced it).
    const late = await xapi('/xapi/statements', {
      method: 'POST',
      auth: first.auth,
      body: statement(first.launch, first.prepared.actor, 'terminated', { result: { duration: 'PT1M' } }),
    });
    expect(late.statusCode).toBe(401);
  });

  it('answers malformed requests with a 4xx in the platform’s error shape, never a 5xx', async () => {
    const l = await started(users.participant);
    const forged = (filter: object) => Buffer.from(JSON.stringify(filter)).toString('base64url');
    const agent = encodeURIComponent(JSON.stringify(l.prepared.actor));
    const cases: [string, Sent][] = [
      ['/xapi/statements', { method: 'POST', auth: clientAuth, body: 'null', headers: { 'content-type': 'application/json' } }],
      ['/xapi/statements', { method: 'POST', auth: clientAuth, body: 'ni json', headers: { 'content-type': 'text/plain' } }],
      ['/xapi/statements', { method: 'POST', auth: clientAuth, body: '{"actor":', headers: { 'content-type': 'application/json' } }],
      ['/xapi/statements', { method: 'POST', auth: clientAuth, body: [] }],
      ['/xapi/statements', { method: 'POST', auth: clientAuth, body: [[]] }],
      ['/xapi/statements', { method: 'POST', auth: clientAuth, body: { ...clientStatement(900), id: 'ni-uuid' } }],
      ['/xapi/statements', { method: 'POST', auth: l.auth, body: { ...clientStatement(901), actor: 'niz' } }],
      ['/xapi/statements', { method: 'PUT', auth: clientAuth, body: clientStatement(902) }],
      ['/xapi/statements?statementId=ni-uuid', { method: 'PUT', auth: clientAuth, body: clientStatement(903) }],
      ['/xapi/statements?limit=abc', { auth: clientAuth }],
      ['/xapi/statements?limit=-1', { auth: clientAuth }],
      ['/xapi/statements?since=2026-13-45T99:00', { auth: clientAuth }],
      ['/xapi/statements?ascending=morda', { auth: clientAuth }],
      ['/xapi/statements?registration=ni-uuid', { auth: clientAuth }],
      ['/xapi/statements?related_activities=true', { auth: clientAuth }],
      [`/xapi/statements?agent=${encodeURIComponent('{"account":{"homePage":1}}')}`, { auth: clientAuth }],
      [`/xapi/statements?more=${forged({ ascending: true, limit: 5, after: { stored: 'včeraj', id: 'x' } })}`, { auth: clientAuth }],
      [
        `/xapi/statements?more=${forged({ ascending: true, limit: 5, since: "'; drop table x; --", after: { stored: new Date().toISOString(), id: 'x' } })}`,
        { auth: clientAuth },
      ],
      ['/xapi/statements?statementId=ni-uuid', { auth: clientAuth }],
      [`/xapi/activities/state?activityId=${encodeURIComponent(AU)}&agent=nijson&registration=${l.launch.registration}`, { auth: l.auth }],
      [`/xapi/activities/state?agent=${agent}`, { auth: l.auth }],
      [
        `/xapi/activities/state?activityId=${encodeURIComponent(AU)}&agent=${agent}&registration=${l.launch.registration}`,
        { method: 'PUT', auth: l.auth, body: {} },
      ],
      [
        `/xapi/activities/state?activityId=${encodeURIComponent(AU)}&agent=${agent}&registration=${l.launch.registration}&stateId=a`,
        { method: 'PUT', auth: l.auth },
      ],
      [
        `/xapi/activities/state?activityId=${encodeURIComponent(AU)}&agent=${agent}&registration=${l.launch.registration}&stateId=a`,
        { method: 'PUT', auth: l.auth, body: 'x\u0000y', headers: { 'content-type': 'application/json' } },
      ],
      [`/xapi/agents/profile?agent=${agent}&profileId=drug`, { auth: l.auth }],
      ['/xapi/statements', { auth: 'Basic !!!' }],
      ['/xapi/statements', { auth: 'Bearer ni.veljaven.zeton' }],
    ];
    for (const [url, options] of cases) {
      const answer = await xapi(url, options);
      const label = `${options.method ?? 'GET'} ${url}`;
      expect(answer.statusCode, `${label}: ${answer.body}`).toBeGreaterThanOrEqual(400);
      expect(answer.statusCode, `${label}: ${answer.body}`).toBeLessThan(500);
      expect(answer.json(), label).toEqual({ errors: [expect.objectContaining({ code: expect.any(String), message: expect.any(String) })] });
    }
  });

  it('forgets an erased learner: their statements leave the read model, and the log holds them only encrypted, then unreadable', async () => {
    const learner = await p.createUser('lrsizbrisan', []);
    const l = await started(learner);
    const marker = 'Zasebni odgovor udeleženca';
    const answered = {
      ...statement(l.launch, l.prepared.actor, 'http://adlnet.gov/expapi/verbs/answered', { defined: false }),
      result: { response: marker },
    };
    expect((await xapi('/xapi/statements', { method: 'POST', auth: l.auth, body: answered })).statusCode).toBe(200);
    const raw = await p.db.pg.query<{ data: unknown }>("select data from es.events where stream_name = $1 and event_type = 'LrsStatementStored'", [
      `lrs-${l.launch.registration}`,
    ]);
    expect(raw.rows.length).toBe(3);
    expect(JSON.stringify(raw.rows)).not.toContain(marker);
    const registration = `registration=${l.launch.registration}`;
    expect(((await xapi(`/xapi/statements?${registration}`, { auth: `JWT ${tokens.admin}` })).json() as { statements: unknown[] }).statements).toHaveLength(3);

    const erased = await p.app.inject({ method: 'DELETE', url: `/api/users/${learner}/personal-data`, headers: { authorization: `JWT ${tokens.admin}` } });
    expect(erased.statusCode, erased.body).toBeLessThan(300);
    await p.settleAll(erased.headers['x-event-position'] as string | undefined);
    expect(((await xapi(`/xapi/statements?${registration}`, { auth: `JWT ${tokens.admin}` })).json() as { statements: unknown[] }).statements).toEqual([]);
    const events = (await p.store.readStream(`lrs-${l.launch.registration}`)).events;
    expect(events.filter((e) => e.type === 'LrsStatementStored').every((e) => (e.data as { statement: string }).statement === ERASED_PERSON)).toBe(true);
  });

  it('rebuilds the read model from the log to what the live one holds', async () => {
    await p.settleAll(await p.store.headPosition());
    const events = await readAllPages(p.store, START, 500);
    const rebuilt = await givenProjected(p.db as Parameters<typeof givenProjected>[0], lrsProjection, events);
    const rows = async (table: string) =>
      (
        await p.db.slonik.any(
          sql.unsafe`select statement_id, voided, statement::text as statement from ${sql.identifier(table.split('.'))} order by statement_id`,
        )
      ).map((row) => JSON.stringify(row));
    const live = await rows('rm.lrs_statements');
    expect(live.length).toBeGreaterThan(20);
    expect(await rows(`${rebuilt.schema}.lrs_statements`)).toEqual(live);
  });
});
