import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

type Row = { id: number; name: string; answers: number; promoters: number; detractors: number };
type Success = { started: number; completed: number };

/**
 * Issue 32 item 1 (decision 0050): every figure counts an answer, a start and a completion where
 * the person stood when it happened. A participant of Bežigrad (in the group "Ljubljana", a
 * pharmacist) answers; she is moved to Center and becomes a nurse; she answers again and completes.
 * Asked "as of" a moment between, the figures are those of then; now, the new answer counts in
 * Center; and a rebuild of the statistics from position zero answers the same.
 */
describe('figures by membership at the time (issue 32 item 1)', () => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  let between: string;

  const call = async (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const response = await p.app.inject({ method, url, headers: { authorization: `JWT ${tokens[who]}` }, ...(payload ? { payload } : {}) });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(parsePosition(position));
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response;
  };
  const id = async (who: string, url: string, payload: object) => ((await call(who, 'POST', url, payload)).json() as { id: number }).id;
  const communities = async (block: number, kind: string, asOf?: string) =>
    (
      (
        await call('admin', 'GET', `/api/courses/${ids.course}/nps/${block}/communities?kind=${kind}${asOf ? `&asOf=${encodeURIComponent(asOf)}` : ''}`)
      ).json() as {
        rows: Row[];
      }
    ).rows.map((r) => ({ name: r.name, answers: r.answers, promoters: r.promoters, detractors: r.detractors }));
  const success = async (unitId: number, asOf?: string) =>
    (
      (await call('admin', 'GET', `/api/courses/${ids.course}/success?communityId=${unitId}${asOf ? `&asOf=${encodeURIComponent(asOf)}` : ''}`)).json() as {
        success: Success;
      }
    ).success;
  /** Everything the figures of this test answer, before or after a rebuild. */
  const figures = async () => {
    const [first, second] = [ids.first as number, ids.second as number];
    return {
      firstThen: await communities(first, 'unit', between),
      firstNow: await communities(first, 'unit'),
      secondThen: await communities(second, 'unit', between),
      secondNow: await communities(second, 'unit'),
      groups: [await communities(first, 'group'), await communities(second, 'group')],
      professions: [await communities(first, 'profession'), await communities(second, 'profession')],
      companies: [await communities(first, 'company'), await communities(second, 'company')],
      bezigradThen: await success(ids.bezigrad as number, between),
      bezigradNow: await success(ids.bezigrad as number),
      centerThen: await success(ids.center as number, between),
      centerNow: await success(ids.center as number),
    };
  };

  beforeAll(async () => {
    p = await startTestPlatform();
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    ids.company = await id('admin', '/api/companies', { name: 'Lekarne Ljubljana', address: 'Cesta 1' });
    ids.bezigrad = await id('admin', '/api/units', { name: 'Bežigrad', companyId: ids.company });
    ids.center = await id('admin', '/api/units', { name: 'Center', companyId: ids.company });
    await id('admin', '/api/community-groups', { name: 'Ljubljana sever', unitIds: [ids.bezigrad] });
    ids.pharmacist = await id('admin', '/api/professions', { name: 'Farmacevt' });
    ids.nurse = await id('admin', '/api/professions', { name: 'Medicinska sestra' });
    ids.ana = await p.createUser('ana', [{ roleId: ROLE.participant, unitId: ids.bezigrad, companyId: ids.company }]);
    tokens.ana = (await p.login('ana')).token;
    await call('ana', 'PUT', '/api/users/me', { firstName: 'Ana', lastName: 'Novak', phone: '041 000 000', professionId: ids.pharmacist });
    ids.course = await id('admin', '/api/courses', {
      type: 4,
      title: 'Interakcije',
      description: 'Izobraževanje o interakcijah zdravil za lekarne.',
      cover: '/c.jpg',
      creditPoints: 1,
      audience: { companyIds: [ids.company] },
    });
    const nps = (name: string) => ({ kind: 'nps', name, question: 'Bi priporočili?', set: 1, reasons: { detractor: [], neutral: [], promoter: [] } });
    ids.first = await id('admin', `/api/courses/${ids.course}/blocks`, { block: nps('Prvo mnenje') });
    ids.second = await id('admin', `/api/courses/${ids.course}/blocks`, { block: nps('Drugo mnenje') });
    ids.points = await id('admin', `/api/courses/${ids.course}/blocks`, { block: { kind: 'points', name: 'Točke', points: 1 } });
    await call('admin', 'POST', `/api/courses/${ids.course}/publish`);

    // In Bežigrad, a pharmacist: she starts and answers 10.
    await call('ana', 'POST', `/api/user-courses/${ids.course}/start`);
    await call('ana', 'POST', `/api/user-courses/${ids.course}/blocks/${ids.first}/nps`, { score: 10, reasons: [] });
    await new Promise((resolve) => setTimeout(resolve, 20));
    between = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Moved to Center, now a nurse: she answers the second question (3) and completes the course.
    await call('admin', 'POST', `/api/units/${ids.center}/members`, { userId: ids.ana });
    await call('admin', 'DELETE', `/api/units/${ids.bezigrad}/members/${ids.ana}`);
    await call('ana', 'PUT', '/api/users/me', { firstName: 'Ana', lastName: 'Novak', phone: '041 000 000', professionId: ids.nurse });
    await call('ana', 'POST', `/api/user-courses/${ids.course}/blocks/${ids.second}/nps`, { score: 3, reasons: [] });
    await call('ana', 'POST', `/api/user-courses/${ids.course}/blocks/${ids.points}/open`);
  }, 120_000);

  afterAll(async () => p?.close());

  it('counts each answer where she stood when giving it: a move changes nothing before it', async () => {
    const f = await figures();
    const bezigrad10 = [{ name: 'Bežigrad', answers: 1, promoters: 1, detractors: 0 }];
    // The first answer stays in Bežigrad, asked then or now; the second, given in Center, is not there before it was given.
    expect(f.firstThen).toEqual(bezigrad10);
    expect(f.firstNow).toEqual(bezigrad10);
    expect(f.secondThen).toEqual([]);
    expect(f.secondNow).toEqual([{ name: 'Center', answers: 1, promoters: 0, detractors: 1 }]);
    expect(f.groups).toEqual([[{ name: 'Ljubljana sever', answers: 1, promoters: 1, detractors: 0 }], []]);
    expect(f.professions).toEqual([
      [{ name: 'Farmacevt', answers: 1, promoters: 1, detractors: 0 }],
      [{ name: 'Medicinska sestra', answers: 1, promoters: 0, detractors: 1 }],
    ]);
    expect(f.companies.map((rows) => rows.map((r) => r.name))).toEqual([['Lekarne Ljubljana'], ['Lekarne Ljubljana']]);
    // She started in Bežigrad (then and now) and completed in Center (only now).
    expect(f.bezigradThen).toMatchObject({ started: 1, completed: 0 });
    expect(f.bezigradNow).toMatchObject({ started: 1, completed: 0 });
    expect(f.centerThen).toMatchObject({ started: 0, completed: 0 });
    expect(f.centerNow).toMatchObject({ completed: 1 });
  });

  it('answers the same after a rebuild of the statistics from position zero', async () => {
    const live = await figures();
    await p.runner.rebuild('stats');
    expect(await figures()).toEqual(live);
  });
});
