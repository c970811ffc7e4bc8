import type { z } from 'zod';

/**
 * What a text may hold. PostgreSQL refuses NUL in `text` and `jsonb`, a lone UTF-16 surrogate has no
 * UTF-8 form, and the XML inside an xlsx file (and many PDF and mail readers) cannot hold the other
 * C0 control characters or U+FFFE/U+FFFF. The HTTP layer refuses such input in any field, query or
 * key before a route sees it (`infrastructure/http/text-guard.ts`); the rules below add what only a
 * field knows: a name or title is a single line.
 */
export const UNSTORABLE_TEXT_MESSAGE = 'Vnos vsebuje nedovoljene znake.';
export const SINGLE_LINE_MESSAGE = 'Vnos mora biti v eni vrstici.';

// Tab, line feed and carriage return are allowed in multi-line text; every other C0 control is not.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const UNSTORABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const LINE_BREAK_OR_CONTROL = /[\u0000-\u001F\u007F\u0085\u2028\u2029]/;

// A high surrogate not followed by a low one, or a low one not preceded by a high one (no `u` flag: code units).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isStorableText = (value: string): boolean => !UNSTORABLE.test(value) && !LONE_SURROGATE.test(value);

export const isSingleLine = (value: string): boolean => !LINE_BREAK_OR_CONTROL.test(value);

/** A single-line text field: names, titles, usernames, search terms. */
export const singleLine = <T extends z.ZodType<string>>(schema: T) => schema.refine(isSingleLine, { error: SINGLE_LINE_MESSAGE });
