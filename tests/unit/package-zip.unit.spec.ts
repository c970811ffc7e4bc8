import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { PackageLimits } from '../../domain/packages/package-structure.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { PACKAGE_LIMITS, RATIO_FLOOR_BYTES, readCounted, readPackageZip } from '../../infrastructure/packages/package-zip.ts';
import {
  bombRatioPackage,
  duplicatePathPackage,
  encryptedPackage,
  HOSTILE,
  lyingSizePackage,
  notAZip,
  scorm12Files,
  scorm12Package,
  symlinkPackage,
  tooManyEntriesPackage,
  zipOf,
  zipSlipPackage,
} from '../support/content-packages.ts';
import { type RawZipEntry, rawZip } from '../support/raw-zip.ts';

const MB = 1024 * 1024;
const LIMITS: PackageLimits = { maxTotalBytes: 8 * MB, maxEntries: 50, maxRatio: 200 };

/** The refusal's message, after checking it is the upload's 400 on `file`. */
const refusal = async (bytes: Buffer, limits: PackageLimits = LIMITS): Promise<string> => {
  const error = await readPackageZip(bytes, limits).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect(error).toMatchObject({ code: '400', status: 400, field: 'file' });
  return (error as DomainError).message;
};

/** A valid SCORM 1.2 package plus the given entries: only they can be the reason for a refusal. */
const withEntries = (...entries: RawZipEntry[]) => zipOf(scorm12Files(), entries);

