import { DomainError } from '../../domain/shared/domain-error.ts';
import { ERASED_PERSON } from '../../domain/shared/event.ts';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { Cell, CellFormat } from '../../infrastructure/reports/spreadsheet.port.ts';
import { courseForExport } from '../../projections/exports/export-rows.queries.ts';
import type { ExportsDb } from '../../projections/exports/exports.queries.ts';

// The shape of an export's table and what every kind's table shares: the row limit, paging, the
// refusals and the cell formatters. Each kind's table is in <kind>.export-table.ts.

/**
 * What each kind of export holds (decision 0026): Slovenian headers, numbers as numbers (money in
 * euros from integer cents, with two decimals), times as dates the spreadsheet shows in Ljubljana
 * time. A person erased by crypto-shredding (decision 0019) reads "izbrisan uporabnik" in every
 * field of theirs.
 */
export type Column = { readonly header: string; readonly format?: CellFormat; readonly width?: number };
export type ExportTable = { readonly sheet: string; readonly columns: readonly Column[]; readonly rows: readonly (readonly Cell[])[] };

/** Reports how far the rows are (done of total); the job records it as progress. */
export type Progress = (done: number, total: number) => Promise<void>;

export type ExportTableDeps = { readonly db: ExportsDb; readonly store: EventStore; readonly now: () => Date };

/** A spreadsheet holds at most 1,048,576 rows. */
export const MAX_EXPORT_ROWS = 1_000_000;
export const PAGE = 500;

export const exportGone = (what: 'course' | 'company') =>
  new DomainError('404', what === 'course' ? 'Izobraževanje ne obstaja več.' : 'Podjetje ne obstaja več.', { status: 404 });
export const tooMany = () => new DomainError('422', 'Izvoz bi imel preveč vrstic (največ 1.000.000). Izberite krajše obdobje ali eno podjetje.');

export const when = (iso: string | null) => (iso ? new Date(iso) : null);
export const euros = (cents: number) => Math.round(cents) / 100;
/** Text, or an empty cell. */
export const text = (value: string | null | undefined) => value || null;

export type Person = { firstName: string; middleName: string | null; lastName: string; username: string; email: string; erased: boolean };
export const fullName = (p: Person) => (p.erased ? ERASED_PERSON : [p.firstName, p.middleName, p.lastName].filter(Boolean).join(' '));
/** A personal field: the placeholder for an erased person. */
export const own = (p: Person, value: string | null | undefined) => (p.erased ? ERASED_PERSON : text(value));

export const checkSize = (total: number) => {
  if (total > MAX_EXPORT_ROWS) throw tooMany();
};

/** The course an export names, or a refusal (a deleted course is gone too). */
export const exportCourse = async (db: ExportsDb, courseId: number) => {
  const course = await courseForExport(db, courseId);
  if (!course || course.deleted) throw exportGone('course');
  return course;
};

/** Pages of rows by offset, with progress after each page. */
export const paged = async <T>(total: number, page: (offset: number) => Promise<readonly T[]>, row: (item: T) => Cell[], progress: Progress) => {
  checkSize(total);
  const rows: Cell[][] = [];
  for (;;) {
    const items = await page(rows.length);
    for (const item of items) rows.push(row(item));
    await progress(rows.length, Math.max(total, rows.length));
    if (items.length < PAGE) return rows;
  }
};
