import type { ParametersOf } from '../../domain/exports/export.rules.ts';
import type { Cell } from '../../infrastructure/reports/spreadsheet.port.ts';
import { chamberCreditsOfChamber, countChamberCredits } from '../../projections/chambers/chamber-credits.queries.ts';
import { checkSize, type ExportTable, type ExportTableDeps, PAGE, type Progress, text, when } from './export-table.ts';

export const CHAMBER_NAMES: Readonly<Record<1 | 2 | 3, string>> = {
  1: 'Lekarniška zbornica',
  2: 'Zdravniška zbornica',
  3: 'Zbornica zdravstvene nege',
};
const CREDIT_STATUS: Readonly<Record<string, string>> = { pending: 'v pošiljanju', held: 'čaka na številko', reported: 'sporočeno' };

/**
 * A chamber's credit points earned in the period (decision 0030): who (with the numbers the chamber
 * matches by, as they are now), which course (with its external id), the points, when earned, and
 * whether and when the chamber acknowledged them.
 */
export const chamberCreditsTable = async (deps: ExportTableDeps, p: ParametersOf<'chambers'>, progress: Progress): Promise<ExportTable> => {
  const total = await countChamberCredits(deps.db, p.chamber, p.from, p.to);
  checkSize(total);
  const rows: Cell[][] = [];
  let after: { earnedAt: string; courseId: number; userId: number } | null = null;
  for (;;) {
    const page = await chamberCreditsOfChamber(deps.db, p.chamber, p.from, p.to, after, PAGE);
    for (const c of page) {
      rows.push([
        CHAMBER_NAMES[p.chamber],
        c.userId,
        c.fullName,
        text(c.chamberMembershipNumber),
        text(c.licenceNumber),
        c.courseId,
        c.courseTitle,
        text(c.courseExternalId),
        c.points,
        when(c.earnedAt),
        CREDIT_STATUS[c.status] ?? c.status,
        when(c.reportedAt),
        text(c.receipt),
        c.attempts,
      ]);
    }
    await progress(rows.length, total);
    const last = page.at(-1);
    if (!last || page.length < PAGE) break;
    after = { earnedAt: last.earnedAt, courseId: last.courseId, userId: last.userId };
  }
  return {
    sheet: 'Kreditne točke',
    columns: [
      { header: 'Zbornica', width: 24 },
      { header: 'ID uporabnika', format: 'integer', width: 10 },
      { header: 'Ime in priimek', width: 28 },
      { header: 'Številka članstva v zbornici', width: 18 },
      { header: 'Številka licence', width: 16 },
      { header: 'ID izobraževanja', format: 'integer', width: 10 },
      { header: 'Izobraževanje', width: 36 },
      { header: 'Zunanji ID', width: 16 },
      { header: 'Kreditne točke', format: 'decimal', width: 10 },
      { header: 'Pridobljeno', format: 'datetime', width: 18 },
      { header: 'Stanje', width: 16 },
      { header: 'Sporočeno', format: 'datetime', width: 18 },
      { header: 'Potrdilo zbornice', width: 40 },
      { header: 'Poskusi', format: 'integer', width: 8 },
    ],
    rows,
  };
};