describe('readPackageZip: what it accepts', () => {
  it('unpacks every file of a package, byte for byte', async () => {
    const files = await readPackageZip(scorm12Package(), LIMITS);
    const expected = scorm12Files();
    expect([...files.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [path, bytes] of expected) expect(files.get(path)?.equals(bytes)).toBe(true);
  });

  it('skips folders and normalises paths: ./ and empty segments dropped, Windows backslashes read as slashes', async () => {
    const files = await readPackageZip(
      rawZip([
        { name: 'mapa/' },
        { name: './a.txt', data: 'a' },
        { name: 'sub\\b.txt', data: 'b' },
        { name: 'c//./d.txt', data: 'd' },
        { name: 'e.txt', method: 'store', data: 'e' },
      ]),
      LIMITS,
    );
    expect(Object.fromEntries([...files].map(([path, bytes]) => [path, bytes.toString()]))).toEqual({
      'a.txt': 'a',
      'sub/b.txt': 'b',
      'c/d.txt': 'd',
      'e.txt': 'e',
    });
  });

  it('keeps the default limits the lead passes through the configuration', () => {
    expect(PACKAGE_LIMITS).toEqual({ maxTotalBytes: 1024 * MB, maxEntries: 10_000, maxRatio: 200 });
  });
});

describe('readPackageZip: what it refuses, naming the entry', () => {
  it('refuses what is not a zip', async () => {
    expect(await refusal(notAZip())).toBe('Datoteka ni arhiv ZIP.');
    expect(await refusal(Buffer.alloc(0))).toBe('Datoteka ni arhiv ZIP.');
    expect(await refusal(scorm12Package().subarray(0, 200))).toBe('Datoteka ni arhiv ZIP.');
  });

  it.each(['../evil.js', 'a/../../evil.js', 'a/..', '..\\evil.js', 'sco\\..\\..\\evil.js'])(
    'refuses a path out of the package (zip-slip): %s',
    async (name) => {
      expect(await refusal(withEntries({ name, data: 'x' }))).toBe(`Paket vsebuje pot zunaj paketa: ${name}.`);
    },
  );

  it('refuses the zip-slip fixture', async () => {
    expect(await refusal(zipSlipPackage())).toBe(`Paket vsebuje pot zunaj paketa: ${HOSTILE.zipSlip}.`);
  });

  it.each(['/etc/evil.js', 'C:\\evil.js', 'c:/evil.js', '\\\\server\\share\\evil.js', '//server/evil.js'])('refuses an absolute path: %s', async (name) => {
    expect(await refusal(withEntries({ name, data: 'x' }))).toBe(`Paket vsebuje absolutno pot: ${name}.`);
  });

  it('refuses NUL and control characters in a name, showing them', async () => {
    expect(await refusal(withEntries({ name: 'a\0.js', data: 'x' }))).toBe('Paket vsebuje datoteko z neveljavnim imenom: a\\x00.js.');
    expect(await refusal(withEntries({ name: 'b\n.js', data: 'x' }))).toBe('Paket vsebuje datoteko z neveljavnim imenom: b\\x0a.js.');
  });

  it('refuses a symlink (unix mode 0120000 in the external attributes)', async () => {
    expect(await refusal(symlinkPackage())).toBe(`Paket vsebuje simbolno povezavo: ${HOSTILE.symlink}.`);
    // The same entry as a plain file is fine: the mode is what makes it a link.
    const files = await readPackageZip(withEntries({ name: 'link', data: '/etc/passwd', method: 'store', mode: 0o100644 }), LIMITS);
    expect(files.get('link')?.toString()).toBe('/etc/passwd');
  });

  it('refuses an encrypted entry and an unknown compression method', async () => {
    expect(await refusal(encryptedPackage())).toBe(`Datoteka v paketu je šifrirana: ${HOSTILE.encrypted}.`);
    expect(await refusal(withEntries({ name: 'b.bz2', data: 'x', method: 'store', methodNumber: 12 }))).toBe(
      'Datoteka v paketu je stisnjena z nepodprto metodo (12): b.bz2.',
    );
  });

  it('refuses more entries than the limit, and takes exactly the limit', async () => {
    const own = scorm12Files().size;
    expect(await refusal(tooManyEntriesPackage(LIMITS.maxEntries - own + 1))).toBe(
      `Paket ima preveč datotek (${LIMITS.maxEntries + 1}, največ ${LIMITS.maxEntries}).`,
    );
    expect((await readPackageZip(tooManyEntriesPackage(LIMITS.maxEntries - own), LIMITS)).size).toBe(LIMITS.maxEntries);
  });

  it('refuses an entry compressed past the ratio (declared sizes), not a small or an incompressible one', async () => {
    expect(await refusal(withEntries({ name: 'zeros.bin', data: Buffer.alloc(2 * MB) }))).toBe(
      'Datoteka v paketu je nenavadno močno stisnjena (možna bomba ZIP): zeros.bin.',
    );
    const fine = await readPackageZip(
      withEntries({ name: 'small.bin', data: Buffer.alloc(RATIO_FLOOR_BYTES - 1) }, { name: 'noise.bin', data: randomBytes(2 * MB) }),
      LIMITS,
    );
    expect(fine.get('small.bin')?.length).toBe(RATIO_FLOOR_BYTES - 1);
    expect(fine.get('noise.bin')?.length).toBe(2 * MB);
  });

  it('refuses the 50 MB bomb with the default limits', async () => {
    expect(await refusal(bombRatioPackage(), PACKAGE_LIMITS)).toBe(`Datoteka v paketu je nenavadno močno stisnjena (možna bomba ZIP): ${HOSTILE.bomb}.`);
  });

  it('refuses a package that unpacks to more than the total', async () => {
    const limits = { ...LIMITS, maxTotalBytes: 1 * MB };
    expect(await refusal(withEntries({ name: 'a.bin', data: randomBytes(600 * 1024) }, { name: 'b.bin', data: randomBytes(600 * 1024) }), limits)).toBe(
      'Paket je razširjen prevelik (več kot 1 MB).',
    );
    expect((await readPackageZip(withEntries({ name: 'a.bin', data: randomBytes(600 * 1024) }), limits)).size).toBe(scorm12Files().size + 1);
  });

  it('refuses by the declared sizes before inflating anything', async () => {
    // Bytes that do not inflate: read, they would be refused as damaged; the declared size refuses them first.
    const entry = { name: 'a.bin', method: 'deflate', compressedData: randomBytes(100 * 1024), declaredUncompressedSize: 2 * MB } as const;
    expect(await refusal(withEntries(entry), { ...LIMITS, maxTotalBytes: 1 * MB })).toBe('Paket je razširjen prevelik (več kot 1 MB).');
    expect(await refusal(withEntries(entry))).toBe('Datoteka v paketu je poškodovana: a.bin.');
  });

  it('refuses an entry that inflates past the size it declares (counted while inflating)', async () => {
    expect(await refusal(lyingSizePackage())).toBe(`Datoteka v paketu je večja, kot navaja arhiv (možna bomba ZIP): ${HOSTILE.lyingSize}.`);
  });

  it('refuses a stored entry whose sizes disagree as a damaged zip', async () => {
    const own = scorm12Files().size;
    expect(await refusal(withEntries({ name: 'x.bin', data: 'abcdef', method: 'store', declaredUncompressedSize: 3 }))).toBe(
      `Arhiv ZIP je poškodovan (zapis št. ${own + 1}).`,
    );
  });

  it('refuses the same path twice, also when written differently', async () => {
    expect(await refusal(duplicatePathPackage())).toBe(`Paket vsebuje isto datoteko dvakrat: ${HOSTILE.duplicate}.`);
    expect(await refusal(withEntries({ name: 'sub\\sco.js', data: '1' }, { name: 'sub/sco.js', data: '2' }))).toBe(
      'Paket vsebuje isto datoteko dvakrat: sub/sco.js.',
    );
  });
});

describe('readCounted: the bytes actually inflated, whatever the headers say', () => {
  const lied = () => new Error('lied');
  const tooMuch = () => new Error('too much');
  const stream = () => Readable.from([Buffer.alloc(8), Buffer.alloc(8), Buffer.alloc(8)]);

  it('returns the bytes when they stay within the declared size and the budget', async () => {
    expect((await readCounted(stream(), 24, 24, lied, tooMuch)).length).toBe(24);
  });

  it('stops at the first chunk past the declared size, and destroys the stream', async () => {
    const source = stream();
    await expect(readCounted(source, 10, 100, lied, tooMuch)).rejects.toThrow('lied');
    expect(source.destroyed).toBe(true);
  });

  it('stops at the first chunk past the budget left for the package', async () => {
    const source = stream();
    await expect(readCounted(source, 100, 20, lied, tooMuch)).rejects.toThrow('too much');
    expect(source.destroyed).toBe(true);
  });
});
