import { describe, expect, it } from 'vitest';
import { ROLE } from '../permissions/roles.ts';
import { IMPORT_COLUMNS, IMPORT_MESSAGES } from './user-import.rules.ts';
import { dataRows, mapHeader, precheckRows, type SheetRow } from './user-import-precheck.ts';

const header = IMPORT_COLUMNS.map((c) => c.header);
const references = {
  professions: [
    { id: 1, name: 'Farmacevt', needsLicence: true, needsChamber: false },
    { id: 2, name: 'Tehnik', needsLicence: false, needsChamber: false },
  ],
  companies: [
    { id: 10, name: 'Lekarne d.o.o.' },
    { id: 11, name: 'Druge lekarne d.o.o.' },
  ],
  units: [
    { id: 100, companyId: 10, name: 'Center' },
    { id: 101, companyId: 11, name: 'Šiška' },
  ],
};
const cells = (values: Partial<Record<(typeof IMPORT_COLUMNS)[number]['key'], string>>) => IMPORT_COLUMNS.map((c) => values[c.key] ?? '');
const good = (n: number) => ({
  username: `ana${n}`,
  email: `Ana${n}@x.si`,
  firstName: 'Ana',
  lastName: 'Novak',
  phone: '041 123 456',
  profession: 'tehnik',
  company: 'lekarne d.o.o.',
  unit: 'center',
});
const sheet = (...rows: ReturnType<typeof cells>[]): SheetRow[] => [{ row: 1, cells: header }, ...rows.map((r, i) => ({ row: i + 2, cells: r }))];
const check = (rows: SheetRow[], existing?: Parameters<typeof precheckRows>[3]) =>
  precheckRows(dataRows(rows), mapHeader(rows[0]?.cells ?? []), references, existing);

describe('users import precheck', () => {
  it('turns a clean row into the admin form’s fields: names matched ignoring case, e-mail lowercased, participant by default', () => {
    const result = check(sheet(cells(good(1))));
    expect(result.problems).toEqual([]);
    expect(result.rows[0]?.fields).toEqual({
      username: 'ana1',
      email: 'ana1@x.si',
      firstName: 'Ana',
      middleName: null,
      lastName: 'Novak',
      phone: '041 123 456',
      professionId: 2,
      otherJob: null,
      licenceNumber: null,
      chamberMembershipNumber: null,
      role: { roleId: ROLE.participant, unitId: 100, companyId: 10 },
    });
  });

  it('names what is wrong in each row and column, every problem at once', () => {
    const result = check(
      sheet(
        cells({ ...good(1), profession: 'Farmacevt' }),
        cells({ ...good(2), unit: 'Šiška' }),
        cells({ ...good(3), username: 'ANA1', email: 'ana1@X.si' }),
        cells({ ...good(4), firstName: 'Ana\u0000' }),
      ),
    );
    expect(result.problems).toEqual([
      { row: 2, column: 'licenceNumber', code: 'invalidUserData', message: IMPORT_MESSAGES.licenceRequired },
      { row: 3, column: 'unit', code: 'unitOrCompany', message: IMPORT_MESSAGES.unitMismatch },
      { row: 4, column: 'username', code: 'duplicate', message: IMPORT_MESSAGES.duplicateUsername(2) },
      { row: 4, column: 'email', code: 'duplicate', message: IMPORT_MESSAGES.duplicateEmail(2) },
      { row: 5, column: 'firstName', code: 'invalidUserData', message: 'Vnos vsebuje nedovoljene znake.' },
    ]);
    expect(result.rows.map((r) => r.fields === null)).toEqual([true, true, true, true]);
  });

  it('a row that is an existing user again is counted, not flagged; half a match is "user exists"', () => {
    const existing = [
      { id: 5, username: 'ana1', email: 'ana1@x.si', active: true },
      { id: 6, username: 'ana2', email: 'drug@x.si', active: true },
      { id: 7, username: 'ana3', email: 'ana3@x.si', active: false },
    ];
    const result = check(sheet(cells(good(1)), cells(good(2)), cells(good(3))), existing);
    expect(result.existing).toBe(1);
    expect(result.problems).toEqual([
      { row: 3, column: 'username', code: 'userExists', message: IMPORT_MESSAGES.usernameExists },
      { row: 4, column: 'username', code: 'userExists', message: IMPORT_MESSAGES.existsInactive },
    ]);
  });

  it('finds columns by header in any order, ignoring case and a required-column star; names the missing ones', () => {
    const reordered = ['E-NASLOV *', 'Uporabniško ime *', ...header.slice(2)];
    expect(mapHeader(reordered).columns.get('email')).toBe(0);
    expect(mapHeader(['Ime', 'Priimek']).missing).toEqual(['Uporabniško ime', 'E-naslov', 'Telefon', 'Podjetje', 'Enota']);
  });

  it('skips empty rows but keeps the sheet’s row numbers', () => {
    const rows: SheetRow[] = [
      { row: 1, cells: header },
      { row: 2, cells: ['', ' '] },
      { row: 5, cells: cells({ ...good(1), phone: '' }) },
    ];
    expect(check(rows).problems).toEqual([{ row: 5, column: 'phone', code: 'invalidUserData', message: 'Vnos je obvezen' }]);
  });
});
