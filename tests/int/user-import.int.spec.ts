import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_MESSAGES } from '../../domain/imports/user-import.rules.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { importXls, importXlsx, person } from '../support/import-files.ts';
import { startSmtpSink } from '../support/smtp-sink.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

type Problem = { row: number; column: string | null; code: string; message: string };
type Upload = { id: number; rows: number; status: string; problemCount: number; problems: Problem[]; existing: number };
type Detail = Upload & { processed: number; created: number; updated: number; skipped: number; failed: number; fileName: string; uploadedBy: { name: string } };
type Rows = { items: { row: number; outcome: string; message: string | null; user: { id: number; username: string } | null }[]; total: number };

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const sampleZip = async (files: Record<string, string>) => {
  const zip = new JSZip();
  for (const [name, content] of Object.entries(files)) zip.file(name, content);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
};

/**
 * Users imports (issue 17 item 1) over the API: the precheck flags exactly the bad rows by row and
 * column in Slovenian and blocks the import; a clean file imports as a job (welcome mail to those
 * it creates when asked); the same file again creates nobody twice; a changed row updates; disguised
 * files are refused by their content; 1005 decides who may.
 */
describe('users import API', () => {
  let p: TestPlatform;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  const token: Record<string, string> = {};
  const place = { company: 'Lekarne Zdravje d.o.o.', unit: 'Lekarna Center', profession: 'Magister farmacije' };

  const call = async (who: string | null, method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await p.app.inject({
      method,
      url,
      headers: who ? { authorization: `JWT ${token[who]}` } : {},
      ...(payload ? { payload } : {}),
    });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(position);
    return response;
  };
  const upload = async (who: string | null, bytes: Buffer, name = 'uporabniki.xlsx', contentType = XLSX_TYPE) => {
    const response = await p.app.inject({
      method: 'POST',
      url: `/api/imports?name=${encodeURIComponent(name)}`,
      headers: { 'content-type': contentType, ...(who ? { authorization: `JWT ${token[who]}` } : {}) },
      payload: bytes,
    });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(position);
    return response;
  };
  /** Polls the import (as the page does) until the job is done with it. */
  const finished = async (id: number, timeoutMs = 60_000): Promise<Detail> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const detail = (await call('admin', 'GET', `/api/imports/${id}`)).json() as Detail & { status: string };
      if (detail.status === 'completed' || detail.status === 'failed') return detail;
      if (Date.now() > deadline) throw new Error(`import ${id} still ${detail.status} (${detail.processed}/${detail.rows})`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const importFile = async (bytes: Buffer, sendWelcome = false) => {
    const uploaded = await upload('admin', bytes);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const { id } = uploaded.json() as Upload;
    const started = await call('admin', 'POST', `/api/imports/${id}/start`, { sendWelcome });
    expect(started.statusCode, started.body).toBe(202);
    return { id, upload: uploaded.json() as Upload, result: await finished(id) };
  };
  const importedUsers = async () => Number((await p.db.pg.query("select count(*)::int as n from rm.users where origin = 'import'")).rows[0]?.n ?? 0);

  beforeAll(async () => {
    smtp = await startSmtpSink();
    p = await startTestPlatform({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://medilearn.test' }, { jobs: true });
    await p.loadDemo();
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    await p.createUser('urednica', [{ roleId: ROLE.editor, unitId: 0, companyId: null }]);
    await p.createUser('sodelavka', [{ roleId: ROLE.participant, unitId: 1, companyId: null }]);
    token.admin = (await p.login('skrbnik')).token;
    token.editor = (await p.login('urednica')).token;
    token.participant = (await p.login('sodelavka')).token;
  }, 180_000);

  afterAll(async () => {
    await p?.close();
    await smtp?.close();
  });

  it('the precheck flags exactly the bad rows, by row and column, in Slovenian, and blocks the import', async () => {
    const rows = Array.from({ length: 14 }, (_, i) => person(i, place, 'pre'));
    // Sheet rows are the index + 2 (the header is row 1).
    rows[1] = { ...rows[1], email: 'ni-naslov' }; // row 3: invalid user data (§5 e-mail)
    rows[2] = { ...rows[2], profession: 'Astronavt' }; // row 4: profession not found
    rows[3] = { ...rows[3], unit: 'Lekarna Bežigrad', company: 'Neznano podjetje d.o.o.' }; // row 5: company missing
    rows[4] = { ...rows[4], unit: 'Ljubljanska enota' }; // row 6: unit missing in the company
    rows[5] = { ...rows[5], username: 'pre0' }; // row 7: the username of row 2 again
    rows[6] = { ...rows[6], username: 'udelezenec' }; // row 8: someone's username (user exists)
    rows[7] = { ...rows[7], firstName: '', phone: 'x' }; // row 9: two problems in one row
    rows[8] = { ...rows[8], username: 'ime s presledki', role: 'kapitan' }; // row 10: §5 username, unknown role
    rows[9] = { ...rows[9], email: 'udelezenec@demo.si' }; // row 11: someone's e-mail (user exists)
    rows[10] = { ...rows[10], profession: 'Specialist družinske medicine' }; // row 12: that profession needs a chamber number
    rows[11] = { ...rows[11], licenceNumber: '' }; // row 13: a pharmacist needs a licence number
    const response = await upload('admin', await importXlsx(rows));
    expect(response.statusCode, response.body).toBe(201);
    const result = response.json() as Upload;
    expect(result.rows).toBe(14);
    expect(result.status).toBe('blocked');
    expect(result.problems).toEqual([
      { row: 3, column: 'email', code: 'invalidUserData', message: 'Vnesite veljaven e-naslov' },
      { row: 4, column: 'profession', code: 'professionNotFound', message: IMPORT_MESSAGES.professionNotFound },
      { row: 5, column: 'company', code: 'unitOrCompany', message: 'Podjetje ne obstaja.' },
      { row: 6, column: 'unit', code: 'unitOrCompany', message: 'Enota v navedenem podjetju ne obstaja.' },
      { row: 7, column: 'username', code: 'duplicate', message: 'Enako uporabniško ime je že v vrstici 2.' },
      { row: 8, column: 'username', code: 'userExists', message: 'Uporabnik s tem uporabniškim imenom že obstaja.' },
      { row: 9, column: 'firstName', code: 'invalidUserData', message: 'Vnos je obvezen' },
      { row: 9, column: 'phone', code: 'invalidUserData', message: 'Vnesite veljavno telefonsko številko' },
      { row: 10, column: 'username', code: 'invalidUserData', message: 'Uporabniško ime lahko vsebuje le črke in številke' },
      { row: 10, column: 'role', code: 'invalidUserData', message: IMPORT_MESSAGES.unknownRole },
      { row: 11, column: 'email', code: 'userExists', message: 'Uporabnik s tem e-naslovom že obstaja.' },
      { row: 12, column: 'chamberMembershipNumber', code: 'invalidUserData', message: IMPORT_MESSAGES.chamberRequired },
      { row: 13, column: 'licenceNumber', code: 'invalidUserData', message: IMPORT_MESSAGES.licenceRequired },
    ]);
    expect(result.problemCount).toBe(13);
    // The list and the import's page say the same; nothing was written to users.
    const detail = (await call('admin', 'GET', `/api/imports/${result.id}`)).json() as Detail & { status: string };
    expect(detail.status).toBe('blocked');
    expect(detail.problems).toEqual(result.problems);
    expect(detail.fileName).toBe('uporabniki.xlsx');
    expect(detail.uploadedBy.name).toContain('skrbnik');
    // spec §8: blocked until the errors are fixed.
    const start = await call('admin', 'POST', `/api/imports/${result.id}/start`, { sendWelcome: false });
    expect(start.statusCode).toBe(422);
    expect(start.json()).toMatchObject({ errors: [{ message: IMPORT_MESSAGES.blocked }] });
    expect(await importedUsers()).toBe(0);
    // A blocked file is not kept: it will never run, and it holds people's data.
    expect((await p.db.pg.query('select file_id from rm.imports where id = $1', [result.id])).rows[0]).toEqual({ file_id: null });
  });

  it('a clean file imports as a job; each new user gets the welcome mail with the /nov-uporabnik link', async () => {
    const rows = Array.from({ length: 40 }, (_, i) => person(i, place, 'cist'));
    rows[0] = { ...rows[0], role: 'Vodja', unit: 'Lekarna Bežigrad', middleName: 'Marija' };
    const { id, upload: checked, result } = await importFile(await importXlsx(rows), true);
    expect(checked).toMatchObject({ status: 'ready', problemCount: 0, existing: 0 });
    expect(result).toMatchObject({ status: 'completed', rows: 40, processed: 40, created: 40, updated: 0, skipped: 0, failed: 0 });
    // The rows name their users as the users read model does: let it catch up with the job.
    await p.settleAll(await p.store.headPosition());
    const listed = (await call('admin', 'GET', `/api/imports/${id}/rows?outcome=created&pageSize=100`)).json() as Rows;
    expect(listed.total).toBe(40);
    expect(listed.items.map((r) => r.row)).toEqual(Array.from({ length: 40 }, (_, i) => i + 2));
    expect(listed.items[0]?.user?.username).toBe('cist0');
    // The user as the admin's user page shows them: the row's fields and role.
    const user = (await call('admin', 'GET', `/api/users/${listed.items[0]?.user?.id}`)).json() as {
      middleName: string;
      roles: { roleId: number; unitName: string }[];
    };
    expect(user.middleName).toBe('Marija');
    expect(user.roles).toMatchObject([{ roleId: ROLE.manager, unitName: 'Lekarna Bežigrad' }]);
    // Once done, the file (everyone's data) is removed; the result names users by id.
    const fileGone = async () =>
      (await p.db.pg.query('select 1 from public.files where id = (select file_id from rm.imports where id = $1)', [id])).rowCount === 0;
    for (let i = 0; i < 50 && !(await fileGone()); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await fileGone()).toBe(true);
    const welcome = await smtp.waitFor('cist7@lekarne.si', /Dobrodošli/, 90_000);
    expect(welcome.text).toContain('https://medilearn.test/nov-uporabnik?link=');
    expect(await importedUsers()).toBe(40);
  });

  it('the same file again creates nobody twice: its rows are skipped, a changed row updates its user', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => person(i, place, 'dvakrat'));
    const first = await importFile(await importXlsx(rows));
    expect(first.result).toMatchObject({ created: 30, skipped: 0 });
    // Counted once the users read model holds the first import's users (a count taken earlier raced it).
    await p.settleAll(await p.store.headPosition());
    const before = await importedUsers();
    const again = await importFile(await importXlsx(rows));
    expect(again.upload).toMatchObject({ status: 'ready', problemCount: 0, existing: 30 });
    expect(again.result).toMatchObject({ status: 'completed', created: 0, updated: 0, skipped: 30, failed: 0 });
    const changed = rows.map((row, i) => (i === 4 ? { ...row, phone: '031 999 888', unit: 'Lekarna Bežigrad' } : row));
    const third = await importFile(await importXlsx(changed));
    await p.settleAll(await p.store.headPosition());
    expect(third.result).toMatchObject({ created: 0, updated: 1, skipped: 29 });
    const updated = (await call('admin', 'GET', `/api/imports/${third.id}/rows?outcome=updated`)).json() as Rows;
    expect(updated.items).toMatchObject([{ row: 6, outcome: 'updated', user: { username: 'dvakrat4' } }]);
    const user = (await call('admin', 'GET', `/api/users/${updated.items[0]?.user?.id}`)).json() as { phone: string; roles: { unitName: string }[] };
    expect(user.phone).toBe('031 999 888');
    // The row's role is added; the one the user had stays.
    expect(user.roles.map((r) => r.unitName).sort()).toEqual(['Lekarna Bežigrad', 'Lekarna Center']);
    expect(await importedUsers()).toBe(before);
  });

  it('reads xls as well as xlsx', async () => {
    const { result } = await importFile(importXls(Array.from({ length: 5 }, (_, i) => person(i, place, 'stari'))));
    expect(result).toMatchObject({ status: 'completed', created: 5 });
  });

  it('refuses a file that only looks like a spreadsheet, by its content', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const refusals = [
      await upload('admin', png, 'slika.xlsx'),
      await upload('admin', Buffer.from('Uporabniško ime;E-naslov\nana;ana@x.si\n'), 'seznam.xls', 'application/vnd.ms-excel'),
      // A ZIP archive, but not a workbook (no workbook parts).
      await upload('admin', await sampleZip({ 'readme.txt': 'ni zvezek' }), 'arhiv.xlsx'),
      // A ZIP with the parts' names but a broken workbook.
      await upload('admin', await sampleZip({ '[Content_Types].xml': '<Types/>', 'xl/workbook.xml': 'ni xml' }), 'pokvarjen.xlsx'),
      // The OLE2 signature and nothing behind it.
      await upload('admin', Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(2048)]), 'stari.xls', 'application/octet-stream'),
    ];
    for (const response of refusals) {
      expect(response.statusCode, response.body).toBe(400);
      expect((response.json() as { errors: { message: string; field: string }[] }).errors[0]).toMatchObject({ field: 'file' });
    }
    expect(refusals[0]?.json()).toMatchObject({ errors: [{ message: IMPORT_MESSAGES.notWorkbook }] });
    // A workbook without the required columns says which are missing.
    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.Workbook();
    book.addWorksheet('List').addRow(['Ime', 'Priimek']);
    const columns = await upload('admin', Buffer.from(await book.xlsx.writeBuffer()));
    expect(columns.statusCode).toBe(400);
    expect((columns.json() as { errors: { message: string }[] }).errors[0]?.message).toContain('Uporabniško ime, E-naslov');
    // Too large: refused before it is read.
    const big = await upload('admin', Buffer.concat([await importXlsx([]), Buffer.alloc(11 * 1024 * 1024)]));
    expect(big.statusCode).toBe(413);
    // Nothing of these was recorded.
    const list = (await call('admin', 'GET', '/api/imports?pageSize=100')).json() as { items: { fileName: string }[] };
    expect(list.items.map((i) => i.fileName)).not.toContain('slika.xlsx');
  });

  it('only system user create (1005) may import, list and download the template', async () => {
    const file = await importXlsx([person(1, place, 'pravice')]);
    expect((await upload(null, file)).statusCode).toBe(401);
    for (const who of ['participant', 'editor']) {
      expect((await upload(who, file)).statusCode).toBe(403);
      expect((await call(who, 'GET', '/api/imports')).statusCode).toBe(403);
      expect((await call(who, 'GET', '/api/imports/template')).statusCode).toBe(403);
      expect((await call(who, 'POST', '/api/imports/1/start', { sendWelcome: false })).statusCode).toBe(403);
    }
    const template = await call('admin', 'GET', '/api/imports/template');
    expect(template.statusCode).toBe(200);
    expect(template.headers['content-type']).toBe(XLSX_TYPE);
    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(template.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    if (!sheet) throw new Error('the template has no sheet');
    expect((sheet.getRow(1).values as string[]).slice(1, 4)).toEqual(['Uporabniško ime *', 'E-naslov *', 'Ime *']);
    // The template, filled in, is a file the import takes.
    sheet.addRow(['izpredloge', 'izpredloge@lekarne.si', 'Iza', '', 'Predloga', '041 222 333', '', '', '', '', place.company, place.unit]);
    const { result } = await importFile(Buffer.from(await book.xlsx.writeBuffer()));
    expect(result).toMatchObject({ created: 1 });
  });
});
