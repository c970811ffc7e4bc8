import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { type AllPosition, formatPosition, parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { appendSteps, enrollmentStream, type Step } from '../support/enrollment-steps.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

type Nps = {
  nps: {
    promoters: number;
    neutrals: number;
    detractors: number;
    answers: number;
    score: number | null;
    grade: string;
    comments: unknown[];
    reasons: { reason: string; count: number }[];
  };
};

describe('statistics and costs API', () => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  let courseId: number;
  let npsBlock: number;
  let quizBlock: number;
  let last: AllPosition | null = null;

  const call = async (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const response = await p.app.inject({
      method,
      url,
      headers: { authorization: `JWT ${tokens[who]}`, ...(last ? { 'x-min-position': formatPosition(last) } : {}) },
      ...(payload ? { payload } : {}),
    });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') last = parsePosition(position);
    return response;
  };

  /** A participant's steps written to their enrollment stream, as the course commands would. */
  const steps = async (user: number, events: Step[]) => {
    last = await appendSteps(p.store, enrollmentStream(courseId, user), events);
  };
  const started = (user: number) => ({ type: 'CourseStarted', data: { courseId, userId: user } });
  const nps = (score: number, reasons: string[] = [], comment: string | null = null) => ({
    type: 'NpsAnswered',
    data: { blockId: npsBlock, score, reasons, comment, followUps: [] },
  });
  const quiz = (attempt: number, passed: boolean) =>
    passed
      ? { type: 'QuizPassed', data: { blockId: quizBlock, attempt, score: 100, threshold: 100 } }
      : { type: 'QuizFailed', data: { blockId: quizBlock, attempt, score: 0, threshold: 100, retriesLeft: 1 } };

  beforeAll(async () => {
    p = await startTestPlatform();
    ids.admin = await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    const company = (await call('admin', 'POST', '/api/companies', { name: 'Lekarne', address: 'Cesta 1' })).json() as { id: number };
    const other = (await call('admin', 'POST', '/api/companies', { name: 'Drugo podjetje', address: 'Cesta 2' })).json() as { id: number };
    ids.company = company.id;
    ids.other = other.id;
    ids.unitA = ((await call('admin', 'POST', '/api/units', { name: 'Enota A', companyId: company.id })).json() as { id: number }).id;
    ids.unitB = ((await call('admin', 'POST', '/api/units', { name: 'Enota B', companyId: company.id })).json() as { id: number }).id;
    ids.unitX = ((await call('admin', 'POST', '/api/units', { name: 'Enota X', companyId: other.id })).json() as { id: number }).id;
    for (const [name, unit] of [
      ['a1', ids.unitA],
      ['a2', ids.unitA],
      ['a3', ids.unitA],
      ['b1', ids.unitB],
      ['b2', ids.unitB],
    ] as const) {
      ids[name] = await p.createUser(name, [{ roleId: ROLE.participant, unitId: unit as number, companyId: company.id }]);
    }
    await p.createUser('vodja', [{ roleId: ROLE.manager, unitId: ids.unitA as number, companyId: company.id }]);
    await p.createUser('racunovodja', [{ roleId: ROLE.accountant, unitId: ids.unitA as number, companyId: company.id }]);
    await p.createUser('tuji', [{ roleId: ROLE.accountant, unitId: ids.unitX as number, companyId: other.id }]);
    await p.createUser('tujivodja', [{ roleId: ROLE.manager, unitId: ids.unitX as number, companyId: other.id }]);
    await p.createUser('ana', [{ roleId: ROLE.participant, unitId: ids.unitA as number, companyId: company.id }]);
    for (const who of ['vodja', 'racunovodja', 'tuji', 'tujivodja', 'ana']) tokens[who] = (await p.login(who)).token;

    courseId = (
      (
        await call('admin', 'POST', '/api/courses', {
          type: 3,
          title: 'Statistika tečaja',
          description: 'Izobraževanje za preverjanje statistike.',
          cover: '/c.svg',
          creditPoints: 1,
          audience: { companyIds: [ids.company] },
        })
      ).json() as { id: number }
    ).id;
    quizBlock = (
      (
        await call('admin', 'POST', `/api/courses/${courseId}/blocks`, {
          block: {
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
        })
      ).json() as { id: number }
    ).id;
    npsBlock = (
      (
        await call('admin', 'POST', `/api/courses/${courseId}/blocks`, {
          block: {
            kind: 'nps',
            name: 'NPS',
            question: 'Priporočili?',
            set: 1,
            reasons: { detractor: ['Predolgo'], neutral: [], promoter: ['Uporabno'] },
            commentEnabled: true,
          },
        })
      ).json() as { id: number }
    ).id;
  });

  afterAll(async () => p.close());

  const overview = async (who = 'admin', query = '') => {
    const r = await call(who, 'GET', `/api/courses/${courseId}/nps/${npsBlock}/overview${query}`);
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as Nps;
  };

  it('has no NPS score before any answer', async () => {
    expect((await overview()).nps).toMatchObject({ answers: 0, score: null, grade: 'none' });
  });

  let beforeSecondWave = '';

  it('computes NPS from the answers with the boundaries 6, 7, 8, 9 (hand-computed: 2 promoters, 2 neutrals, 1 detractor = 20)', async () => {
    await steps(ids.a1 as number, [started(ids.a1 as number), quiz(1, true), nps(9, ['Uporabno'], 'Odlično')]);
    await steps(ids.a2 as number, [started(ids.a2 as number), quiz(1, false), quiz(2, true), nps(8)]);
    await steps(ids.a3 as number, [started(ids.a3 as number), quiz(1, false), nps(6, ['Predolgo'], 'Predolgo')]);
    await steps(ids.b1 as number, [started(ids.b1 as number), quiz(1, true), nps(7)]);
    await steps(ids.b2 as number, [started(ids.b2 as number), nps(10, ['Uporabno'])]);
    const result = await overview();
    expect(result.nps).toMatchObject({ promoters: 2, neutrals: 2, detractors: 1, answers: 5, score: 20, grade: 'poor' });
    expect(result.nps.reasons).toEqual(expect.arrayContaining([{ reason: 'Uporabno', category: 'promoter', count: 2 }]));
    expect(result.nps.comments).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 20));
    beforeSecondWave = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 20));
  });

  it('shows the figures as they stood at a past instant', async () => {
    // a3 changes their mind to 10; a detractor no more.
    await steps(ids.a3 as number, [nps(10)]);
    expect((await overview()).nps).toMatchObject({ promoters: 3, detractors: 0, score: 60, grade: 'veryGood' });
    expect((await overview('admin', `?asOf=${encodeURIComponent(beforeSecondWave)}`)).nps).toMatchObject({ promoters: 2, detractors: 1, score: 20 });
    expect((await overview('admin', '?asOf=2000-01-01T00:00:00Z')).nps.answers).toBe(0);
    expect((await call('admin', 'GET', `/api/courses/${courseId}/nps/${npsBlock}/overview?asOf=jutri`)).statusCode).toBe(400);
  });

  it('breaks NPS down per unit and company', async () => {
    const units = (await call('admin', 'GET', `/api/courses/${courseId}/nps/${npsBlock}/communities?kind=unit`)).json() as {
      rows: { name: string; answers: number; score: number }[];
    };
    expect(units.rows).toEqual([
      expect.objectContaining({ name: 'Enota A', answers: 3, score: 66.7 }),
      expect.objectContaining({ name: 'Enota B', answers: 2, score: 50 }),
    ]);
    const companies = (await call('admin', 'GET', `/api/courses/${courseId}/nps/${npsBlock}/communities?kind=company`)).json() as {
      rows: { name: string; answers: number }[];
    };
    expect(companies.rows).toEqual([expect.objectContaining({ name: 'Lekarne', answers: 5 })]);
  });

  it('computes success: passed over attempted and first-attempt passes (hand-computed: 3 of 4 passed, 2 of 4 at once)', async () => {
    const { success } = (await call('admin', 'GET', `/api/courses/${courseId}/success`)).json() as {
      success: { started: number; attempted: number; passed: number; successRate: number; firstAttemptRate: number };
    };
    expect(success).toMatchObject({ started: 5, attempted: 4, passed: 3, successRate: 75, firstAttemptRate: 50 });
  });

  it("gives a manager only their unit's participants, and refuses a participant and another company's accountant", async () => {
    expect((await overview('vodja')).nps).toMatchObject({ answers: 3 });
    const success = (await call('vodja', 'GET', `/api/courses/${courseId}/success`)).json() as { success: { started: number } };
    expect(success.success.started).toBe(3);
    // A unit or course outside the manager's reach is answered as missing (its id reveals nothing).
    expect((await call('vodja', 'GET', `/api/courses/${courseId}/success?communityId=${ids.unitB}`)).statusCode).toBe(404);
    expect((await call('ana', 'GET', `/api/courses/${courseId}/nps/${npsBlock}/overview`)).statusCode).toBe(403);
    // A manager of another company: the course is not theirs.
    expect((await call('tujivodja', 'GET', `/api/courses/${courseId}/nps/${npsBlock}/overview`)).statusCode).toBe(404);
    expect((await call('tujivodja', 'GET', `/api/courses/${courseId}/success`)).statusCode).toBe(404);
    expect((await call('ana', 'GET', `/api/courses/${courseId}/costs`)).statusCode).toBe(403);
  });

  it("keeps costs as events: defaults, set while inactive, refused while active; the accountant reads their company's only and cannot change them", async () => {
    const costs = async (who: string) => call(who, 'GET', `/api/courses/${courseId}/costs`);
    const before = (await costs('admin')).json() as { costs: { viewAmount: number }; figures: { views: number; totalAmount: number } };
    // spec §9 defaults; 5 views: 300 + 450 + 5 x 7.85 + 780 + 780 = 2,349.25 EUR.
    expect(before.costs.viewAmount).toBe(785);
    expect(before.figures).toMatchObject({ views: 5, totalAmount: 234_925 });
    expect((await costs('admin')).json()).toMatchObject({ locked: false });
    // The course is unpublished (no intervals, so it would be active once published): a deal can be agreed (1053).
    expect((await call('admin', 'PUT', `/api/courses/${courseId}/costs`, { discount: 10 })).statusCode).toBe(404);
    const set = await call('admin', 'POST', `/api/courses/${courseId}/costs`, { companyId: ids.company, discount: 10, otherAmount: 10_000 });
    expect(set.statusCode).toBe(200);
    expect((await call('admin', 'POST', `/api/courses/${courseId}/costs`, { discount: 5 })).statusCode).toBe(409);
    const after = (await costs('racunovodja')).json() as { figures: { totalAmount: number; finalAmount: number }; timeline: { views: number }[] };
    expect(after.figures).toMatchObject({ totalAmount: 244_925, finalAmount: 220_433 });
    expect(after.timeline.reduce((s, t) => s + t.views, 0)).toBe(5);
    // Another company's accountant is told the course does not exist.
    expect((await costs('tuji')).statusCode).toBe(404);
    expect((await call('racunovodja', 'PUT', `/api/courses/${courseId}/costs`, { discount: 0 })).statusCode).toBe(403);
    const company = (await call('racunovodja', 'GET', `/api/companies/${ids.company}/costs`)).json() as { courses: unknown[]; finalAmount: number };
    expect(company).toMatchObject({ finalAmount: 220_433 });
    expect(company.courses).toHaveLength(1);
    expect((await call('racunovodja', 'GET', `/api/companies/${ids.other}/costs`)).statusCode).toBe(403);
    expect((await call('admin', 'PUT', `/api/courses/${courseId}/costs`, { discount: 120 })).statusCode).toBe(400);

    // Withdrawing the deal (1055): back on the defaults, billed to nobody, so the accountant no longer reads it; then agreed again.
    expect((await call('racunovodja', 'DELETE', `/api/courses/${courseId}/costs`)).statusCode).toBe(403);
    const beforeWithdrawal = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 20));
    expect((await call('admin', 'DELETE', `/api/courses/${courseId}/costs`)).statusCode).toBe(200);
    const withdrawn = (await costs('admin')).json() as { setAt: string | null; costs: { companyId: number | null }; figures: { totalAmount: number } };
    expect(withdrawn).toMatchObject({ setAt: null, costs: { companyId: null }, figures: { totalAmount: 234_925 } });
    expect((await costs('racunovodja')).statusCode).toBe(403);
    expect((await call('admin', 'DELETE', `/api/courses/${courseId}/costs`)).statusCode).toBe(404);
    // As of a moment before the withdrawal, the deal still stood: the history is kept.
    const asOf = (await call('admin', 'GET', `/api/courses/${courseId}/costs?asOf=${encodeURIComponent(beforeWithdrawal)}`)).json() as {
      setAt: string | null;
    };
    expect(asOf.setAt).not.toBeNull();
    expect((await call('admin', 'POST', `/api/courses/${courseId}/costs`, { companyId: ids.company, discount: 10, otherAmount: 10_000 })).statusCode).toBe(200);
    await call('admin', 'POST', `/api/courses/${courseId}/publish`);
    const refused = await call('admin', 'PUT', `/api/courses/${courseId}/costs`, { discount: 0 });
    expect(refused.statusCode).toBe(422);
    expect((refused.json() as { errors: { message: string }[] }).errors[0]?.message).toBe('Stroškov ni mogoče urejati, ko je izobraževanje aktivno.');
    expect((await call('admin', 'DELETE', `/api/courses/${courseId}/costs`)).statusCode).toBe(422);
    // The page is told so, and offers no edit while it stands.
    expect((await costs('admin')).json()).toMatchObject({ locked: true });
  });

  it("gives a manager their community at a glance: the company's course with their unit's people only; another company's manager sees no such course", async () => {
    type Community = {
      totals: { courses: number; participants: number; completions: number; nps: { answers: number } };
      courses: { id: number; participants: number; npsBlockId: number | null; nps: { answers: number } }[];
    };
    const mine = (await call('vodja', 'GET', '/api/stats/community')).json() as Community;
    const course = mine.courses.find((c) => c.id === courseId);
    // Unit A's three participants of five, their three NPS answers, the course's first NPS block to link to.
    expect(course).toMatchObject({ participants: 3, npsBlockId: npsBlock, nps: { answers: 3 } });
    expect(mine.totals).toMatchObject({ participants: 3, nps: { answers: 3 } });
    const admin = (await call('admin', 'GET', '/api/stats/community')).json() as Community;
    expect(admin.courses.find((c) => c.id === courseId)).toMatchObject({ participants: 5, nps: { answers: 5 } });
    const foreign = (await call('tujivodja', 'GET', '/api/stats/community')).json() as Community;
    expect(foreign.courses.some((c) => c.id === courseId)).toBe(false);
    expect((await call('ana', 'GET', '/api/stats/community')).statusCode).toBe(403);
  });

  it('shows the platform at a glance to the admin only, also as of a past instant', async () => {
    const now = (await call('admin', 'GET', '/api/stats')).json() as {
      enrollments: number;
      nps: { answers: number };
      topCourses: { id: number; views: number }[];
    };
    expect(now.enrollments).toBe(5);
    expect(now.nps.answers).toBe(5);
    expect(now.topCourses[0]).toMatchObject({ id: courseId, views: 5 });
    expect(((await call('admin', 'GET', '/api/stats?asOf=2000-01-01T00:00:00Z')).json() as { enrollments: number }).enrollments).toBe(0);
    expect((await call('vodja', 'GET', '/api/stats')).statusCode).toBe(403);
  });

  it('refuses bad parameters with 400 and unknown courses or intervals with 404', async () => {
    const status = async (url: string) => (await call('admin', 'GET', url)).statusCode;
    expect(await status(`/api/courses/${courseId}/success?intervalId=-1`)).toBe(400);
    expect(await status(`/api/courses/${courseId}/success?intervalId=1`)).toBe(404);
    expect(await status(`/api/courses/${courseId}/costs?bucket=year`)).toBe(400);
    expect(await status(`/api/courses/${courseId}/nps/${npsBlock}/communities?kind=city`)).toBe(400);
    expect(await status('/api/courses/999999/success')).toBe(404);
    expect(await status(`/api/courses/${courseId}/success?asOf=${encodeURIComponent("2026-01-01'; drop table es.events; --")}`)).toBe(400);
    expect((await call('admin', 'PUT', `/api/courses/${courseId}/costs`, { viewAmount: -5 })).statusCode).toBe(400);
    expect((await call('admin', 'PUT', `/api/courses/${courseId}/costs`, { viewAmount: 7.85 })).statusCode).toBe(400);
  });

  it('computes the success of an academy and who completed the whole series', async () => {
    const academy = (
      await call('admin', 'POST', '/api/academies', { title: 'Akademija', description: 'Serija izobraževanj.', cover: '/a.svg', courseIds: [courseId] })
    ).json() as { id: number };
    await steps(ids.a1 as number, [{ type: 'CourseCompleted', data: { creditPoints: 1 } }]);
    const result = (await call('admin', 'GET', `/api/academies/${academy.id}/success`)).json() as {
      courses: { course: { id: number } }[];
      completedSeries: number;
      successRate: number;
    };
    expect(result).toMatchObject({ completedSeries: 1, successRate: 75 });
    expect(result.courses.map((c) => c.course.id)).toEqual([courseId]);
    const manager = (await call('vodja', 'GET', `/api/academies/${academy.id}/success`)).json() as { attempted: number };
    expect(manager.attempted).toBe(3);
    expect((await call('ana', 'GET', `/api/academies/${academy.id}/success`)).statusCode).toBe(403);
  });

  it('answers the platform figures as they are at the request, never a result computed before a change (issue 33 item 4)', async () => {
    type Platform = { participants: number; completions: number; nps: { answers: number } };
    const before = (await call('admin', 'GET', '/api/stats')).json() as Platform;
    // A new participant finishes the course and answers its NPS: the next read (a live page's, or a first visit) has both.
    const user = await p.createUser('nova', [{ roleId: ROLE.participant, unitId: ids.unitB as number, companyId: ids.company as number }]);
    await steps(user, [started(user), nps(9), { type: 'CourseCompleted', data: { creditPoints: 1 } }]);
    const after = (await call('admin', 'GET', '/api/stats')).json() as Platform;
    expect(after).toMatchObject({ participants: before.participants + 1, completions: before.completions + 1, nps: { answers: before.nps.answers + 1 } });
  });

  it('streams which read models changed to an open page', async () => {
    await p.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (p.app.server.address() as { port: number }).port;
    const controller = new AbortController();
    const response = await fetch(`http://127.0.0.1:${port}/api/live`, { headers: { authorization: `JWT ${tokens.admin}` }, signal: controller.signal });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await new Promise((r) => setTimeout(r, 600));
    await steps(ids.b1 as number, [nps(3)]);
    let text = '';
    const deadline = Date.now() + 5_000;
    while (!text.includes('"stats"') && Date.now() < deadline) text += new TextDecoder().decode((await reader.read()).value);
    // `ready` first (the page reads once more then: nothing between its first read and the stream is missed), then the change.
    expect(text).toContain('event: ready');
    expect(text.indexOf('event: ready')).toBeLessThan(text.indexOf('event: changed'));
    expect(text).toContain('"stats"');
    controller.abort();
  });
});
