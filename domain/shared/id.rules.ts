import { z } from 'zod';

/**
 * Ids are positive integers from PostgreSQL sequences and are stored as `integer` in the read
 * models: anything larger would reach SQL and fail there, so every id is bounded here, once.
 */
export const MAX_ID = 2_147_483_647;
export const INVALID_ID_MESSAGE = 'Neveljaven identifikator.';

/** An id in a JSON body. */
export const idRule = z
  .number({ error: INVALID_ID_MESSAGE })
  .int({ error: INVALID_ID_MESSAGE })
  .positive({ error: INVALID_ID_MESSAGE })
  .max(MAX_ID, { error: INVALID_ID_MESSAGE });

/** An id in a path or query string: decimal digits only (no `1e3`, `0x10`, ` 1` or `1.0`), within range. */
export const idParam = z
  .string({ error: INVALID_ID_MESSAGE })
  .regex(/^[1-9][0-9]{0,9}$/, { error: INVALID_ID_MESSAGE })
  .transform(Number)
  .pipe(z.number().max(MAX_ID, { error: INVALID_ID_MESSAGE }));

/** A non-negative index or id where 0 means "all" (interval 0 = all time), in a path or query string. */
export const indexParam = z
  .string({ error: INVALID_ID_MESSAGE })
  .regex(/^(0|[1-9][0-9]{0,9})$/, { error: INVALID_ID_MESSAGE })
  .transform(Number)
  .pipe(z.number().max(MAX_ID, { error: INVALID_ID_MESSAGE }));
