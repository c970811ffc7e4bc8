import type { ParametersOf } from '../../domain/exports/export.rules.ts';
import { ERASED_PERSON } from '../../domain/shared/event.ts';
import { ljubljanaPeriod } from '../../domain/shared/ljubljana-time.ts';
import { npsCategory } from '../../domain/stats/nps.ts';
import { countNpsAnswersForExport, npsAnswersForExport } from '../../projections/exports/export-rows.queries.ts';
import { type ExportTable, type ExportTableDeps, exportCourse, fullName, own, PAGE, type Progress, paged, text, when } from './export-table.ts';

const NPS_GROUP = { promoter: 'promotor', neutral: 'neopredeljen', detractor: 'kritik' } as const;

/** A course's NPS answers in a period. */
export const npsTable = async (deps: ExportTableDeps, p: ParametersOf<'nps'>, progress: Progress): Promise<ExportTable> => {
  const course = await exportCourse(deps.db, p.courseId);
  const period = ljubljanaPeriod(p.from, p.to);
  const rows = await paged(
    await countNpsAnswersForExport(deps.db, course.id, period),
    (offset) => npsAnswersForExport(deps.db, course.id, period, offset, PAGE),
    (a) => [
      when(a.answeredAt),
      a.userId,
      fullName(a),
      own(a, a.email),
      text(a.profession),
      text(a.units),
      text(a.companies),
      a.blockName ?? `Blok ${a.blockId}`,
      a.score,
      NPS_GROUP[npsCategory(a.score)],
      a.reasons.join('; '),
      a.comment === null ? null : a.erased ? ERASED_PERSON : a.comment,
    ],
    progress,
  );
  return {
    sheet: 'Odgovori NPS',
    columns: [
      { header: 'Čas odgovora', format: 'datetime', width: 18 },
      { header: 'ID uporabnika', format: 'integer', width: 10 },
      { header: 'Ime in priimek', width: 26 },
      { header: 'E-pošta', width: 30 },
      { header: 'Poklic', width: 24 },
      { header: 'Enota', width: 24 },
      { header: 'Podjetje', width: 26 },
      { header: 'Blok', width: 24 },
      { header: 'Ocena', format: 'integer', width: 8 },
      { header: 'Skupina', width: 14 },
      { header: 'Razlogi', width: 40 },
      { header: 'Komentar', width: 50 },
    ],
    rows,
  };
};
