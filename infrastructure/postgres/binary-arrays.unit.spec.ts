import { describe, expect, it } from 'vitest';
import { int4Array, int8Array, isUuid, PG_TYPE, stringArray, uuidArray } from './binary-arrays.ts';

const words = (buffer: Buffer, count: number) => Array.from({ length: count }, (_, i) => buffer.readInt32BE(i * 4));

describe('binary arrays', () => {
  it('writes one dimension from 1 with the element type oid, then each element as its length and bytes', () => {
    const buffer = int4Array([7, -2]);
    expect(words(buffer, 5)).toEqual([1, 0, PG_TYPE.int4, 2, 1]);
    expect(words(buffer.subarray(20), 4)).toEqual([4, 7, 4, -2]);
    expect(buffer.length).toBe(36);
  });

  it('writes an empty array without dimensions', () => {
    expect(words(stringArray(PG_TYPE.text, []), 3)).toEqual([0, 0, PG_TYPE.text]);
    expect(stringArray(PG_TYPE.text, []).length).toBe(12);
  });

  it('gives each string its length in UTF-8 bytes, not in characters, and its bytes unescaped', () => {
    const buffer = stringArray(PG_TYPE.json, ['{"ime":"Čežek \\"Ž\\""}', '']);
    const first = buffer.readInt32BE(20);
    expect(first).toBe(Buffer.byteLength('{"ime":"Čežek \\"Ž\\""}'));
    expect(first).toBeGreaterThan('{"ime":"Čežek \\"Ž\\""}'.length);
    expect(buffer.subarray(24, 24 + first).toString('utf8')).toBe('{"ime":"Čežek \\"Ž\\""}');
    expect(buffer.readInt32BE(24 + first)).toBe(0);
    expect(buffer.length).toBe(24 + first + 4);
  });

  it('ends each string where its bytes end, whatever their width (2, 3 and 4-byte characters, a lone surrogate)', () => {
    const values = ['ž', '€ and 😀', 'a\ud800b', 'ascii'];
    const buffer = stringArray(PG_TYPE.text, values);
    let offset = 20;
    for (const value of values) {
      const length = buffer.readInt32BE(offset);
      expect(length).toBe(Buffer.byteLength(value));
      expect(buffer.subarray(offset + 4, offset + 4 + length).toString('utf8')).toBe(Buffer.from(value).toString('utf8'));
      offset += 4 + length;
    }
    // Each string's length, then its bytes, and nothing after the last.
    expect(buffer.length).toBe(offset);
  });

  it('writes int8 values across the whole range', () => {
    const buffer = int8Array([-3n, 2n ** 63n - 1n]);
    expect(buffer.readInt32BE(20)).toBe(8);
    expect(buffer.readBigInt64BE(24)).toBe(-3n);
    expect(buffer.readBigInt64BE(36)).toBe(2n ** 63n - 1n);
  });

  it('writes a uuid as its 16 bytes, any case, and refuses anything else', () => {
    const buffer = uuidArray(['0190A1B2-C3D4-7E5F-8A9B-0C1D2E3F4A5B']);
    expect(buffer.readInt32BE(20)).toBe(16);
    expect(buffer.subarray(24).toString('hex')).toBe('0190a1b2c3d47e5f8a9b0c1d2e3f4a5b');
    expect(isUuid('0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b')).toBe(true);
    expect(uuidArray(['ffffffff-ffff-ffff-ffff-ffffffffffff', '00000000-0000-0000-0000-000000000000']).subarray(20).toString('hex')).toBe(
      `00000010${'ff'.repeat(16)}00000010${'00'.repeat(16)}`,
    );
    for (const bad of [
      '',
      'not-a-uuid',
      '0190a1b2c3d47e5f8a9b0c1d2e3f4a5b',
      '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5g',
      'x190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
      '0190a1b2-c3d4-7e5f-8a9-b0c1d2e3f4a5b',
      '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5 ',
      '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b0',
      '0190a1b2_c3d4-7e5f-8a9b-0c1d2e3f4a5b',
      '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a:b',
      '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a@b',
      '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a`b',
      '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4aGb',
    ]) {
      expect(isUuid(bad)).toBe(false);
      expect(() => uuidArray([bad])).toThrow(RangeError);
    }
  });
});
