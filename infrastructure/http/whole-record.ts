import { z } from 'zod';

export const FIELD_NOT_SENT_MESSAGE = 'Polje manjka: shranjevanje zamenja cel zapis, zato pošljite vsa polja (null za prazno).';

/**
 * Refuses a PUT body that leaves out fields of its rule (a zod object), one error per field. The
 * rules give optional fields a default (mostly null), so without this check a client sending only
 * what it changes would empty the rest of the record without a word.
 */
export const refuseFieldsNotSent = (rule: unknown, body: unknown) => {
  if (!(rule instanceof z.ZodObject) || body === null || typeof body !== 'object' || Array.isArray(body)) return;
  const missing = Object.keys(rule.shape).filter((key) => !Object.hasOwn(body, key));
  if (missing.length > 0)
    throw new z.ZodError(missing.map((key) => ({ code: 'custom' as const, path: [key], message: FIELD_NOT_SENT_MESSAGE, input: undefined })));
};
