import type { ParametersOf } from '../../domain/exports/export.rules.ts';
import { ljubljanaPeriod } from '../../domain/shared/ljubljana-time.ts';
import type { Cell } from '../../infrastructure/reports/spreadsheet.port.ts';
import { companyForExport, courseForExport } from '../../projections/exports/export-rows.queries.ts';
import { costTimeline, coursesBilledTo } from '../../projections/stats/stats.queries.ts';
import { type ExportTable, type ExportTableDeps, euros, exportGone, type Progress } from './export-table.ts';

/** What each course billed to a company cost in a period. */
export const costsTable = async (deps: ExportTableDeps, p: ParametersOf<'costs'>, progress: Progress): Promise<ExportTable> => {
  if (!(await companyForExport(deps.db, p.companyId))) throw exportGone('company');
  const period = ljubljanaPeriod(p.from, p.to);
  // The deal as it stood at the end of the period (or now, for a period that has not ended).
  const asOf = new Date(Math.min(period.end.getTime() - 1, deps.now().getTime()));
  const courseIds = await coursesBilledTo(deps.db, p.companyId, asOf);
  const rows: Cell[][] = [];
  for (const courseId of courseIds) {
    const course = await courseForExport(deps.db, courseId);
    if (course && !course.deleted) {
      const window = { from: period.start, to: asOf, asOf, intervalId: 0 };
      const { costs: c, figures: total } = await costTimeline(deps.db, courseId, window, 'month');
      rows.push([
        course.id,
        course.title,
        total.views,
        euros(c.viewAmount),
        euros(total.viewsAmount),
        euros(c.archiveAmount),
        euros(c.productionAmount),
        euros(c.detailedNpsAmount),
        euros(c.insidePoolAmount),
        euros(c.otherAmount),
        euros(c.fixedAmount),
        euros(total.totalAmount),
        c.discount,
        euros(total.finalAmount),
        euros(total.shareEarnings),
      ]);
    }
    await progress(rows.length, courseIds.length);
  }
  return {
    sheet: 'Stroški',
    columns: [
      { header: 'ID izobraževanja', format: 'integer', width: 10 },
      { header: 'Izobraževanje', width: 36 },
      { header: 'Ogledi', format: 'integer', width: 10 },
      { header: 'Cena ogleda (€)', format: 'money', width: 14 },
      { header: 'Znesek ogledov (€)', format: 'money', width: 16 },
      { header: 'Arhiv (€)', format: 'money', width: 14 },
      { header: 'Produkcija (€)', format: 'money', width: 14 },
      { header: 'Podrobni NPS (€)', format: 'money', width: 14 },
      { header: 'Notranji bazen (€)', format: 'money', width: 14 },
      { header: 'Drugo (€)', format: 'money', width: 14 },
      { header: 'Fiksni znesek (€)', format: 'money', width: 14 },
      { header: 'Skupaj (€)', format: 'money', width: 16 },
      { header: 'Popust (%)', format: 'decimal', width: 10 },
      { header: 'Končni znesek (€)', format: 'money', width: 16 },
      { header: 'Delitev prihodka (€)', format: 'money', width: 16 },
    ],
    rows,
  };
};
