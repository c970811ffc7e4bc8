import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../infrastructure/postgres/database.ts';
import { createTestDatabase } from '../support/test-database.ts';

describe('database pools', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 2 });
  });
  afterAll(async () => {
    await db.drop();
  });

  const backends = async (applicationName: string) => {
    const result = await db.pg.query<{ count: number }>(
      'select count(*)::int as count from pg_stat_activity where datname = current_database() and application_name = $1',
      [applicationName],
    );
    return result.rows[0]?.count;
  };

  it('opens the warm connections before handing the pool out, and keeps them from being closed as idle', async () => {
    const warmed = await openDatabase(db.connectionString, { poolSize: 5, warmConnections: 3, applicationName: 'warm-pool' });
    try {
      // Before any query of its own: three backends are up and idle in the pool.
      expect(await backends('warm-pool')).toBe(3);
      expect([warmed.pg.totalCount, warmed.pg.idleCount]).toEqual([3, 3]);
      // pg-pool closes idle clients only above its minimum.
      expect(warmed.pg.options.min).toBe(3);
      // A burst past the warm ones still grows the pool up to its size.
      const clients = await Promise.all(Array.from({ length: 5 }, () => warmed.pg.connect()));
      expect(warmed.pg.totalCount).toBe(5);
      for (const client of clients) client.release();
    } finally {
      await warmed.close();
    }
    // A database that cannot be reached fails the open at once instead of the first request.
    const missing = new URL(db.connectionString);
    missing.pathname = '/no_such_database';
    await expect(openDatabase(missing.toString(), { poolSize: 2, warmConnections: 2 })).rejects.toMatchObject({ code: '3D000' });
    const cold = await openDatabase(db.connectionString, { poolSize: 5, applicationName: 'cold-pool' });
    try {
      expect(await backends('cold-pool')).toBe(0);
    } finally {
      await cold.close();
    }
  });
});
