import { describe, expect, it } from 'vitest';
import { accreditationLine, CERTIFICATE_NUMBER_PATTERN, certificateNumber, creditPointsText, normaliseCertificateNumber } from './certificate.ts';

describe('certificate number (decision 0032)', () => {
  const id = '8f5c2d9e-1b7a-4c3e-9d2f-6a1b3c4d5e6f';

  it('is the year of issue in Ljubljana and 50 bits of the UUID in Crockford base32, always the same', () => {
    const number = certificateNumber(id, new Date('2026-03-04T10:00:00Z'));
    expect(number).toMatch(CERTIFICATE_NUMBER_PATTERN);
    expect(number).toBe(certificateNumber(id.toUpperCase(), new Date('2026-12-01T10:00:00Z')));
    expect(number.startsWith('ML-2026-')).toBe(true);
    // New Year's night in Ljubljana is still the old year in UTC.
    expect(certificateNumber(id, new Date('2026-12-31T23:30:00Z')).startsWith('ML-2027-')).toBe(true);
  });

  it('differs for UUIDs that differ in their random bits, and ignores the version digit', () => {
    const other = '8f5c2d9e-1b7b-4c3e-9d2f-6a1b3c4d5e6f';
    const at = new Date('2026-01-10T10:00:00Z');
    expect(certificateNumber(other, at)).not.toBe(certificateNumber(id, at));
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) seen.add(certificateNumber(crypto.randomUUID(), at));
    expect(seen.size).toBe(2000);
    expect(() => certificateNumber('not-a-uuid', at)).toThrow();
  });

  it('reads a number as typed: lower case, spaces, O for 0 and I or L for 1; refuses what cannot be one', () => {
    const number = certificateNumber(id, new Date('2026-03-04T10:00:00Z'));
    expect(normaliseCertificateNumber(number.toLowerCase())).toBe(number);
    expect(normaliseCertificateNumber(` ${number.replace(/-/g, ' ')} `)).toBe(number);
    expect(normaliseCertificateNumber('ml-2026-o1ilo-00000')).toBe('ML-2026-01110-00000');
    expect(normaliseCertificateNumber('ML-2026-ABCDU-00000')).toBeNull();
    expect(normaliseCertificateNumber('8f5c2d9e-1b7a-4c3e-9d2f-6a1b3c4d5e6f')).toBeNull();
    expect(normaliseCertificateNumber("ML-2026-'; drop")).toBeNull();
  });
});

describe('credit points in Slovenian', () => {
  it('agrees with the number: 1 kreditna točka, 2 kreditni točki, 3 and 4 kreditne točke, 5 and more kreditnih točk, decimals genitive singular', () => {
    expect([1, 2, 3, 4, 5, 10, 101, 102, 1.5, 0.5].map(creditPointsText)).toEqual([
      '1 kreditna točka',
      '2 kreditni točki',
      '3 kreditne točke',
      '4 kreditne točke',
      '5 kreditnih točk',
      '10 kreditnih točk',
      '101 kreditna točka',
      '102 kreditni točki',
      '1,5 kreditne točke',
      '0,5 kreditne točke',
    ]);
  });

  it('writes the accreditation line in the instrumental case, with s or z as the number is read, the chamber after "pri"', () => {
    expect(accreditationLine(1, 1)).toBe('Izobraževanje je ovrednoteno z 1 kreditno točko pri Lekarniški zbornici.');
    expect(accreditationLine(2, 2)).toBe('Izobraževanje je ovrednoteno z 2 kreditnima točkama pri Zdravniški zbornici.');
    expect(accreditationLine(3, 3)).toBe('Izobraževanje je ovrednoteno s 3 kreditnimi točkami pri Zbornici zdravstvene nege.');
    expect(accreditationLine(5, 1)).toBe('Izobraževanje je ovrednoteno s 5 kreditnimi točkami pri Lekarniški zbornici.');
    expect(accreditationLine(8, 1)).toBe('Izobraževanje je ovrednoteno z 8 kreditnimi točkami pri Lekarniški zbornici.');
    expect(accreditationLine(10, null)).toBe('Izobraževanje je ovrednoteno z 10 kreditnimi točkami.');
    expect(accreditationLine(1.5, 1)).toBe('Izobraževanje je ovrednoteno z 1,5 kreditne točke pri Lekarniški zbornici.');
    expect(accreditationLine(4.5, null)).toBe('Izobraževanje je ovrednoteno s 4,5 kreditne točke.');
    expect(accreditationLine(0, 1)).toBeNull();
    // As the number is read: trinajst, trideset, triindvajset, sto take "s"; osemnajst, dvajset, enaindvajset, dvesto take "z".
    const preposition = (points: number) => /ovrednoteno ([sz]) /.exec(accreditationLine(points, null) ?? '')?.[1];
    const voiceless = [13, 17, 30, 45, 23, 100, 150, 300, 1000];
    const voiced = [0.5, 10, 11, 12, 18, 19, 20, 21, 28, 80, 90, 200, 800, 2000];
    expect(voiceless.map(preposition)).toEqual(voiceless.map(() => 's'));
    expect(voiced.map(preposition)).toEqual(voiced.map(() => 'z'));
  });
});
