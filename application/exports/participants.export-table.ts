import type { ParametersOf } from '../../domain/exports/export.rules.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { ERASED_PERSON } from '../../domain/shared/event.ts';
import { countParticipantsForExport, type Period, participantsForExport } from '../../projections/exports/export-rows.queries.ts';
import { type ExportTable, type ExportTableDeps, exportCourse, fullName, own, PAGE, type Progress, paged, text, when } from './export-table.ts';

const ENROLLMENT_STATUS: Readonly<Record<string, string>> = { started: 'v teku', completed: 'zaključeno' };

/** A course's interval (1-based; 0 = all time) as a period. */
const intervalPeriod = (course: { intervals: readonly { startsAt: string; stopsAt: string }[] }, intervalId: number): Period | null => {
  if (intervalId === 0) return { start: new Date(0), end: new Date('9999-12-31T00:00:00Z') };
  const interval = course.intervals[intervalId - 1];
  return interval ? { start: new Date(interval.startsAt), end: new Date(interval.stopsAt) } : null;
};

/** A course's participants in one of its intervals, with their progress, credit points and certificate. */
export const participantsTable = async (deps: ExportTableDeps, p: ParametersOf<'participants'>, progress: Progress): Promise<ExportTable> => {
  const course = await exportCourse(deps.db, p.courseId);
  const period = intervalPeriod(course, p.intervalId);
  if (!period) throw new DomainError('404', 'Termin izobraževanja ne obstaja več.', { status: 404 });
  const rows = await paged(
    await countParticipantsForExport(deps.db, course.id, period),
    (offset) => participantsForExport(deps.db, course.id, period, offset, PAGE),
    (e) => [
      e.userId,
      fullName(e),
      e.erased ? ERASED_PERSON : e.username,
      own(e, e.email),
      text(e.profession),
      text(e.units),
      text(e.companies),
      ENROLLMENT_STATUS[e.status] ?? e.status,
      when(e.startedAt),
      when(e.lastActivityAt),
      e.blocksDone,
      e.blocksTotal,
      e.status === 'completed' ? 1 : e.blocksTotal > 0 ? Math.min(1, e.blocksDone / e.blocksTotal) : 0,
      when(e.completedAt),
      e.creditPoints,
      when(e.certificateIssuedAt),
    ],
    progress,
  );
  return {
    sheet: 'Udeleženci',
    columns: [
      { header: 'ID uporabnika', format: 'integer', width: 10 },
      { header: 'Ime in priimek', width: 26 },
      { header: 'Uporabniško ime', width: 20 },
      { header: 'E-pošta', width: 30 },
      { header: 'Poklic', width: 24 },
      { header: 'Enota', width: 24 },
      { header: 'Podjetje', width: 26 },
      { header: 'Stanje', width: 12 },
      { header: 'Začetek', format: 'datetime', width: 18 },
      { header: 'Zadnja aktivnost', format: 'datetime', width: 18 },
      { header: 'Opravljeni bloki', format: 'integer', width: 10 },
      { header: 'Vsi bloki', format: 'integer', width: 10 },
      { header: 'Napredek', format: 'percent', width: 10 },
      { header: 'Zaključeno', format: 'datetime', width: 18 },
      { header: 'Kreditne točke', format: 'decimal', width: 10 },
      { header: 'Certifikat izdan', format: 'datetime', width: 18 },
    ],
    rows,
  };
};
