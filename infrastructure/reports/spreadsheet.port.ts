/** A table as an xlsx file (exports an admin downloads): a header row and data rows, one sheet. */
export type Spreadsheet = {
  readonly table: (input: {
    readonly sheet: string;
    readonly header: readonly string[];
    readonly rows: readonly (readonly (string | number)[])[];
    readonly widths?: readonly number[];
  }) => Promise<Buffer>;
};
