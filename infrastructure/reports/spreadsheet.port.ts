/**
 * How a column's cells show: numbers stay numbers (a cell of numeric type) and dates stay dates; the
 * format only says how a spreadsheet displays them. `money` is euros with two decimals (the caller
 * turns integer cents into euros), `percent` a fraction shown as a percentage, `date`, `datetime` and
 * `datetime-seconds` (an audit trail's signatures, issue 36) an instant shown as its Europe/Ljubljana wall clock.
 */
export type CellFormat = 'text' | 'integer' | 'decimal' | 'money' | 'percent' | 'date' | 'datetime' | 'datetime-seconds';

/** A cell: text, a number, an instant (a Date), or empty. */
export type Cell = string | number | Date | null;

/** A table as an xlsx file (exports an admin downloads): a header row and data rows, one sheet. */
export type Spreadsheet = {
  readonly table: (input: {
    readonly sheet: string;
    readonly header: readonly string[];
    readonly rows: readonly (readonly Cell[])[];
    readonly widths?: readonly number[];
    readonly formats?: readonly (CellFormat | undefined)[];
    /** A second sheet of label and value pairs saying what the table is (an export's kind, parameters, author, time). */
    readonly about?: { readonly sheet: string; readonly rows: readonly (readonly [string, Cell])[] };
  }) => Promise<Buffer>;
};
