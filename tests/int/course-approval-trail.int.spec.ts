import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import XLSX from 'xlsx';
import { type Course, type CourseEvent, courseDecider, courseStream } from '../../domain/courses/course.ts';
import { courseContentHash } from '../../domain/courses/course-content-hash.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { fold } from '../../domain/shared/decider.ts';
import { ljubljanaWallClock } from '../../domain/shared/ljubljana-time.ts';
import { newEventId, parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { pngInk, renderPdfPage } from '../support/pdf-render.ts';
import { pdfText } from '../support/pdf-text.ts';
import { startTestPlatform, TEST_PASSWORD, type TestPlatform } from '../support/test-platform.ts';

/**
 * The approval trail for auditors (issue 36 item 3, decision 0064) through the API: a version
 * rejected, the content edited, a version approved in three steps with the password and published
 * (the approval routes of decision 0063), replayed from the course's stream to any moment; the
 * published content verified against the grant it was published under and against the content
 * recomputed from the log; the exports read back by a second xlsx reader (SheetJS) and drawn by
 * poppler's pdftoppm; the same after a rebuild of the read models and whatever a read model says; a
 * change that bypassed the rules (appended to the stream by hand) shown; only to auditors and admins.
 */
type Row = {
  at: string;
  kind: string;
  approvalVersion: number | null;
  stepLabel: string | null;
  who: { id: number; name: string } | null;
  meaning: string;
  comment: string | null;
  contentHash: string | null;
  code: string | null;
  method: string | null;
  hashMatchesContent: boolean | null;
};
type Trail = {
  course: { id: number; title: string };
  asOf: string | null;
  rows: Row[];
  verification: { publishedHash: string | null; approvedHash: string | null; currentHash: string | null; matches: boolean; status: string; reason: string };
};

const STEPS = [
  { key: 'medical', label: 'Medicinski pregled' },
  { key: 'legal', label: 'Pravni pregled' },
  { key: 'regulatory', label: 'Regulatorni pregled' },
];

/** The first sheet (or another) as rows of values, read by SheetJS. */
const sheetRows = (bytes: Buffer, name: string) => {
  const book = XLSX.read(bytes, { type: 'buffer', cellNF: true });
  return { names: book.SheetNames, rows: XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[name] as XLSX.WorkSheet, { header: 1, raw: true }), book };
};

