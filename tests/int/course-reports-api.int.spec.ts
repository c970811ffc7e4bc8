import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { REPORT_MESSAGES } from '../../domain/reports/course-report.rules.ts';
import { type AllPosition, formatPosition, parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { appendSteps, enrollmentStream, type Step } from '../support/enrollment-steps.ts';
import { pdfRenderers, pngInk, renderPdfPage } from '../support/pdf-render.ts';
import { pdfText } from '../support/pdf-text.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

// spec §8 "report error": the PDF renderer can be made to fail for one request.
const failing = vi.hoisted(() => ({ pdf: false }));
vi.mock('../../infrastructure/pdf/render-pool.ts', async (original) => {
  const real = await original<typeof import('../../infrastructure/pdf/render-pool.ts')>();
  return {
    ...real,
    pooledRenderers: (pool: Parameters<typeof real.pooledRenderers>[0]) => {
      const renderers = real.pooledRenderers(pool);
      return {
        ...renderers,
        reportDocuments: {
          pdf: async (document: Parameters<typeof renderers.reportDocuments.pdf>[0], owner?: string) => {
            if (failing.pdf) throw new Error('the renderer broke');
            return renderers.reportDocuments.pdf(document, owner);
          },
        },
      };
    },
  };
});

type Figures = {
  report: { id: number; intervalId: number; date: string; children: boolean; npsDetailed: boolean; npsReasons: boolean; user: { name: string } | null };
  window: { intervalId: number; from: string; to: string; asOf: string };
  scope: 'all' | 'community';
  participation: {
    participants: number;
    completions: number;
    completionRate: number | null;
    attempted: number;
    passed: number;
    successRate: number | null;
    firstAttemptRate: number | null;
    creditPointsIssued: number;
  };
  timeline: { bucket: string; periods: { period: string; participants: number; completions: number }[] };
  nps: {
    blockId: number;
    score: number | null;
    answers: number;
    promoters: number;
    neutrals: number;
    detractors: number;
    distribution: { score: number; count: number }[];
    reasons: { reason: string; category: string; count: number }[] | null;
    detailed: Record<string, { id: number; name: string; answers: number; score: number | null }[]> | null;
  }[];
  children: { id: number; name: string; participants: number; completions: number; successRate: number | null; npsScore: number | null }[] | null;
  costs: { costs: Record<string, unknown>; figures: { views: number; totalAmount: number; finalAmount: number } } | null;
  comments: { id: number; message: string; createdAt: string; reply: boolean }[] | null;
  withheld: { costs: boolean; comments: boolean; detailedNps: boolean };
};

describe('course reports (issue 17 item 3)', () => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  let courseId: number;
  let plainCourse: number;
  let npsBlock: number;
  let quizBlock: number;
  let last: AllPosition | null = null;
  const DAY = 86_400_000;

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
  const ok = async (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const response = await call(who, method, url, payload);
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response.json() as { id: number } & Record<string, unknown>;
  };

  /** A participant's steps on their enrollment stream, as the course commands write them. */
  const steps = async (user: number, events: Step[]) => {
    last = await appendSteps(p.store, enrollmentStream(courseId, user), events);
  };
  const started = (user: number) => ({ type: 'CourseStarted', data: { courseId, userId: user } });
  const nps = (score: number, reasons: string[] = []) => ({ type: 'NpsAnswered', data: { blockId: npsBlock, score, reasons, comment: null, followUps: [] } });
  const quiz = (attempt: number, passed: boolean) =>
    passed
      ? { type: 'QuizPassed', data: { blockId: quizBlock, attempt, score: 100, threshold: 100 } }
      : { type: 'QuizFailed', data: { blockId: quizBlock, attempt, score: 0, threshold: 100, retriesLeft: 1 } };
  const completed = { type: 'CourseCompleted', data: { creditPoints: 1.5 } };

  const generate = async (who: string, body: object, course = courseId) => call(who, 'POST', `/api/courses/${course}/reports`, body);
  const figures = async (who: string, reportId: number, course = courseId) => {
    const response = await call(who, 'GET', `/api/courses/${course}/reports/${reportId}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Figures;
  };
  const query = (f: Pick<Figures, 'window'>, extra = '') => `?intervalId=${f.window.intervalId}&asOf=${encodeURIComponent(f.window.asOf)}${extra}`;
  const tick = () => new Promise((resolve) => setTimeout(resolve, 25));

  beforeAll(async () => {
    p = await startTestPlatform();
    ids.admin = await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    ids.company = (await ok('admin', 'POST', '/api/companies', { name: 'Lekarne Poročila', address: 'Cesta 1' })).id;
    ids.other = (await ok('admin', 'POST', '/api/companies', { name: 'Drugo podjetje', address: 'Cesta 2' })).id;
    ids.unitA = (await ok('admin', 'POST', '/api/units', { name: 'Enota Ajdovščina', companyId: ids.company })).id;
    ids.unitB = (await ok('admin', 'POST', '/api/units', { name: 'Enota Bežigrad', companyId: ids.company })).id;
    ids.unitX = (await ok('admin', 'POST', '/api/units', { name: 'Enota X', companyId: ids.other })).id;
    for (const id of [ids.unitA, ids.unitB]) await ok('admin', 'POST', `/api/units/${id}/publish`);
    for (const [name, unit, company] of [
      ['a1', ids.unitA, ids.company],
      ['a2', ids.unitA, ids.company],
      ['a3', ids.unitA, ids.company],
      ['b1', ids.unitB, ids.company],
      ['b2', ids.unitB, ids.company],
      ['x1', ids.unitX, ids.other],
    ] as const) {
      ids[name] = await p.createUser(name, [{ roleId: ROLE.participant, unitId: unit as number, companyId: company as number }]);
      tokens[name] = (await p.login(name)).token;
    }
    const roles: [string, number, number, number][] = [
      ['vodja', ROLE.manager, ids.unitA as number, ids.company as number],
      ['racunovodja', ROLE.accountant, ids.unitA as number, ids.company as number],
      ['tujivodja', ROLE.manager, ids.unitX as number, ids.other as number],
      ['ana', ROLE.participant, ids.unitA as number, ids.company as number],
      ['urednik', ROLE.editor, 0, 0],
    ];
    for (const [name, roleId, unitId, companyId] of roles) {
      await p.createUser(name, [{ roleId: roleId as never, unitId, companyId: companyId || null }]);
      tokens[name] = (await p.login(name)).token;
    }

    const now = Date.now();
    courseId = (
      await ok('admin', 'POST', '/api/courses', {
        type: 3,
        title: 'Varna izdaja zdravil: čas, škoda, žarišča',
        description: 'Izobraževanje za preverjanje poročila o izobraževanju.',
        cover: '/c.svg',
        creditPoints: 1.5,
        postsEnabled: true,
        detailNps: true,
        audience: { companyIds: [ids.company] },
        intervals: [
          { startsAt: new Date(now - 30 * DAY).toISOString(), stopsAt: new Date(now - 20 * DAY).toISOString() },
          { startsAt: new Date(now - DAY).toISOString(), stopsAt: new Date(now + 30 * DAY).toISOString() },
        ],
      })
    ).id;
    quizBlock = (
      await ok('admin', 'POST', `/api/courses/${courseId}/blocks`, {
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
    ).id;
    npsBlock = (
      await ok('admin', 'POST', `/api/courses/${courseId}/blocks`, {
        block: {
          kind: 'nps',
          name: 'Vaše mnenje',
          question: 'Priporočili?',
          set: 1,
          reasons: { detractor: ['Predolgo'], neutral: ['Znano'], promoter: ['Uporabno'] },
        },
      })
    ).id;
    await ok('admin', 'POST', `/api/courses/${courseId}/costs`, { companyId: ids.company, discount: 10, otherAmount: 10_000 });
    await ok('admin', 'POST', `/api/courses/${courseId}/publish`);
    plainCourse = (
      await ok('admin', 'POST', '/api/courses', {
        type: 3,
        title: 'Tečaj brez podrobnega NPS',
        description: 'Izobraževanje brez podrobnega NPS za poročilo.',
        cover: '/c.svg',
        creditPoints: 1,
        audience: { companyIds: [ids.company] },
      })
    ).id;

    await steps(ids.a1 as number, [started(ids.a1 as number), quiz(1, true), nps(10, ['Uporabno']), completed]);
    await steps(ids.a2 as number, [started(ids.a2 as number), quiz(1, false), quiz(2, true), nps(8, ['Znano']), completed]);
    await steps(ids.a3 as number, [started(ids.a3 as number), nps(3, ['Predolgo'])]);
    await steps(ids.b1 as number, [started(ids.b1 as number), quiz(1, true), nps(9), completed]);
    await steps(ids.x1 as number, [started(ids.x1 as number), nps(6)]);
  }, 180_000);

  afterAll(async () => p?.close());

  let first: number;
  let firstDate = '';

  it('generates a report with 1064 and logs it: date, interval, children, npsDetailed, npsReasons, time created, user', async () => {
    const response = await generate('admin', { intervalId: 0, children: true, npsDetailed: true, npsReasons: true });
    expect(response.statusCode, response.body).toBe(201);
    first = (response.json() as { id: number }).id;
    const log = (await ok('admin', 'GET', `/api/courses/${courseId}/reports`)) as unknown as {
      course: { title: string; detailNps: boolean; intervals: unknown[] };
      items: {
        id: number;
        intervalId: number;
        date: string;
        timeCreated: string;
        children: boolean;
        npsDetailed: boolean;
        npsReasons: boolean;
        user: unknown;
      }[];
    };
    expect(log.course).toMatchObject({ title: 'Varna izdaja zdravil: čas, škoda, žarišča', detailNps: true });
    expect(log.course.intervals).toHaveLength(2);
    expect(log.items).toHaveLength(1);
    const [entry] = log.items;
    expect(entry).toMatchObject({
      id: first,
      intervalId: 0,
      children: true,
      npsDetailed: true,
      npsReasons: true,
      user: { id: ids.admin, name: 'Test skrbnik' },
    });
    // Made now, and its figures are as of the moment it was made.
    expect(Math.abs(new Date(entry?.timeCreated ?? 0).getTime() - Date.now())).toBeLessThan(60_000);
    expect(Math.abs(new Date(entry?.date ?? 0).getTime() - new Date(entry?.timeCreated ?? 0).getTime())).toBeLessThan(5_000);
    firstDate = entry?.date ?? '';
  });

  it('shows the same figures as the statistics read models for its interval, as of its date', async () => {
    const f = await figures('admin', first);
    expect(f.scope).toBe('all');
    expect(f.window.asOf).toBe(new Date(firstDate).toISOString());
    const success = (await ok('admin', 'GET', `/api/courses/${courseId}/success${query(f)}`)).success as Record<string, unknown>;
    expect(f.participation).toEqual({
      participants: success.started,
      completions: success.completed,
      completionRate: success.completionRate,
      attempted: success.attempted,
      passed: success.passed,
      successRate: success.successRate,
      firstAttemptRate: success.firstAttemptRate,
      averageScore: success.averageScore,
      creditPointsIssued: 4.5,
    });
    // Hand-computed: 5 started, 3 completed, 3 of 3 who tried the quiz passed, 2 at once.
    expect(f.participation).toMatchObject({ participants: 5, completions: 3, attempted: 3, passed: 3, firstAttemptRate: 66.7 });
    expect(f.timeline.periods.reduce((s, x) => s + x.participants, 0)).toBe(5);
    expect(f.timeline.periods.reduce((s, x) => s + x.completions, 0)).toBe(3);

    const [block] = f.nps;
    const overview = (await ok('admin', 'GET', `/api/courses/${courseId}/nps/${npsBlock}/overview${query(f)}`)).nps as Record<string, unknown>;
    expect(block).toMatchObject({
      blockId: npsBlock,
      score: overview.score,
      answers: overview.answers,
      promoters: overview.promoters,
      neutrals: overview.neutrals,
      detractors: overview.detractors,
      distribution: overview.distribution,
      reasons: overview.reasons,
    });
    expect(block).toMatchObject({ answers: 5, promoters: 2, neutrals: 1, detractors: 2, score: 0 });
    for (const kind of ['unit', 'company', 'group', 'profession']) {
      const rows = (await ok('admin', 'GET', `/api/courses/${courseId}/nps/${npsBlock}/communities${query(f, `&kind=${kind}`)}`)).rows;
      expect(block?.detailed?.[kind], kind).toEqual(rows);
    }

    const costs = (await ok('admin', 'GET', `/api/courses/${courseId}/costs${query(f)}`)) as unknown as { costs: unknown; figures: unknown };
    expect(f.costs).toMatchObject({ costs: costs.costs, figures: costs.figures });

    // Per unit: as the unit's success page (communityId) shows it.
    expect(f.children?.map((c) => c.name)).toEqual(['Enota Ajdovščina', 'Enota Bežigrad', 'Enota X']);
    for (const child of f.children ?? []) {
      const unit = (await ok('admin', 'GET', `/api/courses/${courseId}/success${query(f, `&communityId=${child.id}`)}`)).success as Record<string, unknown>;
      expect(child, child.name).toMatchObject({ participants: unit.started, completions: unit.completed, successRate: unit.successRate });
    }
    expect(f.children?.[0]).toMatchObject({ participants: 3, completions: 2, npsScore: 0 });
  });

  it('keeps its figures as of its date when more happens later, and a report of an interval counts only that interval', async () => {
    await tick();
    await steps(ids.b2 as number, [started(ids.b2 as number), quiz(1, true), nps(10), completed]);
    const again = await figures('admin', first);
    expect(again.participation).toMatchObject({ participants: 5, completions: 3 });
    expect(again.nps[0]?.answers).toBe(5);

    const now = (await generate('admin', { intervalId: 2, npsReasons: false })).json() as { id: number };
    const current = await figures('admin', now.id);
    expect(current.participation).toMatchObject({ participants: 6, completions: 4, creditPointsIssued: 6 });
    expect(current.nps[0]?.reasons).toBeNull();
    expect(current.nps[0]?.detailed).toBeNull();
    expect(current.children).toBeNull();
    const success = (await ok('admin', 'GET', `/api/courses/${courseId}/success${query(current)}`)).success as Record<string, unknown>;
    expect(current.participation.participants).toBe(success.started);

    // Interval 1 ended 20 days ago: nothing happened in it.
    const past = (await generate('admin', { intervalId: 1 })).json() as { id: number };
    const empty = await figures('admin', past.id);
    expect(empty.participation).toMatchObject({ participants: 0, completions: 0, creditPointsIssued: 0, successRate: null });
    expect(empty.timeline.periods).toEqual([]);

    // A date in the past: the figures as they stood then (before anyone started).
    const before = (await generate('admin', { intervalId: 0, date: new Date(Date.now() - 40 * DAY).toISOString() })).json() as { id: number };
    expect((await figures('admin', before.id)).participation.participants).toBe(0);
  });

  it('includes only the last 20 comments participants wrote, none hidden, deleted or by the course team', async () => {
    const written: number[] = [];
    for (let i = 1; i <= 24; i++) {
      const who = ['a1', 'a2', 'b1'][i % 3] as string;
      written.push((await ok(who, 'POST', '/api/post', { courseId, message: `Komentar številka ${i} – čšž` })).id);
      await tick();
    }
    const hidden = (await ok('a1', 'POST', '/api/post', { courseId, message: 'Skriti komentar' })).id;
    // Answered while it was shown; hidden with it.
    await ok('a2', 'POST', '/api/post', { courseId, message: 'Odgovor pod skritim', parentId: hidden });
    await ok('admin', 'PUT', `/api/post/${hidden}/hidden`, { hidden: true });
    const deleted = (await ok('b1', 'POST', '/api/post', { courseId, message: 'Izbrisani komentar' })).id;
    await ok('b1', 'DELETE', `/api/post/${deleted}`);
    await ok('admin', 'POST', `/api/post/${written[0]}/team-replies`, { message: 'Odgovor ekipe' });
    const reply = (await ok('a1', 'POST', '/api/post', { courseId, message: 'Odgovor udeleženca', parentId: written[1] })).id;
    await tick();
    const report = (await generate('admin', { intervalId: 0 })).json() as { id: number };
    await ok('a1', 'POST', '/api/post', { courseId, message: 'Napisan po poročilu' });

    const f = await figures('admin', report.id);
    expect(f.comments).toHaveLength(20);
    expect(f.comments?.[0]).toMatchObject({ id: reply, message: 'Odgovor udeleženca', reply: true });
    // The newest 19 of the 24 written before, newest first.
    expect(f.comments?.slice(1).map((c) => c.id)).toEqual(written.slice(-19).reverse());
    const messages = (f.comments ?? []).map((c) => c.message);
    for (const absent of ['Skriti komentar', 'Odgovor pod skritim', 'Izbrisani komentar', 'Odgovor ekipe', 'Napisan po poročilu'])
      expect(messages).not.toContain(absent);
  });

  it('shows each reader what the statistics pages show them, and refuses or hides the rest (1064, 1056, 1059)', async () => {
    // Generating needs 1064: the editor has it (no money: the costs are left out), a manager and a participant do not.
    const byEditor = await generate('urednik', { intervalId: 0, children: true });
    expect(byEditor.statusCode, byEditor.body).toBe(201);
    const editor = await figures('urednik', (byEditor.json() as { id: number }).id);
    expect(editor.costs).toBeNull();
    expect(editor.withheld).toMatchObject({ costs: true, comments: false });
    expect((await generate('vodja', { intervalId: 0 })).statusCode).toBe(403);
    expect((await generate('ana', { intervalId: 0 })).statusCode).toBe(403);

    // A manager of unit A reads reports of their company's course with the participants of their unit only.
    const manager = await figures('vodja', first);
    expect(manager.scope).toBe('community');
    const own = (await ok('vodja', 'GET', `/api/courses/${courseId}/success${query(manager)}`)).success as Record<string, unknown>;
    expect(manager.participation).toMatchObject({ participants: own.started, completions: own.completed });
    expect(manager.participation.participants).toBe(3);
    expect(manager.children?.map((c) => c.name)).toEqual(['Enota Ajdovščina']);
    expect(manager.costs).toBeNull();
    const managerOverview = (await ok('vodja', 'GET', `/api/courses/${courseId}/nps/${npsBlock}/overview${query(manager)}`)).nps as { answers: number };
    expect(manager.nps[0]?.answers).toBe(managerOverview.answers);
    // The accountant of the company the course is billed to reads its costs (2009).
    const accountant = await figures('racunovodja', first);
    expect(accountant.costs?.figures).toEqual(
      ((await ok('racunovodja', 'GET', `/api/courses/${courseId}/costs${query(accountant)}`)) as unknown as { figures: unknown }).figures,
    );
    // Another company's manager is told the course has no reports; a participant may not ask.
    for (const url of [`/api/courses/${courseId}/reports`, `/api/courses/${courseId}/reports/${first}`, `/api/courses/${courseId}/reports/${first}/pdf`]) {
      expect((await call('tujivodja', 'GET', url)).statusCode, url).toBe(404);
      expect((await call('ana', 'GET', url)).statusCode, url).toBe(403);
    }
    // A report asked for under another course does not exist there.
    expect((await call('admin', 'GET', `/api/courses/${plainCourse}/reports/${first}`)).statusCode).toBe(404);
    expect((await call('admin', 'GET', `/api/courses/${courseId}/reports/999999`)).statusCode).toBe(404);
  });

  it('refuses what the report cannot be: a detailed NPS the course lacks, a date to come, an interval it does not have', async () => {
    const detail = await generate('admin', { intervalId: 0, npsDetailed: true }, plainCourse);
    expect(detail.statusCode).toBe(400);
    expect(detail.json()).toEqual({ errors: [{ code: '400', message: REPORT_MESSAGES.noDetailedNps, field: 'npsDetailed' }] });
    const future = await generate('admin', { intervalId: 0, date: new Date(Date.now() + DAY).toISOString() });
    expect(future.json()).toEqual({ errors: [{ code: '400', message: REPORT_MESSAGES.futureDate, field: 'date' }] });
    const interval = await generate('admin', { intervalId: 3 });
    expect(interval.json()).toEqual({ errors: [{ code: '400', message: REPORT_MESSAGES.noInterval, field: 'intervalId' }] });
    expect((await generate('admin', { intervalId: 0 }, 999_999)).statusCode).toBe(404);
    expect((await generate('admin', { intervalId: 'vse' })).statusCode).toBe(400);
  });

  it('downloads as a PDF whose text shows the figures and whose first page, drawn, shows them with charts', async () => {
    const response = await call('admin', 'GET', `/api/courses/${courseId}/reports/${first}/pdf`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="porocilo-${courseId}-${first}.pdf"`);
    const pdf = response.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf);
    for (const expected of [
      'Poročilo o izobraževanju',
      'Varna izdaja zdravil: čas, škoda, žarišča',
      'Obdobje: ves čas',
      'Pripravil: Test skrbnik',
      'Udeleženci 5',
      'Zaključili 3',
      'Podeljene kreditne točke 4,5',
      'Porazdelitev ocen od 0 do 10',
      'Razlogi',
      'Uporabno',
      'Podrobni NPS: po enotah',
      'Enota Ajdovščina',
      'Za plačilo',
      'Zadnji komentarji (največ 20)',
      'stran 1 od',
    ])
      expect(text, expected).toContain(expected);
    const out = join(import.meta.dirname, '..', '..', 'test-results', 'course-report');
    await mkdir(out, { recursive: true });
    await writeFile(join(out, 'report.pdf'), pdf);
    for (const renderer of pdfRenderers()) {
      const png = await renderPdfPage(pdf, renderer, 1);
      await writeFile(join(out, `page-1-${renderer}.png`), png);
      expect(png.subarray(1, 4).toString(), renderer).toBe('PNG');
      const ink = await pngInk(png);
      // An A4 page at 60 dpi, with text and figures drawn on it, and coloured chart bars.
      expect(Math.abs(ink.width - 496), renderer).toBeLessThanOrEqual(1);
      expect(ink.ink, renderer).toBeGreaterThan(0.03);
      expect(ink.colour, renderer).toBeGreaterThan(0.005);
    }
  });

  it('answers the report error (spec §8) when the PDF cannot be made, and logs nothing for a report that cannot be made', async () => {
    failing.pdf = true;
    try {
      const response = await call('admin', 'GET', `/api/courses/${courseId}/reports/${first}/pdf`);
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ errors: [{ code: '500', message: REPORT_MESSAGES.failed, field: null }] });
    } finally {
      failing.pdf = false;
    }
    expect((await call('admin', 'GET', `/api/courses/${courseId}/reports/${first}/pdf`)).statusCode).toBe(200);
    const before = ((await ok('admin', 'GET', `/api/courses/${courseId}/reports`)) as unknown as { items: unknown[] }).items.length;
    expect((await generate('admin', { intervalId: 0, npsDetailed: true }, plainCourse)).statusCode).toBe(400);
    expect(((await ok('admin', 'GET', `/api/courses/${courseId}/reports`)) as unknown as { items: unknown[] }).items).toHaveLength(before);
  });
});
