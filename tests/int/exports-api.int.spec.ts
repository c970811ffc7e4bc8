import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import XLSX from 'xlsx';
import { consentText } from '../../domain/consents/consent.rules.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { ERASED_PERSON } from '../../domain/shared/event.ts';
import { ljubljanaWallClock } from '../../domain/shared/ljubljana-time.ts';
import { type AllPosition, formatPosition, parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { appendSteps, enrollmentStream, type Step } from '../support/enrollment-steps.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

/**
 * Exports (issue 17 item 2, decision 0026) over the API with the job queue running: each kind's
 * file read back by a second reader (SheetJS, not exceljs that wrote it): Slovenian headers, rows,
 * numbers as numeric cells (money in euros with two decimals), times as date cells in Ljubljana
 * time; the required parameters; statuses and progress; who may start and download which kind.
 */
type Item = {
  id: number;
  kind: string;
  parameters: Record<string, unknown>;
  status: string;
  progress: { done: number; total: number };
  attempts: number;
  createdAt: string;
  user: { id: number; name: string };
  courseTitle: string | null;
  companyName: string | null;
  rows: number | null;
  fileAvailable: boolean;
  fileDiscarded: boolean;
  error: string | null;
};
type Sheet = XLSX.CellObject[][];

/** The first sheet as rows of cells, by the second reader. */
const readSheet = (bytes: Buffer, index = 0): Sheet => {
  const book = XLSX.read(bytes, { type: 'buffer', cellNF: true });
  const sheet = book.Sheets[book.SheetNames[index] as string] as XLSX.WorkSheet;
  const range = XLSX.utils.decode_range(sheet['!ref'] as string);
  const rows: Sheet = [];
  for (let r = range.s.r; r <= range.e.r; r++) {
    const row: XLSX.CellObject[] = [];
    for (let c = range.s.c; c <= range.e.c; c++) row.push(sheet[XLSX.utils.encode_cell({ r, c })] ?? { t: 'z' });
    rows.push(row);
  }
  return rows;
};
const sheetNames = (bytes: Buffer) => XLSX.read(bytes, { type: 'buffer' }).SheetNames;
const values = (row: XLSX.CellObject[] | undefined) => (row ?? []).map((cell) => (cell.t === 'z' ? null : cell.v));
/** A date cell: numeric, with a date format, read as its wall-clock fields. */
const dateOf = (cell: XLSX.CellObject | undefined) => {
  expect(cell?.t).toBe('n');
  expect(XLSX.SSF.is_date(cell?.z as string)).toBe(true);
  const d = XLSX.SSF.parse_date_code(cell?.v as number);
  return `${d.y}-${String(d.m).padStart(2, '0')}-${String(d.d).padStart(2, '0')} ${String(d.H).padStart(2, '0')}:${String(d.M).padStart(2, '0')}`;
};
/** What a date cell must say for an instant: its wall clock in Ljubljana, to the minute. */
const ljubljana = (at: Date | string) => ljubljanaWallClock(new Date(at)).toISOString().slice(0, 16).replace('T', ' ');
const column = (sheet: Sheet, header: string) => {
  const index = values(sheet[0]).indexOf(header);
  expect(index, `column ${header}`).toBeGreaterThanOrEqual(0);
  return index;
};
const rowOf = (sheet: Sheet, header: string, value: unknown) => sheet.find((row) => row[column(sheet, header)]?.v === value);

describe('exports API', () => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  let last: AllPosition | null = null;
  let courseId = 0;
  let npsBlock = 0;
  let pointsBlock = 0;
  const npsTimes: Record<string, Date> = {};

  const call = async (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const response = await p.app.inject({
      method,
      url,
      headers: { ...(tokens[who] ? { authorization: `JWT ${tokens[who]}` } : {}), ...(last ? { 'x-min-position': formatPosition(last) } : {}) },
      ...(payload ? { payload } : {}),
    });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') last = parsePosition(position);
    return response;
  };
  const created = async (who: string, url: string, payload: object) => {
    const response = await call(who, 'POST', url, payload);
    expect(response.statusCode, response.body).toBeLessThan(300);
    return (response.json() as { id: number }).id;
  };
  const steps = async (user: number, events: Step[]) => {
    const stream = enrollmentStream(courseId, user);
    last = await appendSteps(p.store, stream, events);
    return (await p.store.readStream(stream)).events.at(-1)?.createdAt as Date;
  };

  /** Asks for an export and waits for it to finish (or fail); its list item. */
  const exportOf = async (who: string, kind: string, parameters: object, until: readonly string[] = ['finished', 'error']) => {
    const asked = await call(who, 'POST', '/api/exports', { kind, parameters });
    expect(asked.statusCode, asked.body).toBe(202);
    const { id } = asked.json() as { id: number };
    const deadline = Date.now() + 30_000;
    for (;;) {
      const list = (await call(who, 'GET', '/api/exports')).json() as { items: Item[] };
      const item = list.items.find((i) => i.id === id);
      if (item && until.includes(item.status)) return item;
      if (Date.now() > deadline) throw new Error(`export ${id} still ${item?.status}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const download = async (who: string, id: number) => {
    const response = await call(who, 'GET', `/api/exports/${id}/file`);
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    return response.rawPayload;
  };

  beforeAll(async () => {
    p = await startTestPlatform({}, { jobs: true });
    ids.admin = await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    ids.companyA = await created('admin', '/api/companies', { name: 'Lekarne Izvoz d.o.o.', address: 'Cesta 1' });
    ids.companyB = await created('admin', '/api/companies', { name: 'Drugo podjetje d.o.o.', address: 'Cesta 2' });
    ids.unitA = await created('admin', '/api/units', { name: 'Lekarna Izvoz', companyId: ids.companyA });
    ids.unitB = await created('admin', '/api/units', { name: 'Lekarna Drugje', companyId: ids.companyB });
    const people: [string, number, number][] = [
      ['ana', ids.unitA as number, ids.companyA as number],
      ['bojan', ids.unitA as number, ids.companyA as number],
      ['erika', ids.unitA as number, ids.companyA as number],
      ['zunanji', ids.unitB as number, ids.companyB as number],
    ];
    for (const [name, unitId, companyId] of people) ids[name] = await p.createUser(name, [{ roleId: ROLE.participant, unitId, companyId }]);
    ids.editor = await p.createUser('urednik', [{ roleId: ROLE.editor, unitId: 0, companyId: null }]);
    ids.auditor = await p.createUser('revizor', [{ roleId: ROLE.auditor, unitId: 0, companyId: null }]);
    ids.accountant = await p.createUser('racunovodja', [{ roleId: ROLE.accountant, unitId: ids.unitA as number, companyId: ids.companyA as number }]);
    ids.foreign = await p.createUser('tuji', [{ roleId: ROLE.accountant, unitId: ids.unitB as number, companyId: ids.companyB as number }]);
    for (const who of ['urednik', 'revizor', 'racunovodja', 'tuji', 'ana']) tokens[who] = (await p.login(who)).token;

    courseId = await created('admin', '/api/courses', {
      type: 3,
      title: 'Izvoz tečaja',
      description: 'Izobraževanje za preverjanje izvozov.',
      cover: '/c.svg',
      creditPoints: 2,
      audience: { companyIds: [ids.companyA] },
    });
    pointsBlock = await created('admin', `/api/courses/${courseId}/blocks`, { block: { kind: 'points', name: 'Točke', points: 2 } });
    npsBlock = await created('admin', `/api/courses/${courseId}/blocks`, {
      block: {
        kind: 'nps',
        name: 'Anketa zadovoljstva',
        question: 'Bi priporočili?',
        set: 1,
        reasons: { detractor: ['Predolgo'], neutral: [], promoter: ['Uporabno'] },
        commentEnabled: true,
      },
    });
    await call('admin', 'POST', `/api/courses/${courseId}/costs`, { companyId: ids.companyA, otherAmount: 12_345, discount: 10 });
    expect((await call('admin', 'POST', `/api/courses/${courseId}/publish`)).statusCode).toBe(200);

    // Ana completes the course and is a promoter; Bojan starts and is a detractor; Erika answers with a comment (and is erased later).
    await steps(ids.ana as number, [
      { type: 'CourseStarted', data: { courseId, userId: ids.ana } },
      { type: 'BlockOpened', data: { blockId: pointsBlock, done: true } },
    ]);
    npsTimes.ana = await steps(ids.ana as number, [
      { type: 'NpsAnswered', data: { blockId: npsBlock, score: 10, reasons: ['Uporabno'], comment: null, followUps: [] } },
    ]);
    await steps(ids.ana as number, [{ type: 'CourseCompleted', data: { creditPoints: 2 } }]);
    await steps(ids.bojan as number, [{ type: 'CourseStarted', data: { courseId, userId: ids.bojan } }]);
    npsTimes.bojan = await steps(ids.bojan as number, [
      { type: 'NpsAnswered', data: { blockId: npsBlock, score: 3, reasons: ['Predolgo'], comment: null, followUps: [] } },
    ]);
    await steps(ids.erika as number, [{ type: 'CourseStarted', data: { courseId, userId: ids.erika } }]);
    npsTimes.erika = await steps(ids.erika as number, [
      { type: 'NpsAnswered', data: { blockId: npsBlock, score: 8, reasons: [], comment: 'Erikin komentar o tečaju', followUps: [] } },
    ]);
    // An admin records a consent on Bojan's behalf (withdrawn communications), for the auditor's export.
    expect(
      (await call('admin', 'POST', `/api/users/${ids.bojan}/consents`, { action: 'withdraw', type: 4, note: 'Po telefonu, 1. 3.' })).statusCode,
    ).toBeLessThan(300);
    await p.settleAll(last);
  }, 180_000);

  afterAll(async () => p?.close());

  const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Ljubljana' }).format(new Date());

  it('refuses an export whose parameters are not all filled, with the message of spec §8 on each field', async () => {
    const missing = await call('admin', 'POST', '/api/exports', { kind: 'nps', parameters: { courseId } });
    expect(missing.statusCode).toBe(400);
    expect((missing.json() as { errors: { field: string; message: string }[] }).errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'parameters.from', message: 'Za izvoz morajo biti izpolnjena vsa polja.' }),
        expect.objectContaining({ field: 'parameters.to', message: 'Za izvoz morajo biti izpolnjena vsa polja.' }),
      ]),
    );
    const empty = await call('admin', 'POST', '/api/exports', { kind: 'costs', parameters: { companyId: null, from: '', to: '' } });
    expect(empty.statusCode).toBe(400);
    expect(new Set((empty.json() as { errors: { message: string }[] }).errors.map((e) => e.message))).toEqual(
      new Set(['Za izvoz morajo biti izpolnjena vsa polja.']),
    );
    expect((await call('admin', 'POST', '/api/exports', { parameters: {} })).json()).toEqual({
      errors: [{ code: '400', message: 'Izberite vrsto izvoza.', field: 'kind' }],
    });
    // What the parameters name must exist: a course by its field (decision 0047), an interval of it.
    expect((await call('admin', 'POST', '/api/exports', { kind: 'participants', parameters: { courseId: 99_999, intervalId: 0 } })).json()).toEqual({
      errors: [{ code: '400', message: 'Izbrano izobraževanje ne obstaja ali ni na voljo (št. 99999).', field: 'parameters.courseId' }],
    });
    expect((await call('admin', 'POST', '/api/exports', { kind: 'participants', parameters: { courseId, intervalId: 3 } })).statusCode).toBe(404);
  });

  it('exports users: Slovenian headers, ids as numbers, registration times as dates in Ljubljana time, roles and status', async () => {
    const item = await exportOf('admin', 'users', { companyId: ids.companyA, status: 'all' });
    expect(item).toMatchObject({
      kind: 'users',
      status: 'finished',
      parameters: { companyId: ids.companyA, status: 'all' },
      companyName: 'Lekarne Izvoz d.o.o.',
      user: { id: ids.admin, name: 'Test skrbnik' },
      rows: 4,
      fileAvailable: true,
      error: null,
    });
    expect(item.progress).toEqual({ done: 4, total: 4 });
    expect(Date.parse(item.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    const bytes = await download('admin', item.id);
    expect(sheetNames(bytes)).toEqual(['Uporabniki', 'O izvozu']);
    const sheet = readSheet(bytes);
    expect(values(sheet[0])).toEqual([
      'ID',
      'Uporabniško ime',
      'Ime',
      'Srednje ime',
      'Priimek',
      'E-pošta',
      'Telefon',
      'Poklic',
      'Drugo delo',
      'Številka licence',
      'Številka članstva v zbornici',
      'Vloge',
      'Stanje',
      'Registriran',
      'Zadnja prijava',
    ]);
    // Company A's people: the three participants and the accountant, in id order.
    expect(sheet.slice(1).map((row) => row[0]?.v)).toEqual([ids.ana, ids.bojan, ids.erika, ids.accountant]);
    const ana = rowOf(sheet, 'ID', ids.ana) as XLSX.CellObject[];
    expect(ana[0]?.t).toBe('n');
    expect(values(ana).slice(1, 6)).toEqual(['ana', 'Test', null, 'ana', 'ana@test.si']);
    expect(ana[column(sheet, 'Vloge')]?.v).toBe('udeleženec – Lekarna Izvoz');
    expect(ana[column(sheet, 'Stanje')]?.v).toBe('aktiven');
    const detail = (await call('admin', 'GET', `/api/users/${ids.ana}`)).json() as { registeredAt: string };
    expect(dateOf(ana[column(sheet, 'Registriran')])).toBe(ljubljana(detail.registeredAt));
    expect(rowOf(sheet, 'ID', ids.accountant)?.[column(sheet, 'Vloge')]?.v).toBe('računovodja – Lekarna Izvoz');
    // The second sheet says what the export is.
    const about = readSheet(bytes, 1);
    expect(values(about[0])).toEqual(['Izvoz', 'Uporabniki']);
    expect(about.map((row) => row[0]?.v)).toEqual(
      expect.arrayContaining(['Podjetje (ID; 0 = vsa)', 'Stanje uporabnikov', 'Pripravil', 'Pripravljeno', 'Število vrstic']),
    );
  });

  it('exports course participants and their progress: numbers, percentages, credit points and times as typed cells', async () => {
    const item = await exportOf('admin', 'participants', { courseId, intervalId: 0 });
    expect(item).toMatchObject({ status: 'finished', courseTitle: 'Izvoz tečaja', rows: 3 });
    const sheet = readSheet(await download('admin', item.id));
    expect(values(sheet[0])).toEqual([
      'ID uporabnika',
      'Ime in priimek',
      'Uporabniško ime',
      'E-pošta',
      'Poklic',
      'Enota',
      'Podjetje',
      'Stanje',
      'Začetek',
      'Zadnja aktivnost',
      'Opravljeni bloki',
      'Vsi bloki',
      'Napredek',
      'Zaključeno',
      'Kreditne točke',
      'Certifikat izdan',
    ]);
    const ana = rowOf(sheet, 'ID uporabnika', ids.ana) as XLSX.CellObject[];
    expect(values(ana).slice(1, 8)).toEqual(['Test ana', 'ana', 'ana@test.si', null, 'Lekarna Izvoz', 'Lekarne Izvoz d.o.o.', 'zaključeno']);
    expect(ana[column(sheet, 'Opravljeni bloki')]).toMatchObject({ t: 'n', v: 2 });
    expect(ana[column(sheet, 'Vsi bloki')]).toMatchObject({ t: 'n', v: 2 });
    expect(ana[column(sheet, 'Napredek')]).toMatchObject({ t: 'n', v: 1, z: '0.0%' });
    expect(ana[column(sheet, 'Kreditne točke')]).toMatchObject({ t: 'n', v: 2 });
    const enrollment = (await p.store.readStream(`enrollment-${courseId}_${ids.ana}`)).events;
    expect(dateOf(ana[column(sheet, 'Začetek')])).toBe(ljubljana(enrollment[0]?.createdAt as Date));
    expect(dateOf(ana[column(sheet, 'Zaključeno')])).toBe(ljubljana(enrollment.at(-1)?.createdAt as Date));
    const bojan = rowOf(sheet, 'ID uporabnika', ids.bojan) as XLSX.CellObject[];
    expect(bojan[column(sheet, 'Stanje')]?.v).toBe('v teku');
    // Bojan answered the survey, one block of two.
    expect(bojan[column(sheet, 'Napredek')]).toMatchObject({ t: 'n', v: 0.5, w: '50.0%' });
    expect(bojan[column(sheet, 'Zaključeno')]?.t ?? 'z').toBe('z');
  });

  it('exports NPS answers of a period: scores as numbers, groups and reasons, answer times in Ljubljana time', async () => {
    const item = await exportOf('admin', 'nps', { courseId, from: today(), to: today() });
    expect(item.rows).toBe(3);
    const sheet = readSheet(await download('admin', item.id));
    expect(values(sheet[0])).toEqual([
      'Čas odgovora',
      'ID uporabnika',
      'Ime in priimek',
      'E-pošta',
      'Poklic',
      'Enota',
      'Podjetje',
      'Blok',
      'Ocena',
      'Skupina',
      'Razlogi',
      'Komentar',
    ]);
    const ana = rowOf(sheet, 'ID uporabnika', ids.ana) as XLSX.CellObject[];
    expect(dateOf(ana[0])).toBe(ljubljana(npsTimes.ana as Date));
    expect(ana[column(sheet, 'Ocena')]).toMatchObject({ t: 'n', v: 10 });
    expect(values(ana).slice(7)).toEqual(['Anketa zadovoljstva', 10, 'promotor', 'Uporabno', null]);
    expect(values(rowOf(sheet, 'ID uporabnika', ids.bojan)).slice(8, 11)).toEqual([3, 'kritik', 'Predolgo']);
    expect(rowOf(sheet, 'ID uporabnika', ids.erika)?.[column(sheet, 'Komentar')]?.v).toBe('Erikin komentar o tečaju');
    // A period that holds no answer: the header alone.
    const before = await exportOf('admin', 'nps', { courseId, from: '2020-01-01', to: '2020-12-31' });
    expect(before.rows).toBe(0);
    expect(readSheet(await download('admin', before.id))).toHaveLength(1);
  });

  it('exports costs: money in euros with two decimals from integer cents, as numeric cells; the accountant only for their company', async () => {
    const item = await exportOf('admin', 'costs', { companyId: ids.companyA, from: '2020-01-01', to: today() });
    expect(item).toMatchObject({ status: 'finished', companyName: 'Lekarne Izvoz d.o.o.', rows: 1 });
    const sheet = readSheet(await download('admin', item.id));
    expect(values(sheet[0])).toEqual([
      'ID izobraževanja',
      'Izobraževanje',
      'Ogledi',
      'Cena ogleda (€)',
      'Znesek ogledov (€)',
      'Arhiv (€)',
      'Produkcija (€)',
      'Podrobni NPS (€)',
      'Notranji bazen (€)',
      'Drugo (€)',
      'Fiksni znesek (€)',
      'Skupaj (€)',
      'Popust (%)',
      'Končni znesek (€)',
      'Delitev prihodka (€)',
    ]);
    const row = sheet[1] as XLSX.CellObject[];
    // Three participants opened the course: 3 views at 7,85 €; defaults of spec §9; other 123,45 €; 10 % off.
    const total = 300 + 450 + 3 * 7.85 + 780 + 780 + 123.45;
    expect(values(row)).toEqual([courseId, 'Izvoz tečaja', 3, 7.85, 23.55, 300, 450, 780, 780, 123.45, 0, total, 10, Math.round(total * 90) / 100, 0]);
    for (const index of [3, 4, 11, 13]) expect(row[index]).toMatchObject({ t: 'n', z: '#,##0.00 "€"' });
    expect(row[11]?.w).toBe('2,457.00 €');

    // The accountant of company A exports A's costs and reads the admin's export; another company's accountant may not.
    const own = await exportOf('racunovodja', 'costs', { companyId: ids.companyA, from: '2020-01-01', to: today() });
    expect(own.status).toBe('finished');
    await download('racunovodja', item.id);
    expect(
      (await call('tuji', 'POST', '/api/exports', { kind: 'costs', parameters: { companyId: ids.companyA, from: '2020-01-01', to: today() } })).statusCode,
    ).toBe(400);
    expect((await call('tuji', 'GET', `/api/exports/${item.id}/file`)).statusCode).toBe(404);
    expect(((await call('tuji', 'GET', '/api/exports')).json() as { items: Item[] }).items).toEqual([]);
    expect(
      (await call('urednik', 'POST', '/api/exports', { kind: 'costs', parameters: { companyId: ids.companyA, from: '2020-01-01', to: today() } })).statusCode,
    ).toBe(403);
    expect((await call('urednik', 'GET', `/api/exports/${item.id}/file`)).statusCode).toBe(404);
    // The accountant exports nothing but costs.
    expect((await call('racunovodja', 'POST', '/api/exports', { kind: 'users', parameters: { companyId: 0, status: 'all' } })).statusCode).toBe(403);
  });

  it('exports consents for an auditor: every change in the period with its channel, who recorded it, the chain check and hash', async () => {
    const item = await exportOf('revizor', 'consents', { companyId: ids.companyA, from: '2020-01-01', to: today() });
    expect(item).toMatchObject({ status: 'finished', user: { id: ids.auditor, name: 'Test revizor' } });
    const sheet = readSheet(await download('revizor', item.id));
    expect(values(sheet[0])).toEqual([
      'Čas',
      'ID uporabnika',
      'Uporabnik',
      'Uporabniško ime',
      'Št. v verigi',
      'Dejanje',
      'Vrsta',
      'Privolitev',
      'Različica besedila',
      'Kanal',
      'IP',
      'Brskalnik',
      'Vnesel v imenu uporabnika',
      'Opomba',
      'Veriga',
      'Zgoščeni zapis (SHA-256)',
    ]);
    // Four consents each for four people of company A, and Bojan's withdrawal recorded by the admin.
    expect(item.rows).toBe(17);
    const withdrawn = sheet.find((row) => row[column(sheet, 'Dejanje')]?.v === 'preklicana') as XLSX.CellObject[];
    expect(values(withdrawn).slice(1, 10)).toEqual([
      ids.bojan,
      'Test bojan',
      'bojan',
      5,
      'preklicana',
      4,
      'Obveščanje',
      consentText(4).version,
      'vnos skrbnika',
    ]);
    expect(values(withdrawn).slice(12, 15)).toEqual(['Test skrbnik', 'Po telefonu, 1. 3.', 'nedotaknjena']);
    expect(String(withdrawn[15]?.v)).toMatch(/^[0-9a-f]{64}$/);
    const history = (await p.store.readStream(`consent-${ids.bojan}`)).events.at(-1)?.data as { at: string };
    expect(dateOf(withdrawn[0])).toBe(ljubljana(history.at));
    // Readable by admins (1070) as well; editors and participants never.
    await download('admin', item.id);
    expect((await call('urednik', 'GET', `/api/exports/${item.id}/file`)).statusCode).toBe(404);
    expect((await call('ana', 'GET', `/api/exports/${item.id}/file`)).statusCode).toBe(403);
    expect((await call('ana', 'POST', '/api/exports', { kind: 'consents', parameters: { companyId: 0, from: '2020-01-01', to: today() } })).statusCode).toBe(
      403,
    );
    expect(
      (await call('urednik', 'POST', '/api/exports', { kind: 'consents', parameters: { companyId: 0, from: '2020-01-01', to: today() } })).statusCode,
    ).toBe(403);
    // The auditor lists only consent exports; the editor none of them.
    const auditorList = ((await call('revizor', 'GET', '/api/exports')).json() as { items: Item[] }).items;
    expect(new Set(auditorList.map((i) => i.kind))).toEqual(new Set(['consents']));
    expect(((await call('urednik', 'GET', '/api/exports')).json() as { items: Item[] }).items.some((i) => i.kind === 'consents' || i.kind === 'costs')).toBe(
      false,
    );
  });

  it('offers each person the kinds they may export, and the choices of their parameters', async () => {
    type Options = { kinds: string[]; courses: { id: number; title: string }[]; companies: { name: string }[]; costCompanies: { name: string }[] };
    const options = async (who: string) => (await call(who, 'GET', '/api/exports/options')).json() as Options;
    const admin = await options('admin');
    expect(admin.kinds).toEqual(['users', 'participants', 'nps', 'costs', 'consents', 'chambers']);
    expect(admin.courses.map((c) => c.title)).toContain('Izvoz tečaja');
    expect(admin.companies.map((c) => c.name)).toEqual(['Drugo podjetje d.o.o.', 'Lekarne Izvoz d.o.o.']);
    expect((await options('urednik')).kinds).toEqual(['users', 'participants', 'nps', 'chambers']);
    expect(await options('racunovodja')).toEqual({
      kinds: ['costs'],
      courses: [],
      companies: [],
      costCompanies: [{ id: ids.companyA, name: 'Lekarne Izvoz d.o.o.' }],
    });
    const auditor = await options('revizor');
    expect([auditor.kinds, auditor.courses, auditor.companies.length]).toEqual([['consents'], [], 2]);
    expect((await call('ana', 'GET', '/api/exports/options')).statusCode).toBe(403);
  });

  it('records the statuses and the progress as events: initiated, computing with progress, finished', async () => {
    const item = await exportOf('admin', 'users', { companyId: 0, status: 'active' });
    const events = (await p.store.readStream(`export-${item.id}`)).events;
    expect(events.map((e) => e.type)).toEqual(['ExportRequested', 'ExportStarted', 'ExportProgressed', 'ExportFinished']);
    expect(events[0]?.data).toEqual({ exportId: item.id, kind: 'users', parameters: { companyId: 0, status: 'active' }, requestedBy: ids.admin });
    expect(events[2]?.data).toEqual({ done: item.rows, total: item.rows });
    expect(item).toMatchObject({ attempts: 1, progress: { done: item.rows, total: item.rows } });
  });

  it("never serves an export's file through the file route, not even to authors", async () => {
    const item = (((await call('admin', 'GET', '/api/exports')).json() as { items: (Item & { id: number })[] }).items ?? []).find((i) => i.fileAvailable);
    const events = (await p.store.readStream(`export-${item?.id}`)).events;
    const fileId = (events.find((e) => e.type === 'ExportFinished')?.data as { fileId: number } | undefined)?.fileId;
    expect(fileId).toBeGreaterThan(0);
    for (const who of ['admin', 'urednik']) expect((await call(who, 'GET', `/api/files/${fileId}`)).statusCode).toBe(404);
  });

  it('after a person is erased, earlier files that may name her are discarded, others’ stay, and new exports read "izbrisan uporabnik"', async () => {
    const before = await exportOf('admin', 'users', { companyId: ids.companyA, status: 'all' });
    const costs = await exportOf('admin', 'costs', { companyId: ids.companyA, from: '2020-01-01', to: today() });
    // Another company's people: she was never one of them (issue 32 item 3).
    const others = await exportOf('admin', 'users', { companyId: ids.companyB, status: 'all' });
    const fileId = ((await p.store.readStream(`export-${before.id}`)).events.at(-1)?.data as { fileId: number } | undefined)?.fileId;
    expect((await call('admin', 'DELETE', `/api/users/${ids.erika}/personal-data`)).statusCode).toBe(200);
    const deadline = Date.now() + 20_000;
    let discarded: Item | undefined;
    while (!discarded?.fileDiscarded && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      discarded = ((await call('admin', 'GET', '/api/exports')).json() as { items: Item[] }).items.find((i) => i.id === before.id);
    }
    expect(discarded).toMatchObject({ status: 'finished', fileAvailable: false, fileDiscarded: true });
    expect((await call('admin', 'GET', `/api/exports/${before.id}/file`)).statusCode).toBe(404);
    expect(await p.db.pg.query('select 1 from public.files where id = $1', [fileId]).then((r) => r.rowCount)).toBe(0);
    // Costs name nobody, company B's users never named her: those files stay.
    await download('admin', costs.id);
    await download('admin', others.id);

    const users = readSheet(await download('admin', (await exportOf('admin', 'users', { companyId: ids.companyA, status: 'all' })).id));
    expect(values(rowOf(users, 'ID', ids.erika)).slice(1, 6)).toEqual([ERASED_PERSON, ERASED_PERSON, ERASED_PERSON, ERASED_PERSON, ERASED_PERSON]);
    const participants = readSheet(await download('admin', (await exportOf('admin', 'participants', { courseId, intervalId: 0 })).id));
    expect(values(rowOf(participants, 'ID uporabnika', ids.erika)).slice(1, 4)).toEqual([ERASED_PERSON, ERASED_PERSON, ERASED_PERSON]);
    const nps = readSheet(await download('admin', (await exportOf('admin', 'nps', { courseId, from: today(), to: today() })).id));
    const erika = rowOf(nps, 'ID uporabnika', ids.erika) as XLSX.CellObject[];
    expect([erika[2]?.v, erika[3]?.v, erika[column(nps, 'Komentar')]?.v, erika[column(nps, 'Ocena')]?.v]).toEqual([
      ERASED_PERSON,
      ERASED_PERSON,
      ERASED_PERSON,
      8,
    ]);
    const consents = readSheet(await download('revizor', (await exportOf('revizor', 'consents', { companyId: 0, from: '2020-01-01', to: today() })).id));
    const rows = consents.filter((row) => row[1]?.v === ids.erika);
    expect(rows).toHaveLength(4);
    for (const row of rows) expect([row[2]?.v, row[3]?.v]).toEqual([ERASED_PERSON, ERASED_PERSON]);
  });
});
