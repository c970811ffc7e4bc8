import type { RoleId } from '../permissions/roles.ts';
import { ROLE } from '../permissions/roles.ts';
import {
  cellProblems,
  IMPORT_COLUMNS,
  IMPORT_MAX_PROBLEMS,
  IMPORT_MESSAGES,
  IMPORT_ROLES,
  type ImportCells,
  type ImportColumn,
  type ImportProblem,
  normaliseHeader,
} from './user-import.rules.ts';

/**
 * The precheck of a users import (issue 17 item 1): every row and every column, every problem of
 * spec §8 at once, before anything is written. Pure: the references (professions, companies,
 * units) and the users that already exist come in as data.
 */

/** A row of the sheet as read: its number in the sheet (1 = the first row) and its cells as text. */
export type SheetRow = { readonly row: number; readonly cells: readonly string[] };

export type ImportReferences = {
  readonly professions: readonly { readonly id: number; readonly name: string; readonly needsLicence: boolean; readonly needsChamber: boolean }[];
  readonly companies: readonly { readonly id: number; readonly name: string }[];
  readonly units: readonly { readonly id: number; readonly companyId: number; readonly name: string }[];
};

export type ExistingUser = { readonly id: number; readonly username: string; readonly email: string; readonly active: boolean };

/** What a clean row becomes: the fields of the admin's user form and the one role the row gives. */
export type ImportUserFields = {
  readonly username: string;
  readonly email: string;
  readonly firstName: string;
  readonly middleName: string | null;
  readonly lastName: string;
  readonly phone: string;
  readonly professionId: number | null;
  readonly otherJob: string | null;
  readonly licenceNumber: string | null;
  readonly chamberMembershipNumber: string | null;
  readonly role: { readonly roleId: RoleId; readonly unitId: number; readonly companyId: number };
};

/** A data row: its fields when it has no problem, else its problems. */
export type CheckedRow = { readonly row: number; readonly fields: ImportUserFields | null; readonly problems: readonly ImportProblem[] };

export type Precheck = {
  /** Every data row, with its fields when it has no problem. */
  readonly rows: readonly CheckedRow[];
  /** The first IMPORT_MAX_PROBLEMS problems, by row and column. */
  readonly problems: readonly ImportProblem[];
  readonly problemCount: number;
  /** Rows whose username and e-mail are one existing user's: they will be updated or skipped. */
  readonly existing: number;
};

export type HeaderMap = { readonly columns: ReadonlyMap<ImportColumn, number>; readonly missing: readonly string[] };

/** Which cell holds which column (by its header); the required columns that are missing. */
export const mapHeader = (header: readonly string[]): HeaderMap => {
  const byHeader = new Map(header.map((text, index) => [normaliseHeader(text), index] as const).reverse());
  const columns = new Map<ImportColumn, number>();
  const missing: string[] = [];
  for (const column of IMPORT_COLUMNS) {
    const index = byHeader.get(normaliseHeader(column.header));
    if (index !== undefined) columns.set(column.key, index);
    else if (column.required) missing.push(column.header);
  }
  return { columns, missing };
};

const key = (value: string) => value.trim().toLowerCase();

/** Names to ids; a name two records share answers 'ambiguous'. */
const index = <T extends { name: string }>(items: readonly T[], scope: (item: T) => string = () => '') => {
  const map = new Map<string, T | 'ambiguous'>();
  for (const item of items) {
    const k = `${scope(item)}|${key(item.name)}`;
    map.set(k, map.has(k) ? 'ambiguous' : item);
  }
  return map;
};

const cellsOf = (row: SheetRow, header: HeaderMap): ImportCells =>
  Object.fromEntries(
    IMPORT_COLUMNS.map((column) => {
      const at = header.columns.get(column.key);
      return [column.key, at === undefined ? '' : (row.cells[at] ?? '').trim()];
    }),
  ) as ImportCells;

/** The data rows (after the header) that have anything in them. */
export const dataRows = (rows: readonly SheetRow[]) => rows.slice(1).filter((row) => row.cells.some((cell) => cell.trim() !== ''));

