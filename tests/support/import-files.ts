import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import { IMPORT_COLUMNS, type ImportColumn } from '../../domain/imports/user-import.rules.ts';

/** A row of a users import file, by column; a missing column is an empty cell. */
export type ImportFileRow = Partial<Record<ImportColumn, string | number>>;

const HEADERS = IMPORT_COLUMNS.map((c) => c.header);
const cellsOf = (row: ImportFileRow) => IMPORT_COLUMNS.map((c) => row[c.key] ?? '');

/** An xlsx as a person makes one in Excel from the template: the Slovenian headers, then the rows. */
export const importXlsx = async (rows: readonly ImportFileRow[]): Promise<Buffer> => {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Uporabniki');
  sheet.addRow(HEADERS);
  for (const row of rows) sheet.addRow(cellsOf(row));
  return Buffer.from(await book.xlsx.writeBuffer());
};

/** The same as an xls (the older binary Excel format, BIFF8). */
export const importXls = (rows: readonly ImportFileRow[]): Buffer => {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([HEADERS, ...rows.map(cellsOf)]), 'Uporabniki');
  return XLSX.write(book, { type: 'buffer', bookType: 'biff8' }) as Buffer;
};

/** Person `i` of a generated file: unique username and e-mail, valid §5 fields. */
export const person = (i: number, place: { company: string; unit: string; profession?: string }, prefix = 'uvoz'): ImportFileRow => ({
  username: `${prefix}${i}`,
  email: `${prefix}${i}@lekarne.si`,
  firstName: 'Ana',
  lastName: `Novak${i}`,
  phone: `041 ${String(100_000 + i).slice(-6)}`,
  profession: place.profession ?? '',
  // Licence numbers are 1 to 5 characters (spec §5); pharmacists need one.
  licenceNumber: String((i % 99_999) + 1),
  company: place.company,
  unit: place.unit,
});
