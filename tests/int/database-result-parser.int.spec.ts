import { SchemaValidationError, sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestDatabase } from '../support/test-database.ts';

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;

/**
 * Every `sql.type(schema)` result is checked row by row (database.ts, slonik does not do it by
 * itself): a wrong row is refused, never passed on, and the schema's transforms apply. zod compiles
 * a schema after its first parse: the rows before and after must be treated alike.
 */
describe('query results checked by their schema', () => {
  let db: TestDb;

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 2 });
  });

  afterAll(async () => {
    await db.drop();
  });

  const numbers = (schema: z.ZodType) => db.slonik.any(sql.type(schema as z.ZodObject)`select n from generate_series(1, 100) n`);

  it('refuses a wrong row among the first ones', async () => {
    const failure = await numbers(z.object({ n: z.number().max(10) })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SchemaValidationError);
    expect((failure as SchemaValidationError).row).toEqual({ n: 11 });
    expect((failure as SchemaValidationError).issues[0]?.path).toEqual(['n']);
  });

  it('refuses a wrong row far down the result', async () => {
    const failure = await numbers(z.object({ n: z.number().max(90) })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SchemaValidationError);
    expect((failure as SchemaValidationError).row).toEqual({ n: 91 });
  });

  it('answers every row as the schema transforms it, on both paths, and drops columns the schema does not name', async () => {
    const schema = z.object({ n: z.number().transform((n) => n * 2) });
    const rows = await db.slonik.any(sql.type(schema)`select n, 'x' as extra from generate_series(1, 100) n`);
    expect(rows).toEqual(Array.from({ length: 100 }, (_, i) => ({ n: (i + 1) * 2 })));
    // The same schema made once and asked again.
    const again = await db.slonik.any(sql.type(schema)`select n, 'x' as extra from generate_series(1, 3) n`);
    expect(again).toEqual([{ n: 2 }, { n: 4 }, { n: 6 }]);
  });
});
