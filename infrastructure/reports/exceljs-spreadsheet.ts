import ExcelJS from 'exceljs';
import { ljubljanaWallClock } from '../../domain/shared/ljubljana-time.ts';
import type { Cell, CellFormat, Spreadsheet } from './spreadsheet.port.ts';

/** Number formats of the cell formats (Excel codes; the reader's locale shows its own separators). */
const NUMBER_FORMATS: Record<CellFormat, string | undefined> = {
  text: undefined,
  integer: '0',
  decimal: '0.0',
  money: '#,##0.00 "€"',
  percent: '0.0%',
  date: 'dd.mm.yyyy',
  datetime: 'dd.mm.yyyy hh:mm',
  'datetime-seconds': 'dd.mm.yyyy hh:mm:ss',
};

/**
 * A spreadsheet date has no time zone: it is written as the wall clock people in Ljubljana read
 * (spec §1), which exceljs stores from the Date's UTC fields.
 */
const value = (cell: Cell | undefined) => (cell instanceof Date ? ljubljanaWallClock(cell) : cell === null ? undefined : cell);

/** The xlsx adapter (exceljs): a bold header, set column widths, the header row frozen. */
export const createExceljsSpreadsheet = (): Spreadsheet => ({
  table: async ({ sheet, header, rows, widths, formats, about }) => {
    const book = new ExcelJS.Workbook();
    book.creator = 'Medilearn';
    book.created = new Date();
    const page = book.addWorksheet(sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
    page.addRow([...header]).font = { bold: true };
    for (const row of rows) page.addRow(row.map(value));
    page.columns.forEach((column, i) => {
      column.width = widths?.[i] ?? 24;
      const numFmt = NUMBER_FORMATS[formats?.[i] ?? 'text'];
      if (numFmt) column.numFmt = numFmt;
    });
    // The header keeps the general format whatever its column shows.
    page.getRow(1).eachCell((cell) => {
      cell.numFmt = 'General';
    });
    if (about) {
      const info = book.addWorksheet(about.sheet);
      for (const [label, cell] of about.rows) {
        const row = info.addRow([label, value(cell)]);
        row.getCell(1).font = { bold: true };
        if (cell instanceof Date) row.getCell(2).numFmt = NUMBER_FORMATS.datetime as string;
      }
      info.getColumn(1).width = 28;
      info.getColumn(2).width = 60;
    }
    return Buffer.from(await book.xlsx.writeBuffer());
  },
});
