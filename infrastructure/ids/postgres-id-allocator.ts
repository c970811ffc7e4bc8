import type pg from 'pg';
import type { IdAllocator } from './id-allocator.port.ts';

const CATEGORY = /^[a-z][a-z0-9_]{0,40}$/;

export const createPostgresIdAllocator = (pool: pg.Pool): IdAllocator => {
  const created = new Set<string>();
  return {
    async next(category) {
      if (!CATEGORY.test(category)) throw new Error(`Invalid id category ${category}`);
      if (!created.has(category)) {
        await pool.query(`create sequence if not exists ids.${category} as bigint`).catch((error: { code?: string }) => {
          // Two processes creating the same sequence at once: the loser sees a unique violation.
          if (error.code !== '23505' && error.code !== '42P07') throw error;
        });
        created.add(category);
      }
      const result = await pool.query<{ id: number }>(`select nextval('ids.${category}') as id`);
      return Number(result.rows[0]?.id);
    },
  };
};
