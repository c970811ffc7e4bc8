/**
 * Reading a spreadsheet someone uploaded (the users import, spec §5 "import files xlsx or xls"):
 * the first sheet's rows as text. The file is recognised by its content, never by its name or
 * declared type: an xlsx is a ZIP archive holding the workbook parts, an xls an OLE2 compound file
 * holding a workbook stream.
 */
export type WorkbookKind = 'xlsx' | 'xls';

/** A row of the first sheet: its number as the spreadsheet shows it (1 = the first) and its cells as text. */
export type WorkbookRow = { readonly row: number; readonly cells: readonly string[] };

export type WorkbookRejection = 'notWorkbook' | 'tooLarge' | 'tooManyRows' | 'unreadable';

/** Why a file was refused; the caller says it in the user's words. */
export class WorkbookRejected extends Error {
  readonly reason: WorkbookRejection;

  constructor(reason: WorkbookRejection, detail?: string) {
    super(detail ? `${reason}: ${detail}` : reason);
    this.name = 'WorkbookRejected';
    this.reason = reason;
  }
}

export type WorkbookReader = {
  /** What the bytes are, by their content; null when neither kind. */
  readonly kindOf: (bytes: Buffer) => WorkbookKind | null;
  /** The first sheet's non-empty rows, at most `maxRows` of them (more: 'tooManyRows'). Throws WorkbookRejected. */
  readonly read: (bytes: Buffer, options: { readonly maxBytes: number; readonly maxRows: number }) => Promise<{ kind: WorkbookKind; rows: WorkbookRow[] }>;
};
