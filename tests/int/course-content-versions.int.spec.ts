import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

type Block = { id: number; name: string; fields: { html?: string } };

/**
 * Decision 0021 over the API: a published course's blocks change while a participant is in the
 * middle of it. She keeps the content she started with (the blocks, their text, the count her
 * progress is out of, what completes the course); whoever starts afterwards takes the new content.
 */
describe('course content versions: enrollments in progress keep the content they started with', () => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  let courseId = 0;
  const blockIds: Record<string, number> = {};

  const call = async (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const response = await p.app.inject({ method, url, headers: { authorization: `JWT ${tokens[who]}` }, ...(payload ? { payload } : {}) });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(parsePosition(position));
    return response;
  };
  const blocksOf = async (who: string) => ((await call(who, 'GET', `/api/block?course_id=${courseId}`)).json() as { items: Block[] }).items;
  const courseOf = async (who: string) => (await call(who, 'GET', `/api/user-courses/${courseId}`)).json() as { blocksTotal: number; enrollment: string };
  const add = async (key: string, block: object) => {
    const response = await call('admin', 'POST', `/api/courses/${courseId}/blocks`, { block });
    expect(response.statusCode, response.body).toBe(201);
    blockIds[key] = (response.json() as { id: number }).id;
  };

  beforeAll(async () => {
    p = await startTestPlatform();
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    await p.createUser('ana', [{ roleId: ROLE.participant, unitId: 1, companyId: null }]);
    await p.createUser('bojan', [{ roleId: ROLE.participant, unitId: 1, companyId: null }]);
    for (const who of ['skrbnik', 'ana', 'bojan']) tokens[who === 'skrbnik' ? 'admin' : who] = (await p.login(who)).token;
    const created = await call('admin', 'POST', '/api/courses', {
      type: 3,
      title: 'Higiena rok',
      description: 'Kako si pravilno razkužimo roke v lekarni.',
      cover: '/c.svg',
      creditPoints: 1,
      public: true,
    });
    courseId = (created.json() as { id: number }).id;
    await add('article', { kind: 'article', name: 'Članek', html: '<p>Prva različica</p>' });
    await add('points', { kind: 'points', name: 'Točke', points: 1 });
    expect((await call('admin', 'POST', `/api/courses/${courseId}/publish`)).statusCode).toBe(200);
  });

  afterAll(async () => p.close());

  it('keeps Ana on the blocks she started with while the course changes, and completes her on them', async () => {
    expect((await call('ana', 'POST', `/api/user-courses/${courseId}/start`)).statusCode).toBe(200);
    expect((await call('ana', 'POST', `/api/user-courses/${courseId}/blocks/${blockIds.article}/open`)).statusCode).toBe(200);

    // The editor rewrites the article and adds a quiz at the end, after Ana started.
    const rewritten = await call('admin', 'PUT', `/api/courses/${courseId}/blocks/${blockIds.article}`, {
      kind: 'article',
      name: 'Članek',
      html: '<p>Druga različica</p>',
    });
    expect(rewritten.statusCode).toBe(200);
    await add('article2', { kind: 'article', name: 'Dodatek', html: '<p>Novo poglavje</p>' });

    const hers = await blocksOf('ana');
    expect(hers.map((b) => b.name)).toEqual(['Članek', 'Točke']);
    expect(hers[0]?.fields.html).toBe('<p>Prva različica</p>');
    expect((await courseOf('ana')).blocksTotal).toBe(2);
    // The new block is not part of her course; opening the last of hers completes it.
    expect((await call('ana', 'POST', `/api/user-courses/${courseId}/blocks/${blockIds.article2}/open`)).statusCode).toBe(404);
    const last = await call('ana', 'POST', `/api/user-courses/${courseId}/blocks/${blockIds.points}/open`);
    expect(last.json()).toMatchObject({ completed: true });
    expect(await courseOf('ana')).toMatchObject({ enrollment: 'completed', blocksTotal: 2 });
    // The author still sees the course as it is now.
    expect((await blocksOf('admin')).map((b) => b.name)).toEqual(['Članek', 'Točke', 'Dodatek']);
  });

  it('gives Bojan, who starts after the change, the new content: three blocks, the rewritten text, the new one required', async () => {
    expect((await call('bojan', 'POST', `/api/user-courses/${courseId}/start`)).statusCode).toBe(200);
    const his = await blocksOf('bojan');
    expect(his.map((b) => b.name)).toEqual(['Članek', 'Točke', 'Dodatek']);
    expect(his[0]?.fields.html).toBe('<p>Druga različica</p>');
    expect((await courseOf('bojan')).blocksTotal).toBe(3);
    for (const key of ['article', 'points']) {
      const step = await call('bojan', 'POST', `/api/user-courses/${courseId}/blocks/${blockIds[key]}/open`);
      expect(step.json()).toMatchObject({ completed: false });
    }
    const third = await call('bojan', 'POST', `/api/user-courses/${courseId}/blocks/${blockIds.article2}/open`);
    expect(third.json()).toMatchObject({ completed: true });
  });

  it('rebuilds the same versions from the events', async () => {
    const before = await blocksOf('ana');
    await p.runner.rebuild('courses');
    expect(await blocksOf('ana')).toEqual(before);
    expect((await courseOf('ana')).blocksTotal).toBe(2);
    expect((await courseOf('bojan')).blocksTotal).toBe(3);
  });
});