describe('approval trail API (issue 36 item 3)', () => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  let courseId: number;
  let blockId: number;
  let approvedHash: string;
  let code: string;

  const call = async (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const response = await p.app.inject({ method, url, headers: { authorization: `JWT ${tokens[who]}` }, ...(payload ? { payload } : {}) });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.platform.runner.waitFor(['courses', 'users'], parsePosition(position) as never, 10_000);
    return response;
  };
  const trail = async (who = 'revizor', asOf?: string) =>
    (await call(who, 'GET', `/api/courses/${courseId}/approval/trail${asOf ? `?asOf=${encodeURIComponent(asOf)}` : ''}`)).json() as Trail;
  const stored = async () => (await p.store.readStream(courseStream(courseId))).events;
  const hashNow = async () =>
    courseContentHash(
      fold(
        courseDecider,
        (await stored()).map((e) => ({ type: e.type, data: e.data }) as CourseEvent),
      ) as Course,
    );
  /** Appends one event to the course stream by hand: a change that did not go through the rules. */
  const record = async (type: string, data: object, actorId: number) => {
    const result = await p.store.append(courseStream(courseId), [{ eventId: newEventId(), type, data, metadata: { actorId } }], { expectedRevision: 'any' });
    await p.platform.runner.waitFor(['courses'], result.position, 10_000);
  };
  const contentHash = async () => ((await call('skrbnik', 'GET', `/api/courses/${courseId}/approval`)).json() as { contentHash: string }).contentHash;
  const submit = async (hash: string, comment: string) => {
    const response = await call('skrbnik', 'POST', `/api/courses/${courseId}/approval/submit`, { contentHash: hash, comment });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { approvalVersion: number }).approvalVersion;
  };
  const sign = async (approvalVersion: number, step: string, signer: string, decision: 'approved' | 'rejected', hash: string) => {
    // A few milliseconds apart: the as-of cuts are by the log's recorded time.
    await sleep(5);
    const response = await call(signer, 'POST', `/api/courses/${courseId}/approval/sign`, {
      approvalVersion,
      step,
      decision,
      comment: decision === 'approved' ? 'Ustrezno.' : 'Manjka povzetek glavnih značilnosti zdravila.',
      contentHash: hash,
      password: TEST_PASSWORD,
    });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { code?: string | null }).code ?? null;
  };

  beforeAll(async () => {
    p = await startTestPlatform();
    ids.admin = await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.skrbnik = (await p.login('skrbnik')).token;
    ids.revizor = await p.createUser('revizor', [{ roleId: ROLE.auditor, unitId: 0, companyId: null }]);
    tokens.revizor = (await p.login('revizor')).token;
    ids.urednik = await p.createUser('urednik', [{ roleId: ROLE.editor, unitId: 0, companyId: null }]);
    tokens.urednik = (await p.login('urednik')).token;
    for (const signer of ['maja', 'peter', 'rok']) {
      ids[signer] = await p.createUser(signer, [{ roleId: ROLE.approver, unitId: 0, companyId: null }]);
      tokens[signer] = (await p.login(signer)).token;
    }
    // The platform's courses need approval: one step per signer. Saved before the course exists, so it is not the course's history.
    const steps = STEPS.map((step, i) => ({ ...step, approverIds: [ids[['maja', 'peter', 'rok'][i] as string] as number] }));
    const settings = await call('skrbnik', 'PUT', '/api/approval-settings/platform', { enabled: true, codePrefix: 'MEDI', steps });
    expect(settings.statusCode, settings.body).toBe(200);
    const company = (await call('skrbnik', 'POST', '/api/companies', { name: 'Farma A', address: 'Cesta 1' })).json() as { id: number };
    const other = (await call('skrbnik', 'POST', '/api/companies', { name: 'Farma B', address: 'Cesta 2' })).json() as { id: number };
    const unitA = ((await call('skrbnik', 'POST', '/api/units', { name: 'A1', companyId: company.id })).json() as { id: number }).id;
    const unitB = ((await call('skrbnik', 'POST', '/api/units', { name: 'B1', companyId: other.id })).json() as { id: number }).id;
    await p.createUser('vodja', [{ roleId: ROLE.manager, unitId: unitA, companyId: company.id }]);
    tokens.vodja = (await p.login('vodja')).token;
    await p.createUser('narocnik', [{ roleId: ROLE.client, unitId: unitB, companyId: other.id }]);
    tokens.narocnik = (await p.login('narocnik')).token;
    const created = await call('skrbnik', 'POST', '/api/courses', {
      type: 3,
      title: 'Zdravljenje hipertenzije: čaj, šipek in žajbelj',
      description: 'Strokovno izobraževanje o zdravljenju arterijske hipertenzije.',
      cover: '/covers/hipertenzija.jpg',
      creditPoints: 1,
      audience: { unitIds: [unitA] },
    });
    expect(created.statusCode).toBe(201);
    courseId = (created.json() as { id: number }).id;
    const block = await call('skrbnik', 'POST', `/api/courses/${courseId}/blocks`, { block: { kind: 'article', name: 'Uvod', html: '<p>Prva različica</p>' } });
    expect(block.statusCode).toBe(201);
    blockId = (block.json() as { id: number }).id;
  });

  afterAll(async () => p?.close());

  it('shows nothing before the first submission (authoring is not on the trail) and says the course is not published', async () => {
    const t = await trail();
    expect(t.course.title).toBe('Zdravljenje hipertenzije: čaj, šipek in žajbelj');
    expect(t.rows).toEqual([]);
    expect(t.verification).toMatchObject({ matches: false, status: 'not-published', reason: 'Izobraževanje ni objavljeno. Nobena različica še ni odobrena.' });
    expect(t.verification.currentHash).toBe(await hashNow());
  });

  it('lists a rejected version, then an approved one with every signature (name, time, meaning, method), the grant and the publish; the published content verifies', async () => {
    const first = await contentHash();
    expect(first).toBe(await hashNow());
    await submit(first, 'Različica 1 v pregled.');
    await sign(1, 'medical', 'maja', 'rejected', first);
    const edited = await call('skrbnik', 'PUT', `/api/courses/${courseId}/blocks/${blockId}`, {
      kind: 'article',
      name: 'Uvod',
      html: '<p>Druga različica</p>',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    approvedHash = await contentHash();
    expect(approvedHash).not.toBe(first);
    const version = await submit(approvedHash, 'Različica 2 v pregled.');
    await sign(version, 'medical', 'maja', 'approved', approvedHash);
    await sign(version, 'legal', 'peter', 'approved', approvedHash);
    code = (await sign(version, 'regulatory', 'rok', 'approved', approvedHash)) as string;
    expect(code).toMatch(/^MEDI-\d{4}-\d{4}$/);
    const published = await call('skrbnik', 'POST', `/api/courses/${courseId}/publish`);
    expect(published.statusCode, published.body).toBe(200);

    const t = await trail();
    expect(t.rows.map((r) => r.kind)).toEqual(['submitted', 'rejected', 'content-changed', 'submitted', 'signed', 'signed', 'signed', 'granted', 'published']);
    expect(t.rows[0]).toMatchObject({
      who: { id: ids.admin, name: 'Test skrbnik' },
      comment: 'Različica 1 v pregled.',
      contentHash: first,
      hashMatchesContent: true,
    });
    expect(t.rows[1]).toMatchObject({
      who: { id: ids.maja, name: 'Test maja' },
      stepLabel: 'Medicinski pregled',
      comment: 'Manjka povzetek glavnih značilnosti zdravila.',
      method: 'password',
    });
    expect(t.rows[2]).toMatchObject({ who: { id: ids.admin, name: 'Test skrbnik' }, contentHash: approvedHash });
    expect(t.rows[6]).toMatchObject({ stepLabel: 'Regulatorni pregled', who: { id: ids.rok, name: 'Test rok' }, hashMatchesContent: true, method: 'password' });
    // The meaning is the signature's own, as the signer was shown it.
    const signedEvent = (await stored()).filter((e) => e.type === 'CourseApprovalSigned').at(-1)?.data as { meaning: string };
    expect(t.rows[6]?.meaning).toBe(signedEvent.meaning);
    expect(t.rows[7]).toMatchObject({ code, approvalVersion: version, contentHash: approvedHash, hashMatchesContent: true });
    expect(t.rows[8]).toMatchObject({ code, contentHash: approvedHash, who: { name: 'Test skrbnik' }, hashMatchesContent: true });
    expect(t.verification).toMatchObject({
      matches: true,
      status: 'verified',
      publishedHash: approvedHash,
      approvedHash,
      currentHash: approvedHash,
      approvalCode: code,
    });
  });

  it('replays to an as-of moment: only what was recorded by then, and the verification of then', async () => {
    const events = await stored();
    const secondSubmission = events.filter((e) => e.type === 'CourseApprovalSubmitted')[1];
    const legal = events.find((e) => e.type === 'CourseApprovalSigned' && (e.data as { step: string }).step === 'legal');
    const atLegal = await trail('revizor', legal?.createdAt.toISOString());
    expect(atLegal.asOf).toBe(legal?.createdAt.toISOString());
    expect(atLegal.rows.map((r) => r.kind)).toEqual(['submitted', 'rejected', 'content-changed', 'submitted', 'signed', 'signed']);
    expect(atLegal.verification.status).toBe('not-published');
    const before = await trail('revizor', new Date((secondSubmission?.createdAt.getTime() ?? 0) - 1).toISOString());
    expect(before.rows.map((r) => r.kind)).toEqual(['submitted', 'rejected', 'content-changed']);
    // The same instant written as the Ljubljana wall clock with its offset.
    const at = legal?.createdAt as Date;
    const offsetHours = Math.round((ljubljanaWallClock(at).getTime() - at.getTime()) / 3_600_000);
    const local = `${ljubljanaWallClock(at).toISOString().slice(0, 23)}+0${offsetHours}:00`;
    expect((await trail('revizor', local)).rows).toHaveLength(6);
    const bad = await call('revizor', 'GET', `/api/courses/${courseId}/approval/trail?asOf=včeraj`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ errors: [{ message: 'Vnesite veljaven datum in čas.', field: 'asOf' }] });
  });

  it('reads the log, not a read model: an edited table changes nothing, and a rebuild gives the same trail', async () => {
    const without = ({ generatedAt: _, ...rest }: Trail & { generatedAt?: string }) => rest;
    const before = without(await trail());
    await p.db.pg.query(`update rm.courses set title = 'Ponarejeno' where id = $1`, [courseId]);
    await p.db.pg.query(`update rm.course_blocks set name = 'Ponarejeno' where course_id = $1`, [courseId]);
    expect(without(await trail())).toEqual(before);
    await p.runner.rebuild('courses');
    await p.runner.rebuild('users');
    expect(without(await trail())).toEqual(before);
  });

  it('exports the trail as xlsx (read by SheetJS): every signature with name, Ljubljana time and meaning, the code and the verification', async () => {
    const response = await call('revizor', 'GET', `/api/courses/${courseId}/approval/trail.xlsx`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="revizijska-sled-${courseId}.xlsx"`);
    const { names, rows, book } = sheetRows(response.rawPayload, 'Revizijska sled');
    expect(names).toEqual(['Revizijska sled', 'O izpisu']);
    expect(rows[0]).toEqual([
      'Št.',
      'Čas (Ljubljana)',
      'Dejanje',
      'Različica',
      'Korak',
      'Kdo',
      'Pomen',
      'Komentar',
      'Način podpisa',
      'Koda odobritve',
      'Zgoščena vrednost vsebine (SHA-256)',
      'Zgoščena vrednost se ujema z vsebino iz dnevnika',
      'Zapis v dnevniku (revizija)',
    ]);
    expect(rows).toHaveLength(10);
    const regulatory = rows[7] as unknown[];
    const meaning = ((await stored()).filter((e) => e.type === 'CourseApprovalSigned').at(-1)?.data as { meaning: string } | undefined)?.meaning;
    expect(regulatory.slice(2, 10)).toEqual(['Podpis: odobreno', 2, 'Regulatorni pregled', 'Test rok', meaning, 'Ustrezno.', 'ponovni vnos gesla', '']);
    expect(regulatory[10]).toBe(approvedHash);
    expect(regulatory[11]).toBe('Da');
    // The time is a date cell showing the Ljubljana wall clock of the signature's recording.
    const cell = (book.Sheets['Revizijska sled'] as XLSX.WorkSheet).B8;
    expect(cell?.t).toBe('n');
    expect(XLSX.SSF.is_date(cell?.z as string)).toBe(true);
    const d = XLSX.SSF.parse_date_code(cell?.v as number);
    const signed = (await trail()).rows[6]?.at as string;
    expect(
      `${d.y}-${String(d.m).padStart(2, '0')}-${String(d.d).padStart(2, '0')} ${String(d.H).padStart(2, '0')}:${String(d.M).padStart(2, '0')}:${String(d.S).padStart(2, '0')}`,
    ).toBe(ljubljanaWallClock(new Date(signed)).toISOString().slice(0, 19).replace('T', ' '));
    // Shown to the second (decision 0064): two signatures a minute apart do not read as one moment.
    expect(cell?.z).toMatch(/ss/);
    expect((rows[9] as unknown[]).slice(2, 3)).toEqual(['Objava']);
    expect((rows[9] as unknown[])[9]).toBe(code);
    const about = Object.fromEntries(sheetRows(response.rawPayload, 'O izpisu').rows.map((r) => [r[0], r[1]]));
    expect(about).toMatchObject({
      Izobraževanje: 'Zdravljenje hipertenzije: čaj, šipek in žajbelj',
      Preverjanje: 'Ujema se',
      Ujemanje: 'Da',
      'Koda odobritve objave': code,
      'Zgoščena vrednost objavljene vsebine': approvedHash,
      'Zgoščena vrednost odobrene vsebine': approvedHash,
      'Zgoščena vrednost, preračunana iz dnevnika': approvedHash,
      Pripravil: 'Test revizor',
    });
  });

  it('exports the trail as PDF: the words come out with č, š, ž, and pdftoppm draws its pages', async () => {
    const response = await call('revizor', 'GET', `/api/courses/${courseId}/approval/trail.pdf`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(response.rawPayload);
    for (const words of [
      'Revizijska sled odobritev',
      'Zdravljenje hipertenzije: čaj, šipek in žajbelj',
      'Ujema se',
      code,
      'Test maja',
      'Test peter',
      'Test rok',
      'Regulatorni pregled',
      'Manjka povzetek glavnih značilnosti zdravila.',
      'ponovni vnos gesla',
      // To the second (decision 0064).
      ljubljanaWallClock(new Date((await trail()).rows[6]?.at as string))
        .toISOString()
        .slice(11, 19),
    ])
      expect(text, words).toContain(words);
    const page = await renderPdfPage(response.rawPayload, 'pdftoppm', 1, 60);
    expect((await pngInk(page)).ink).toBeGreaterThan(0.01);
  });

  it('keeps the trail when the rules refuse a change of the published content, and flags a change that bypassed them, with the time and the hashes', async () => {
    const before = (await trail()).rows;
    const refused = await call('skrbnik', 'PUT', `/api/courses/${courseId}/blocks/${blockId}`, {
      kind: 'article',
      name: 'Uvod',
      html: '<p>Neodobren popravek</p>',
    });
    expect(refused.statusCode).toBe(422);
    expect((await trail()).rows).toEqual(before);
    // Written into the log by hand, past the rules (what the verification is for).
    await sleep(5);
    await record('CourseBlockUpdated', { blockId, block: { kind: 'article', name: 'Uvod', html: '<p>Neodobren popravek</p>' } }, ids.admin as number);
    const t = await trail();
    expect(t.rows.at(-1)).toMatchObject({ kind: 'content-changed', who: { name: 'Test skrbnik' } });
    expect(t.rows.at(-1)?.meaning).toBe(`Vsebina je bila spremenjena po odobritvi različice 2 (koda ${code}); spremenjena vsebina potrebuje novo odobritev.`);
    expect(t.verification).toMatchObject({ matches: false, status: 'mismatch', publishedHash: approvedHash, approvedHash, currentHash: await hashNow() });
    expect(t.verification.reason).toMatch(/^Vsebina je bila po objavi spremenjena \(/);
    const about = Object.fromEntries(
      sheetRows((await call('revizor', 'GET', `/api/courses/${courseId}/approval/trail.xlsx`)).rawPayload, 'O izpisu').rows.map((r) => [r[0], r[1]]),
    );
    expect(about).toMatchObject({ Preverjanje: 'Ne ujema se', Ujemanje: 'Ne' });
  });

  it('shows an unpublish, and a version submitted and withdrawn by its author', async () => {
    expect((await call('skrbnik', 'POST', `/api/courses/${courseId}/unpublish`)).statusCode).toBe(200);
    const version = await submit(await contentHash(), 'Popravek v pregled.');
    const withdrawn = await call('skrbnik', 'POST', `/api/courses/${courseId}/approval/withdraw`, { approvalVersion: version, comment: 'Dodajam poglavje.' });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    const t = await trail();
    expect(t.rows.slice(-3).map((r) => r.kind)).toEqual(['unpublished', 'submitted', 'withdrawn']);
    expect(t.rows.at(-1)).toMatchObject({ approvalVersion: version, who: { id: ids.admin, name: 'Test skrbnik' }, comment: 'Dodajam poglavje.' });
    expect(t.verification).toMatchObject({ status: 'not-published', matches: false });
    expect(t.verification.reason).toBe(`Izobraževanje ni objavljeno. Vsebina se razlikuje od zadnje odobrene različice 2 (koda ${code}).`);
  });

  it('shows each change of the scope’s approval settings while the course exists: who, when, on or off, the steps and their approvers; in both exports', async () => {
    const before = (await trail()).rows;
    expect(before.some((r) => r.kind === 'settings-changed')).toBe(false);
    const named = (names: string[]) => STEPS.map((step, i) => ({ ...step, approverIds: [ids[names[i] as string] as number] }));
    await sleep(5);
    expect(
      (await call('skrbnik', 'PUT', '/api/approval-settings/platform', { enabled: false, codePrefix: 'MEDI', steps: named(['maja', 'peter', 'rok']) }))
        .statusCode,
    ).toBe(200);
    await sleep(5);
    expect(
      (await call('skrbnik', 'PUT', '/api/approval-settings/platform', { enabled: true, codePrefix: 'MEDI', steps: named(['rok', 'peter', 'maja']) }))
        .statusCode,
    ).toBe(200);
    const t = await trail();
    const rows = t.rows.slice(-2) as (Row & { settings: { enabled: boolean; steps: { label: string; approvers: { name: string }[] }[] } })[];
    expect(rows.map((r) => [r.kind, r.who?.name, r.settings.enabled])).toEqual([
      ['settings-changed', 'Test skrbnik', false],
      ['settings-changed', 'Test skrbnik', true],
    ]);
    expect(rows[1]?.settings.steps.map((step) => [step.label, step.approvers.map((a) => a.name)])).toEqual([
      ['Medicinski pregled', ['Test rok']],
      ['Pravni pregled', ['Test peter']],
      ['Regulatorni pregled', ['Test maja']],
    ]);
    expect(rows[0]?.meaning).toBe(
      'Nastavitve odobritev, ki veljajo za to izobraževanje, so spremenjene: odobritev pred objavo je izključena; koraki in odobritelji: Medicinski pregled (Test maja); Pravni pregled (Test peter); Regulatorni pregled (Test rok).',
    );
    // As of a moment before them, they are not there yet.
    expect((await trail('revizor', new Date(new Date(rows[0]?.at as string).getTime() - 1).toISOString())).rows).toHaveLength(before.length);
    const sheet = sheetRows((await call('revizor', 'GET', `/api/courses/${courseId}/approval/trail.xlsx`)).rawPayload, 'Revizijska sled').rows;
    expect((sheet.at(-1) as unknown[]).slice(2, 7)).toEqual(
      ['Sprememba nastavitev odobritev', null, '', 'Test skrbnik', rows[1]?.meaning].map((v) => v ?? undefined),
    );
    const text = await pdfText((await call('revizor', 'GET', `/api/courses/${courseId}/approval/trail.pdf`)).rawPayload);
    expect(text).toContain('Sprememba nastavitev odobritev');
    expect(text).toContain('odobritev pred objavo je izključena');
  });

  it('is for auditors and admins only: 403 to an editor, a manager of company A and a client of company B; 404 for no course', async () => {
    for (const who of ['skrbnik', 'revizor']) expect((await call(who, 'GET', `/api/courses/${courseId}/approval/trail`)).statusCode, who).toBe(200);
    for (const who of ['urednik', 'vodja', 'narocnik'])
      for (const path of ['trail', 'trail.xlsx', 'trail.pdf'])
        expect((await call(who, 'GET', `/api/courses/${courseId}/approval/${path}`)).statusCode, `${who} ${path}`).toBe(403);
    expect((await p.app.inject({ method: 'GET', url: `/api/courses/${courseId}/approval/trail` })).statusCode).toBe(401);
    // The auditor finds the course by a part of its title or by its id; others may not look.
    const found = (await call('revizor', 'GET', `/api/approval-trail/courses?search=${encodeURIComponent('hipertenz')}`)).json() as { items: unknown[] };
    expect(found.items).toEqual([
      { id: courseId, title: 'Zdravljenje hipertenzije: čaj, šipek in žajbelj', published: false, status: 'draft', companyName: null },
    ]);
    expect(((await call('revizor', 'GET', `/api/approval-trail/courses?search=${courseId}0`)).json() as { items: unknown[] }).items).toEqual([]);
    expect((await call('urednik', 'GET', '/api/approval-trail/courses?search=hipertenz')).statusCode).toBe(403);
    const missing = await call('revizor', 'GET', '/api/courses/999999/approval/trail');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ errors: [{ message: 'Izobraževanje ne obstaja.' }] });
  });
});
