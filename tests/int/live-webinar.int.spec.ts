import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

type Live = { phase: string; checks: { index: number; opensAt: string; confirmed: boolean }[]; attended: boolean; windowSeconds: number };

/**
 * Issue 17 item 5 over the API: a live webinar (type 8) shows its phase and presence checks; an
 * attendee confirms the open check (a confirmation outside it is refused as missed), and confirming
 * enough checks completes the course, which feeds success and the certificate like any completion.
 */
describe('live webinars: presence confirmed as events', () => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  const call = async (who: string, method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await p.app.inject({ method, url, headers: { authorization: `JWT ${tokens[who]}` }, ...(payload ? { payload } : {}) });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(parsePosition(position));
    return response;
  };
  const webinar = async (startOffsetMs: number, lengthMs: number) => {
    const startsAt = new Date(Date.now() + startOffsetMs).toISOString();
    const stopsAt = new Date(Date.now() + startOffsetMs + lengthMs).toISOString();
    const created = await call('admin', 'POST', '/api/courses', {
      type: 8,
      title: `Spletni seminar ${startOffsetMs}`,
      description: 'Predavanje v živo o interakcijah zdravil.',
      cover: '/c.svg',
      creditPoints: 1,
      public: true,
      vimeoId: '76979871',
      live: { roomId: 'soba-1', startsAt, stopsAt },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { id: number }).id;
    await call('admin', 'POST', `/api/courses/${id}/blocks`, { block: { kind: 'points', name: 'Točke', points: 1 } });
    await call('admin', 'POST', `/api/courses/${id}/publish`);
    return id;
  };
  const liveOf = async (id: number) => ((await call('ana', 'GET', `/api/user-courses/${id}`)).json() as { live: Live }).live;

  beforeAll(async () => {
    p = await startTestPlatform();
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    await p.createUser('ana', [{ roleId: ROLE.participant, unitId: 1, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    tokens.ana = (await p.login('ana')).token;
  });
  afterAll(async () => p.close());

  it('shows an upcoming webinar with its checks, and refuses a confirmation before any check opens', async () => {
    const id = await webinar(60 * 60 * 1000, 60 * 60 * 1000);
    const live = await liveOf(id);
    expect(live).toMatchObject({ phase: 'upcoming', attended: false, windowSeconds: 90 });
    expect(live.checks).toHaveLength(4);
    await call('ana', 'POST', `/api/user-courses/${id}/start`);
    const early = await call('ana', 'POST', `/api/user-courses/${id}/live/presence`, { checkIndex: 0 });
    expect(early.statusCode).toBe(422);
    expect((early.json() as { errors: { message: string }[] }).errors[0]?.message).toBe('Potrditev prisotnosti ni več mogoča: čas za potrditev je potekel.');
  });

  it('records the confirmation of the open check once, and completes the course of an attendee who confirmed enough', async () => {
    // Started 5 minutes and 10 seconds ago, ends in 3 minutes: one check, open now.
    const id = await webinar(-(5 * 60 * 1000 + 10_000), 8 * 60 * 1000 + 10_000);
    expect(await liveOf(id)).toMatchObject({ phase: 'live', checks: [{ index: 0, confirmed: false }] });
    await call('ana', 'POST', `/api/user-courses/${id}/start`);
    const blocks = (await call('ana', 'GET', `/api/block?course_id=${id}`)).json() as { items: { id: number }[] };
    // The points block alone does not complete a webinar not attended.
    expect((await call('ana', 'POST', `/api/user-courses/${id}/blocks/${blocks.items[0]?.id}/open`)).json()).toMatchObject({ completed: false });
    const confirmed = await call('ana', 'POST', `/api/user-courses/${id}/live/presence`, { checkIndex: 0 });
    expect(confirmed.json()).toEqual({ events: ['LivePresenceConfirmed', 'CourseCompleted'], completed: true });
    expect((await call('ana', 'POST', `/api/user-courses/${id}/live/presence`, { checkIndex: 0 })).json()).toEqual({ events: [], completed: false });
    expect(await liveOf(id)).toMatchObject({ attended: true, checks: [{ index: 0, confirmed: true }] });
    const course = (await call('ana', 'GET', `/api/user-courses/${id}`)).json() as { enrollment: string; certificateId: string | null };
    expect(course.enrollment).toBe('completed');
    expect(course.certificateId).not.toBeNull();
  });

  it('is a participant’s step: an admin without the participant role is refused', async () => {
    const id = await webinar(-(5 * 60 * 1000 + 10_000), 8 * 60 * 1000 + 10_000);
    expect((await call('admin', 'POST', `/api/user-courses/${id}/live/presence`, { checkIndex: 0 })).statusCode).toBe(403);
  });
});