export const precheckRows = (rows: readonly SheetRow[], header: HeaderMap, references: ImportReferences, existingUsers?: readonly ExistingUser[]): Precheck => {
  const professions = index(references.professions);
  const companies = index(references.companies);
  const units = index(references.units, (u) => String(u.companyId));
  const unitsAnywhere = new Set(references.units.map((u) => key(u.name)));
  const byUsername = new Map((existingUsers ?? []).map((u) => [key(u.username), u]));
  const byEmail = new Map((existingUsers ?? []).map((u) => [key(u.email), u]));
  const firstUsername = new Map<string, number>();
  const firstEmail = new Map<string, number>();
  const problems: ImportProblem[] = [];
  let problemCount = 0;
  let existing = 0;
  const checked: CheckedRow[] = [];

  for (const row of rows) {
    const cells = cellsOf(row, header);
    const found: ImportProblem[] = [];
    const add = (column: ImportColumn | null, code: ImportProblem['code'], message: string) => found.push({ row: row.row, column, code, message });
    const valid = new Set<ImportColumn>();
    for (const column of IMPORT_COLUMNS) {
      const messages = cellProblems(column.key, cells[column.key]);
      for (const message of messages) add(column.key, 'invalidUserData', message);
      if (messages.length === 0) valid.add(column.key);
    }

    let profession: ImportReferences['professions'][number] | null = null;
    if (cells.profession !== '' && valid.has('profession')) {
      const match = professions.get(`|${key(cells.profession)}`);
      if (match === undefined) add('profession', 'professionNotFound', IMPORT_MESSAGES.professionNotFound);
      else if (match === 'ambiguous') add('profession', 'professionNotFound', IMPORT_MESSAGES.professionAmbiguous);
      else {
        profession = match;
        if (match.needsLicence && cells.licenceNumber === '') add('licenceNumber', 'invalidUserData', IMPORT_MESSAGES.licenceRequired);
        if (match.needsChamber && cells.chamberMembershipNumber === '') add('chamberMembershipNumber', 'invalidUserData', IMPORT_MESSAGES.chamberRequired);
      }
    }

    let company: ImportReferences['companies'][number] | null = null;
    let unit: ImportReferences['units'][number] | null = null;
    if (valid.has('company')) {
      const match = companies.get(`|${key(cells.company)}`);
      if (match === undefined) add('company', 'unitOrCompany', IMPORT_MESSAGES.companyMissing);
      else if (match === 'ambiguous') add('company', 'unitOrCompany', IMPORT_MESSAGES.companyAmbiguous);
      else company = match;
    }
    if (company && valid.has('unit')) {
      const match = units.get(`${company.id}|${key(cells.unit)}`);
      if (match === undefined) add('unit', 'unitOrCompany', unitsAnywhere.has(key(cells.unit)) ? IMPORT_MESSAGES.unitMismatch : IMPORT_MESSAGES.unitMissing);
      else if (match === 'ambiguous') add('unit', 'unitOrCompany', IMPORT_MESSAGES.unitAmbiguous);
      else unit = match;
    }

    // Within the file: a later row with a username or e-mail of an earlier one.
    if (valid.has('username')) {
      const earlier = firstUsername.get(key(cells.username));
      if (earlier !== undefined) add('username', 'duplicate', IMPORT_MESSAGES.duplicateUsername(earlier));
      else firstUsername.set(key(cells.username), row.row);
    }
    if (valid.has('email')) {
      const earlier = firstEmail.get(key(cells.email));
      if (earlier !== undefined) add('email', 'duplicate', IMPORT_MESSAGES.duplicateEmail(earlier));
      else firstEmail.set(key(cells.email), row.row);
    }

    // Against the platform: both values one active user's is that user again (updated or skipped);
    // either one someone else's is spec §8 "user exists".
    if (existingUsers && valid.has('username') && valid.has('email')) {
      const owner = byUsername.get(key(cells.username));
      const emailOwner = byEmail.get(key(cells.email));
      if (owner && emailOwner && owner.id === emailOwner.id) {
        if (owner.active) existing += 1;
        else add('username', 'userExists', IMPORT_MESSAGES.existsInactive);
      } else {
        if (owner) add('username', 'userExists', IMPORT_MESSAGES.usernameExists);
        if (emailOwner) add('email', 'userExists', IMPORT_MESSAGES.emailExists);
      }
    }

    problemCount += found.length;
    for (const problem of found) if (problems.length < IMPORT_MAX_PROBLEMS) problems.push(problem);
    const optional = (value: string) => (value === '' ? null : value);
    checked.push({
      row: row.row,
      problems: found,
      fields:
        found.length > 0 || !company || !unit
          ? null
          : {
              username: cells.username,
              email: cells.email.toLowerCase(),
              firstName: cells.firstName,
              middleName: optional(cells.middleName),
              lastName: cells.lastName,
              phone: cells.phone,
              professionId: profession?.id ?? null,
              otherJob: optional(cells.otherJob),
              licenceNumber: optional(cells.licenceNumber),
              chamberMembershipNumber: optional(cells.chamberMembershipNumber),
              role: {
                roleId: cells.role === '' ? ROLE.participant : (IMPORT_ROLES[cells.role.toLowerCase()] as RoleId),
                unitId: unit.id,
                companyId: company.id,
              },
            },
    });
  }
  return { rows: checked, problems, problemCount, existing };
};
