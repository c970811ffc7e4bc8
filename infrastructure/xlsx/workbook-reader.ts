import { inflateRawSync } from 'node:zlib';
import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import { type WorkbookKind, type WorkbookReader, WorkbookRejected, type WorkbookRow } from './workbook-reader.port.ts';

/**
 * The workbook reader: xlsx with exceljs, xls (BIFF, the older binary format) with SheetJS (the
 * maintained 0.20 line, published as @e965/xlsx). Before either parser sees a file, its content is
 * checked here: an xlsx must be a ZIP archive (local file header `PK\3\4`) whose directory names the
 * workbook parts (`[Content_Types].xml`, `xl/workbook.xml`) and whose entries really inflate to at
 * most UNZIPPED_MAX bytes (a ZIP bomb stops at the limit); an xls must be an OLE2 compound file
 * (`D0 CF 11 E0 A1 B1 1A E1`) holding a workbook stream (an encrypted xlsx is OLE2 too, without one).
 */
const UNZIPPED_MAX = 200 * 1024 * 1024;
const ZIP_ENTRIES_MAX = 10_000;
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ZIP_LOCAL = 0x04034b50;
const ZIP_CENTRAL = 0x02014b50;
const ZIP_END = 0x06054b50;

type ZipEntry = { name: string; method: number; compressed: number; size: number; localOffset: number };

/** The ZIP's central directory, or null when the bytes are not a well-formed archive. */
const zipEntries = (bytes: Buffer): ZipEntry[] | null => {
  if (bytes.length < 30 || bytes.readUInt32LE(0) !== ZIP_LOCAL) return null;
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (bytes.readUInt32LE(at) === ZIP_END) {
      end = at;
      break;
    }
  }
  if (end < 0) return null;
  const count = bytes.readUInt16LE(end + 10);
  const offset = bytes.readUInt32LE(end + 16);
  if (count > ZIP_ENTRIES_MAX || offset >= bytes.length) return null;
  const entries: ZipEntry[] = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== ZIP_CENTRAL) return null;
    const nameLength = bytes.readUInt16LE(at + 28);
    const next = at + 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    if (next > bytes.length) return null;
    entries.push({
      name: bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8'),
      method: bytes.readUInt16LE(at + 10),
      compressed: bytes.readUInt32LE(at + 20),
      size: bytes.readUInt32LE(at + 24),
      localOffset: bytes.readUInt32LE(at + 42),
    });
    at = next;
  }
  return entries;
};

/** Inflates every entry with a cap on the total, so what the directory declares cannot lie its way past the limit. */
const checkInflatedSize = (bytes: Buffer, entries: readonly ZipEntry[]) => {
  let budget = UNZIPPED_MAX;
  for (const entry of entries) {
    const at = entry.localOffset;
    if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== ZIP_LOCAL) throw new WorkbookRejected('notWorkbook', 'local header');
    const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
    const data = bytes.subarray(start, start + entry.compressed);
    if (data.length !== entry.compressed) throw new WorkbookRejected('notWorkbook', 'truncated entry');
    if (entry.method === 0) budget -= data.length;
    else if (entry.method === 8) {
      try {
        budget -= inflateRawSync(data, { maxOutputLength: budget + 1 }).length;
      } catch {
        throw new WorkbookRejected('tooLarge', 'inflates past the limit or is corrupt');
      }
    } else throw new WorkbookRejected('notWorkbook', `compression method ${entry.method}`);
    if (budget < 0) throw new WorkbookRejected('tooLarge', 'inflates past the limit');
  }
};

const isXlsx = (entries: readonly ZipEntry[] | null): entries is ZipEntry[] =>
  Boolean(entries?.some((e) => e.name === '[Content_Types].xml') && entries.some((e) => e.name === 'xl/workbook.xml'));

const xlsWorkbookStream = (bytes: Buffer): boolean => {
  if (bytes.length < 512 || !bytes.subarray(0, 8).equals(OLE2)) return false;
  try {
    const container = XLSX.CFB.read(bytes, { type: 'buffer' });
    return Boolean(XLSX.CFB.find(container, 'Workbook') ?? XLSX.CFB.find(container, 'Book'));
  } catch {
    return false;
  }
};

const pad = (n: number) => String(n).padStart(2, '0');

/** A cell as the text a person reads in it. */
const cellText = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'DA' : 'NE';
  if (value instanceof Date) return `${value.getUTCFullYear()}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())}`;
  if (typeof value === 'object') {
    const v = value as { richText?: { text: string }[]; text?: unknown; result?: unknown; error?: unknown };
    if (Array.isArray(v.richText)) return v.richText.map((part) => part.text).join('');
    if ('text' in v) return cellText(v.text);
    if ('result' in v) return cellText(v.result);
  }
  return '';
};

const readXlsx = async (bytes: Buffer, maxRows: number): Promise<WorkbookRow[]> => {
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch (error) {
    throw new WorkbookRejected('unreadable', (error as Error).message);
  }
  const sheet = book.worksheets[0];
  if (!sheet) return [];
  // The header row and up to maxRows rows below it.
  if (sheet.actualRowCount > maxRows + 1) throw new WorkbookRejected('tooManyRows');
  const rows: WorkbookRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const values = row.values as unknown[];
    rows.push({ row: rowNumber, cells: Array.from(values.slice(1), cellText) });
  });
  return rows;
};

const readXls = (bytes: Buffer, maxRows: number): WorkbookRow[] => {
  let book: XLSX.WorkBook;
  try {
    book = XLSX.read(bytes, { type: 'buffer', sheetRows: maxRows + 2, dense: true, cellFormula: false, cellHTML: false, cellStyles: false });
  } catch (error) {
    throw new WorkbookRejected('unreadable', (error as Error).message);
  }
  const name = book.SheetNames[0];
  const sheet = name ? book.Sheets[name] : undefined;
  if (!sheet?.['!ref']) return [];
  const first = XLSX.utils.decode_range(sheet['!ref']).s.r;
  const table = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: false, defval: '', blankrows: true });
  const rows = table
    .map((cells, index) => ({ row: first + index + 1, cells: Array.from(cells, cellText) }))
    .filter((row) => row.cells.some((cell) => cell.trim() !== ''));
  if (rows.length > maxRows + 1) throw new WorkbookRejected('tooManyRows');
  return rows;
};

export const createWorkbookReader = (): WorkbookReader => {
  const kindOf = (bytes: Buffer): WorkbookKind | null => (isXlsx(zipEntries(bytes)) ? 'xlsx' : xlsWorkbookStream(bytes) ? 'xls' : null);
  return {
    kindOf,
    read: async (bytes, options) => {
      if (bytes.length > options.maxBytes) throw new WorkbookRejected('tooLarge');
      const entries = zipEntries(bytes);
      if (isXlsx(entries)) {
        checkInflatedSize(bytes, entries);
        return { kind: 'xlsx', rows: await readXlsx(bytes, options.maxRows) };
      }
      if (xlsWorkbookStream(bytes)) return { kind: 'xls', rows: readXls(bytes, options.maxRows) };
      throw new WorkbookRejected('notWorkbook');
    },
  };
};
