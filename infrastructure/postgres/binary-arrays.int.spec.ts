import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../tests/support/test-database.ts';
import { int4Array, int8Array, PG_TYPE, stringArray, uuidArray } from './binary-arrays.ts';

describe('binary arrays in PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('arrive as the same values the text form gives, Slovenian text, quotes, backslashes and empty strings too', async () => {
    const texts = ['Čebelarski tečaj "osnove"', 'C:\\poti\\', '', '{a,b}', 'NULL', '  presledki  '];
    const json = ['{"opomba":"Žiga je rekel \\"da\\"","pot":"C:\\\\x","n":1}', '[]', '"niz"', '{"emoji":"💊"}'];
    const ids = ['0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', '00000000-0000-0000-0000-000000000000'];
    const result = await db.pg.query({
      text: `select $1::text[] = $2::text[] as texts, $3::json[]::text[] = $4::text[] as json, $5::uuid[] = $6::uuid[] as ids,
                    $7::int[] = $8::int[] as ints, $9::bigint[] = $10::bigint[] as bigints, cardinality($11::text[]) as empty`,
      values: [
        stringArray(PG_TYPE.text, texts),
        texts,
        stringArray(PG_TYPE.json, json),
        json,
        uuidArray(ids),
        ids,
        int4Array([0, -1, 2 ** 31 - 1]),
        [0, -1, 2 ** 31 - 1],
        int8Array([-3n, 2n ** 63n - 1n]),
        ['-3', (2n ** 63n - 1n).toString()],
        stringArray(PG_TYPE.text, []),
      ],
    });
    expect(result.rows[0]).toEqual({ texts: true, json: true, ids: true, ints: true, bigints: true, empty: 0 });
  });

  it('are refused when the element type is not the parameter type, and json that is not JSON is refused', async () => {
    await expect(db.pg.query({ text: 'select $1::int[]', values: [stringArray(PG_TYPE.text, ['1'])] })).rejects.toThrow(
      /element type 25 \(text\) instead of expected 23/,
    );
    await expect(db.pg.query({ text: 'select $1::json[]', values: [stringArray(PG_TYPE.json, ['{"a":'])] })).rejects.toThrow(/json/i);
  });
});
