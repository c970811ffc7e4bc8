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

/**
 * What an id in a request body names (issue 31 item 1, decision 0047). A field declared with
 * `reference(kind)` is resolved for the caller before the handler runs (infrastructure/http/references.ts):
 * the record must exist and be within the caller's reach, otherwise the request answers 400 with the
 * field named and nothing is written. Pure data: the UI shares these rules.
 */
export const REFERENCE_KINDS = [
  'company',
  'unit',
  'communityGroup',
  'profession',
  'professionGroup',
  /** Tags of one kind (spec §3: company, course, profession, unit): a unit's tag must be a unit tag. */
  'companyTag',
  'unitTag',
  'courseTag',
  'course',
  'post',
  'file',
  'user',
  /** A question (an NPS block) of the survey the path names. */
  'surveyQuestion',
  /** A SCORM or cmi5 package (issue 35): its uploader's, or any for who edits blocks platform-wide. */
  'contentPackage',
] as const;
export type ReferenceKind = (typeof REFERENCE_KINDS)[number];

/** The marker `reference` and `notAReference` leave on a schema; read by the request hook and the cross-tenant suite. */
export type ReferenceMeta = { readonly reference: ReferenceKind | null; readonly why?: string };

/** An id field that names a record of `kind` (0 is never looked up: "all units" where a rule allows it). */
export const reference = <T extends z.ZodType>(kind: ReferenceKind, schema: T): T => schema.meta({ reference: kind } satisfies ReferenceMeta) as T;

/** An id in a body that names a record of `kind`: `idRule` with its reference declared. */
export const refId = (kind: ReferenceKind) => reference(kind, idRule);

/** A number whose name looks like an id but names no record the caller could reach: say why. */
export const notAReference = <T extends z.ZodType>(schema: T, why: string): T => schema.meta({ reference: null, why } satisfies ReferenceMeta) as T;
