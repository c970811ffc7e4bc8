import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

type Overview = { answers: number; score: number | null; distribution: { score: number; count: number }[]; comments: { comment: string }[] };

/**
 * Issue 17 item 4 over the API: a survey (course type 9) is read and answered at /anketa without
 * logging in, once per browser token or signed-in person; the answers are in the course's NPS
 * statistics; a course that is no survey is missing and a survey past its time is closed.
 */
describe('public surveys', () => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const call = async (who: string | null, method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await p.app.inject({ method, url, headers: who ? { authorization: `JWT ${tokens[who]}` } : {}, ...(payload ? { payload } : {}) });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(parsePosition(position));
    return response;
  };
  const nps = {
    kind: 'nps',
    name: 'Mnenje',
    question: 'Kako verjetno bi priporočili našo lekarno?',
    set: 8,
    reasons: { detractor: ['Dolge vrste'], neutral: ['V redu'], promoter: ['Prijazno osebje'] },
    commentEnabled: true,
  };
  const course = async (type: number, extra: object = {}) => {
    const created = await call('admin', 'POST', '/api/courses', {
      type,
      title: `Anketa ${type}`,
      description: 'Kratka anketa o zadovoljstvu z lekarno.',
      cover: '/c.svg',
      creditPoints: 0,
      public: true,
      ...extra,
    });
    const id = (created.json() as { id: number }).id;
    const block = await call('admin', 'POST', `/api/courses/${id}/blocks`, { block: nps });
    await call('admin', 'POST', `/api/courses/${id}/publish`);
    return { id, blockId: (block.json() as { id: number }).id };
  };

  beforeAll(async () => {
    p = await startTestPlatform();
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    await p.createUser('ana', [{ roleId: ROLE.participant, unitId: 1, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    tokens.ana = (await p.login('ana')).token;
    const survey = await course(9);
    ids.survey = survey.id;
    ids.block = survey.blockId;
    ids.plain = (await course(3)).id;
    const closed = await course(9, {
      intervals: [{ startsAt: new Date(Date.now() - 10 * 86_400_000).toISOString(), stopsAt: new Date(Date.now() - 86_400_000).toISOString() }],
    });
    ids.closed = closed.id;
    ids.closedBlock = closed.blockId;
  });
  afterAll(async () => p.close());

  it('shows a survey to anyone, and tells a missing one from a closed one', async () => {
    const shown = await call(null, 'GET', `/api/surveys/${ids.survey}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({
      title: 'Anketa 9',
      questions: [{ blockId: ids.block, question: 'Kako verjetno bi priporočili našo lekarno?', commentEnabled: true }],
    });
    expect((await call(null, 'GET', `/api/surveys/${ids.plain}`)).json()).toEqual({ errors: [{ code: '404', message: 'Anketa ne obstaja.', field: null }] });
    expect((await call(null, 'GET', '/api/surveys/999999')).statusCode).toBe(404);
    const closed = await call(null, 'GET', `/api/surveys/${ids.closed}`);
    expect(closed.statusCode).toBe(410);
    expect((closed.json() as { errors: { message: string }[] }).errors[0]?.message).toBe('Anketa je zaprta in ne sprejema več odgovorov.');
  });

  it('takes one answer per ballot handed out with the survey and per signed-in person, and counts them in the course’s NPS', async () => {
    const answer = (score: number, reasons: string[], comment: string | null = null) => ({ answers: [{ blockId: ids.block, score, reasons, comment }] });
    /** What an anonymous browser is handed with the survey (decision 0049). */
    const ballot = async (surveyId = ids.survey) => ((await call(null, 'GET', `/api/surveys/${surveyId}`)).json() as { ballot: string }).ballot;
    expect(((await call('ana', 'GET', `/api/surveys/${ids.survey}`)).json() as { ballot: unknown }).ballot).toBeNull();
    const browser = await ballot();
    expect(
      (await call(null, 'POST', `/api/surveys/${ids.survey}/answers`, { ballot: browser, ...answer(10, ['Prijazno osebje'], 'Odlično!') })).statusCode,
    ).toBe(201);
    const again = await call(null, 'POST', `/api/surveys/${ids.survey}/answers`, { ballot: browser, ...answer(3, []) });
    expect(again.json()).toEqual({ errors: [{ code: '409', message: 'Na to anketo ste že odgovorili.', field: null }] });
    expect((await call(null, 'POST', `/api/surveys/${ids.survey}/answers`, { ballot: await ballot(), ...answer(4, ['Dolge vrste']) })).statusCode).toBe(201);
    // A signed-in person answers as themself, whatever ballot they send.
    expect((await call('ana', 'POST', `/api/surveys/${ids.survey}/answers`, { ballot: await ballot(), ...answer(8, ['V redu']) })).statusCode).toBe(201);
    expect((await call('ana', 'POST', `/api/surveys/${ids.survey}/answers`, answer(8, []))).statusCode).toBe(409);
    // A ballot the browser made up, or one of another survey, is no ballot: an address cannot answer without end.
    const refused = { errors: [{ code: '400', message: 'Glasovnica ankete ni veljavna. Odprite anketo znova.', field: 'ballot' }] };
    expect((await call(null, 'POST', `/api/surveys/${ids.survey}/answers`, { ballot: randomUUID(), ...answer(9, []) })).json()).toEqual(refused);
    expect((await call(null, 'POST', `/api/surveys/${ids.survey}/answers`, answer(9, []))).json()).toEqual(refused);
    // Bad answers change nothing: a reason of another group, a missing answer.
    expect((await call(null, 'POST', `/api/surveys/${ids.survey}/answers`, { ballot: await ballot(), ...answer(10, ['Dolge vrste']) })).statusCode).toBe(400);
    expect((await call(null, 'POST', `/api/surveys/${ids.survey}/answers`, { ballot: await ballot(), answers: [] })).statusCode).toBe(400);
    // A question of another survey is no question of this one (decision 0047); a closed survey takes no answer.
    expect((await call('ana', 'POST', `/api/surveys/${ids.closed}/answers`, answer(9, []))).statusCode).toBe(400);
    const closedAnswer = { answers: [{ blockId: ids.closedBlock, score: 9, reasons: [], comment: null }] };
    expect((await call('ana', 'POST', `/api/surveys/${ids.closed}/answers`, closedAnswer)).statusCode).toBe(410);

    const overview = ((await call('admin', 'GET', `/api/courses/${ids.survey}/nps/${ids.block}/overview?intervalId=0`)).json() as { nps: Overview }).nps;
    expect(overview.answers).toBe(3);
    expect(overview.distribution.filter((d) => d.count > 0).map((d) => [d.score, d.count])).toEqual([
      [4, 1],
      [8, 1],
      [10, 1],
    ]);
    expect(overview.comments.map((c) => c.comment)).toEqual(['Odlično!']);
  });
});
