import { crc32, deflateRawSync } from 'node:zlib';

/**
 * A tiny zip writer for tests that need zips no well-behaved library writes: names such as `../x`,
 * `/etc/x` or `C:\x` (yazl refuses them), symlinks (a unix mode in the external attributes),
 * encrypted flags, and sizes that lie. Writes the local headers, the central directory and the end
 * record of PKWARE's APPNOTE, nothing more (no zip64, no data descriptors).
 */
export type RawZipEntry = {
  /** Written as is, UTF-8 (general purpose bit 11). */
  readonly name: string;
  readonly data?: Buffer | string;
  /** Default 'deflate' for files, 'store' for empty data. */
  readonly method?: 'store' | 'deflate';
  /** Unix mode in the high 16 bits of the external attributes, e.g. 0o120777 for a symlink; default 0o100644 (0o040755 for a name ending in /). */
  readonly mode?: number;
  /** Sets the "encrypted" flag (the data is written as given). */
  readonly encrypted?: boolean;
  /** What the headers say instead of the truth. */
  readonly declaredUncompressedSize?: number;
  readonly declaredCompressedSize?: number;
  /** A compression method number other than 0 and 8. */
  readonly methodNumber?: number;
  /** Written as the entry's data as is, instead of `data` compressed (e.g. bytes that do not inflate). */
  readonly compressedData?: Buffer;
};

const UNIX = 3;
const VERSION = 20;

export const rawZip = (entries: readonly RawZipEntry[]): Buffer => {
  if (entries.length > 0xffff) throw new Error('rawZip writes no zip64: at most 65535 entries');
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const data = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : (entry.data ?? Buffer.alloc(0));
    const method = entry.methodNumber ?? ((entry.method ?? (data.length === 0 ? 'store' : 'deflate')) === 'deflate' ? 8 : 0);
    const body = entry.compressedData ?? (method === 8 ? deflateRawSync(data) : data);
    const crc = crc32(data);
    const flags = 0x800 | (entry.encrypted ? 0x1 : 0);
    const uncompressed = entry.declaredUncompressedSize ?? data.length;
    const compressed = entry.declaredCompressedSize ?? body.length;
    const mode = entry.mode ?? (entry.name.endsWith('/') ? 0o040755 : 0o100644);
    // 0x10: the MS-DOS directory bit, set for folders as zip tools do.
    const external = ((mode << 16) | (entry.name.endsWith('/') ? 0x10 : 0)) >>> 0;

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(VERSION, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x21, 12); // date: 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed, 18);
    local.writeUInt32LE(uncompressed, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);

    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE((UNIX << 8) | VERSION, 4);
    header.writeUInt16LE(VERSION, 6);
    header.writeUInt16LE(flags, 8);
    header.writeUInt16LE(method, 10);
    header.writeUInt16LE(0, 12);
    header.writeUInt16LE(0x21, 14);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(compressed, 20);
    header.writeUInt32LE(uncompressed, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt16LE(0, 30); // extra
    header.writeUInt16LE(0, 32); // comment
    header.writeUInt16LE(0, 34); // disk
    header.writeUInt16LE(0, 36); // internal attributes
    header.writeUInt32LE(external, 38);
    header.writeUInt32LE(offset, 42);

    parts.push(local, name, body);
    central.push(header, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0, 4);
  end.writeUInt16LE(0, 6);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(0, 20);
  return Buffer.concat([...parts, directory, end]);
};
