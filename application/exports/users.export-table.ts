import type { ParametersOf } from '../../domain/exports/export.rules.ts';
import { roleLabel } from '../../domain/permissions/roles.ts';
import { ERASED_PERSON } from '../../domain/shared/event.ts';
import type { Cell } from '../../infrastructure/reports/spreadsheet.port.ts';
import { countUsersForExport, usersForExport } from '../../projections/exports/export-rows.queries.ts';
import { checkSize, type ExportTable, type ExportTableDeps, own, PAGE, type Progress, text, when } from './export-table.ts';

const USER_STATUS: Readonly<Record<string, string>> = { active: 'aktiven', inactive: 'neaktiven', deleted: 'izbrisan' };

/** The users of one company or of all (by account status), with their roles, in pages by id. */
export const usersTable = async (deps: ExportTableDeps, p: ParametersOf<'users'>, progress: Progress): Promise<ExportTable> => {
  const total = await countUsersForExport(deps.db, p);
  checkSize(total);
  const rows: Cell[][] = [];
  let after = 0;
  for (;;) {
    const page = await usersForExport(deps.db, p, after, PAGE);
    for (const u of page) {
      const roles = u.roles.map((r) => [roleLabel(r.roleId), r.unitName ?? r.companyName].filter(Boolean).join(' – ')).join(', ');
      rows.push([
        u.id,
        u.erased ? ERASED_PERSON : u.username,
        own(u, u.firstName),
        own(u, u.middleName),
        own(u, u.lastName),
        own(u, u.email),
        own(u, u.phone),
        text(u.profession),
        own(u, u.otherJob),
        own(u, u.licenceNumber),
        own(u, u.chamberMembershipNumber),
        roles,
        USER_STATUS[u.status] ?? u.status,
        when(u.registeredAt),
        when(u.lastLoginAt),
      ]);
    }
    await progress(rows.length, total);
    if (page.length < PAGE) break;
    after = page[page.length - 1]?.id ?? after;
  }
  return {
    sheet: 'Uporabniki',
    columns: [
      { header: 'ID', format: 'integer', width: 8 },
      { header: 'Uporabniško ime', width: 22 },
      { header: 'Ime', width: 18 },
      { header: 'Srednje ime', width: 14 },
      { header: 'Priimek', width: 18 },
      { header: 'E-pošta', width: 30 },
      { header: 'Telefon', width: 16 },
      { header: 'Poklic', width: 24 },
      { header: 'Drugo delo', width: 18 },
      { header: 'Številka licence', width: 16 },
      { header: 'Številka članstva v zbornici', width: 16 },
      { header: 'Vloge', width: 40 },
      { header: 'Stanje', width: 12 },
      { header: 'Registriran', format: 'datetime', width: 18 },
      { header: 'Zadnja prijava', format: 'datetime', width: 18 },
    ],
    rows,
  };
};
