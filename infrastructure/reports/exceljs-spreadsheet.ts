import ExcelJS from 'exceljs';
import type { Spreadsheet } from './spreadsheet.port.ts';

/** The xlsx adapter (exceljs): a bold header, set column widths, the header row frozen. */
export const createExceljsSpreadsheet = (): Spreadsheet => ({
  table: async ({ sheet, header, rows, widths }) => {
    const book = new ExcelJS.Workbook();
    book.creator = 'Medilearn';
    book.created = new Date();
    const page = book.addWorksheet(sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
    page.addRow([...header]).font = { bold: true };
    for (const row of rows) page.addRow([...row]);
    page.columns.forEach((column, i) => {
      column.width = widths?.[i] ?? 24;
    });
    return Buffer.from(await book.xlsx.writeBuffer());
  },
});
