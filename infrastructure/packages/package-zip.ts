import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import type { PackageFiles, PackageLimits } from '../../domain/packages/package-structure.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';

/**
 * A SCORM or cmi5 package's zip, checked and unpacked in memory (issue 35). The zip comes from an
 * upload, so nothing in it is trusted:
 * - names: absolute paths, `..` segments (also written with backslashes), NUL and control
 *   characters are refused (zip-slip); so are symlinks, encrypted entries and duplicate paths;
 * - sizes: the number of entries, each entry's compression ratio and the total unpacked size are
 *   checked against the declared sizes first, and then the bytes actually inflated are counted, so
 *   an entry that inflates past what it declares, or past the total, is stopped mid-stream.
 * Every refusal is a DomainError 400 on `file` whose Slovenian message names the entry.
 */

/** Defaults; the composition root passes its own from the configuration. */
export const PACKAGE_LIMITS: PackageLimits = { maxTotalBytes: 1024 * 1024 * 1024, maxEntries: 10_000, maxRatio: 200 };

/**
 * Entries smaller than this are not refused for their ratio: a small file cannot be a bomb (the
 * total still bounds them all), and small files of repeated bytes (blank images, padding) reach
 * high ratios legitimately.
 */
export const RATIO_FLOOR_BYTES = 1024 * 1024;

const refuse = (message: string) => new DomainError('400', message, { status: 400, field: 'file' });

const megabytes = (bytes: number) => `${Math.floor(bytes / (1024 * 1024))} MB`;
const tooLarge = (limits: PackageLimits) => refuse(`Paket je razširjen prevelik (več kot ${megabytes(limits.maxTotalBytes)}).`);

const isControl = (c: string) => c.charCodeAt(0) < 0x20;
/** A name as the message shows it: control characters made visible. */
const shown = (name: string) => [...name].map((c) => (isControl(c) ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}` : c)).join('');

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFDIR = 0o040000;

/** The entry's path inside the package, or null for a folder; a refusal for a name that would land outside it. */
export const packagePath = (name: string): string | null => {
  if ([...name].some(isControl)) throw refuse(`Paket vsebuje datoteko z neveljavnim imenom: ${shown(name)}.`);
  // Backslashes are separators to Windows, where many packages are made; read as such, `..\x` climbs out like `../x`.
  const slashed = name.replaceAll('\\', '/');
  if (slashed.startsWith('/') || /^[a-z]:/i.test(slashed)) throw refuse(`Paket vsebuje absolutno pot: ${name}.`);
  const segments = slashed.split('/');
  if (segments.includes('..')) throw refuse(`Paket vsebuje pot zunaj paketa: ${name}.`);
  if (slashed.endsWith('/')) return null;
  const path = segments.filter((s) => s !== '' && s !== '.').join('/');
  return path === '' ? null : path;
};

/**
 * An entry's bytes, counted as they inflate: past `declared` the entry lied about its size (a bomb
 * hiding from the ratio check), past `budget` the package as a whole is too large. The stream is
 * destroyed at once either way, so no more is inflated.
 */
export const readCounted = async (stream: Readable, declared: number, budget: number, lied: () => Error, tooMuch: () => Error): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  let count = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      count += chunk.length;
      if (count > declared) throw lied();
      if (count > budget) throw tooMuch();
      chunks.push(chunk);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks, count);
};

const openZip = (bytes: Buffer): Promise<ZipFile> =>
  new Promise((resolve, reject) => {
    // decodeStrings off: names are checked here, so the messages can name the entry (yauzl's own check only says "invalid relative path").
    yauzl.fromBuffer(bytes, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true }, (error, zip) =>
      error || !zip ? reject(refuse('Datoteka ni arhiv ZIP.')) : resolve(zip),
    );
  });

const checkEntry = (entry: Entry, name: string, limits: PackageLimits) => {
  if (entry.isEncrypted()) throw refuse(`Datoteka v paketu je šifrirana: ${name}.`);
  if (!entry.canDecodeFileData()) throw refuse(`Datoteka v paketu je stisnjena z nepodprto metodo (${entry.compressionMethod}): ${name}.`);
  const ratio = entry.compressedSize === 0 ? (entry.uncompressedSize === 0 ? 0 : Number.POSITIVE_INFINITY) : entry.uncompressedSize / entry.compressedSize;
  if (entry.uncompressedSize >= RATIO_FLOOR_BYTES && ratio > limits.maxRatio)
    throw refuse(`Datoteka v paketu je nenavadno močno stisnjena (možna bomba ZIP): ${name}.`);
};

export const readPackageZip = async (bytes: Buffer, limits: PackageLimits): Promise<PackageFiles> => {
  const zip = await openZip(bytes);
  try {
    if (zip.entryCount > limits.maxEntries) throw refuse(`Paket ima preveč datotek (${zip.entryCount}, največ ${limits.maxEntries}).`);
    const files = new Map<string, Buffer>();
    let total = 0;
    let index = 0;
    const entries = zip.eachEntry();
    while (true) {
      let next: IteratorResult<Entry>;
      try {
        next = await entries.next();
      } catch {
        // yauzl refuses a damaged central directory, or a stored entry whose sizes disagree, before it hands the entry over.
        throw refuse(`Arhiv ZIP je poškodovan (zapis št. ${index + 1}).`);
      }
      if (next.done) break;
      index += 1;
      const entry = next.value;
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
      const path = packagePath(name);
      const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
      if (mode === S_IFLNK) throw refuse(`Paket vsebuje simbolno povezavo: ${name}.`);
      if (path === null || mode === S_IFDIR) continue;
      if (files.has(path)) throw refuse(`Paket vsebuje isto datoteko dvakrat: ${path}.`);
      checkEntry(entry, name, limits);
      if (entry.uncompressedSize > limits.maxTotalBytes - total) throw tooLarge(limits);
      let stream: Readable;
      try {
        stream = await zip.openReadStreamPromise(entry);
      } catch {
        throw refuse(`Datoteka v paketu je poškodovana: ${name}.`);
      }
      const lied = () => refuse(`Datoteka v paketu je večja, kot navaja arhiv (možna bomba ZIP): ${name}.`);
      const content = await readCounted(stream, entry.uncompressedSize, limits.maxTotalBytes - total, lied, () => tooLarge(limits)).catch((error: unknown) => {
        if (error instanceof DomainError) throw error;
        // yauzl's own count (validateEntrySizes) may notice the lie first.
        if (error instanceof Error && /too many bytes/.test(error.message)) throw lied();
        throw refuse(`Datoteka v paketu je poškodovana: ${name}.`);
      });
      total += content.length;
      files.set(path, content);
    }
    return files;
  } finally {
    zip.close();
  }
};
