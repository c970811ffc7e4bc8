import { createServer } from 'node:net';
import type Cmi5Types from '@xapi/cmi5';
import { Window } from 'happy-dom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { CMI5, cmi5Package } from '../support/content-packages.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

type Cmi5Class = typeof Cmi5Types.default;
const CONTENT_ORIGIN = 'http://vsebina.localhost:4998';
/** The library's ESM build (its types name the package's entry; the build itself is imported by path). */
const CMI5_MODULE = '@xapi/cmi5/dist/Cmi5.esm.js';

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

/**
 * Issue 35's cmi5 journey through the whole platform: an author uploads a cmi5 package and makes it a
 * block; a participant launches the AU through the player's route; the AU (the maintained @xapi/cmi5
 * library, in a page of the content origin) takes its URL's parameters, fetches its token once, reads
 * its launch data, and states initialized, completed, passed and terminated to the platform's LRS; the
 * block is done by moveOn, the course completes, and the statements are there for the report's readers.
 */
describe('a cmi5 AU played through the platform', () => {
  let p: TestPlatform;
  let page: Window;
  let Cmi5: Cmi5Class;
  const tokens: { [who: string]: string } = {};

  const call = async (who: string, method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await p.app.inject({ method, url, headers: { authorization: `JWT ${tokens[who]}` }, ...(payload ? { payload } : {}) });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(parsePosition(position));
    return response;
  };

  beforeAll(async () => {
    page = new Window({ url: `${CONTENT_ORIGIN}/p/zeton/au/index.html` });
    (globalThis as Record<string, unknown>).XMLHttpRequest = page.XMLHttpRequest;
    Cmi5 = ((await import(CMI5_MODULE)) as { default: Cmi5Class }).default;
    // The launch URL names the platform's public address: the platform listens there.
    const port = await freePort();
    p = await startTestPlatform({ PUBLIC_URL: `http://127.0.0.1:${port}`, CONTENT_ORIGIN });
    await p.app.listen({ port, host: '127.0.0.1' });
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    await p.createUser('ana', [{ roleId: ROLE.participant, unitId: 1, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    tokens.ana = (await p.login('ana')).token;
  }, 120_000);
  afterAll(async () => {
    await p?.close();
    await page?.happyDOM.close();
  });

  it('completes the block by moveOn from the AU statements, and keeps them for the report readers', async () => {
    const uploaded = await p.app.inject({
      method: 'POST',
      url: '/api/packages?name=cepiva.zip',
      headers: { authorization: `JWT ${tokens.admin}`, 'content-type': 'application/zip' },
      payload: cmi5Package(),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect(uploaded.json()).toMatchObject({ standard: 'cmi5', title: CMI5.title, items: [{ id: CMI5.auId, moveOn: CMI5.moveOn, masteryScore: 70 }] });
    const created = await call('admin', 'POST', '/api/courses', {
      type: 3,
      title: 'Hramba cepiv',
      description: 'Izobraževanje s paketom cmi5 o hrambi cepiv.',
      cover: '/c.svg',
      creditPoints: 1,
      public: true,
      certificateEnabled: false,
    });
    const courseId = (created.json() as { id: number }).id;
    const block = await call('admin', 'POST', `/api/courses/${courseId}/blocks`, {
      block: { kind: 'package', name: 'Hramba cepiv', packageId: (uploaded.json() as { id: number }).id, completion: 'passed' },
    });
    const blockId = (block.json() as { id: number }).id;
    await call('admin', 'POST', `/api/courses/${courseId}/publish`);
    await call('ana', 'POST', `/api/user-courses/${courseId}/start`);

    const launched = await call('ana', 'POST', `/api/user-courses/${courseId}/blocks/${blockId}/package/launch`, { itemId: CMI5.auId });
    expect(launched.statusCode, launched.body).toBe(200);
    const url = new URL((launched.json() as { url: string }).url);
    expect(url.origin).toBe(CONTENT_ORIGIN);
    expect(url.pathname).toMatch(new RegExp(`^/p/[\\w-]{40,}/${CMI5.launch}$`));
    const query = Object.fromEntries(url.searchParams);
    // The platform's session is nowhere in what the AU gets.
    expect(url.toString()).not.toContain(tokens.ana as string);
    expect(query.activityId).not.toBe(CMI5.auId);

    const au = new Cmi5({
      endpoint: query.endpoint as string,
      fetch: query.fetch as string,
      actor: JSON.parse(query.actor as string),
      registration: query.registration as string,
      activityId: query.activityId as string,
    });
    await au.initialize();
    expect(au.getLaunchData()).toMatchObject({ launchMode: 'Normal', moveOn: CMI5.moveOn, masteryScore: CMI5.masteryScore });
    await au.complete();
    const notYet = (await call('ana', 'GET', `/api/record?course_id=${courseId}`)).json() as { items: { block_id: number; done: boolean }[] };
    expect(notYet.items.find((r) => r.block_id === blockId)?.done).toBe(false);
    await au.pass(0.9);
    await au.terminate();

    // The outcome reached the enrollment: the block is done, the course completed.
    const head = await p.store.headPosition();
    if (head) await p.runner.waitFor(['courses'], head, 10_000);
    const records = (await call('ana', 'GET', `/api/record?course_id=${courseId}`)).json() as { items: { block_id: number; done: boolean }[] };
    expect(records.items.find((r) => r.block_id === blockId)?.done).toBe(true);
    const events = (await p.store.readStream(`enrollment-${courseId}_${JSON.parse(query.actor as string).account.name}`)).events.map((e) => e.type);
    expect(events).toContain('PackageCompleted');
    expect(events).toContain('CourseCompleted');

    const read = await p.app.inject({
      method: 'GET',
      url: `/xapi/statements?registration=${query.registration}&ascending=true`,
      headers: { authorization: `JWT ${tokens.admin}`, 'x-experience-api-version': '1.0.3' },
    });
    expect(read.statusCode, read.body).toBe(200);
    const verbs = (read.json() as { statements: { verb: { id: string } }[] }).statements.map((s) => s.verb.id.split('/').pop());
    expect(verbs).toEqual(['launched', 'initialized', 'completed', 'passed', 'terminated']);
    // A participant does not read the LRS.
    const asParticipant = await p.app.inject({
      method: 'GET',
      url: `/xapi/statements?registration=${query.registration}`,
      headers: { authorization: `JWT ${tokens.ana}`, 'x-experience-api-version': '1.0.3' },
    });
    expect(asParticipant.statusCode).toBe(403);
  });
});
