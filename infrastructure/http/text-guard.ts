import { DomainError } from '../../domain/shared/domain-error.ts';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../../domain/shared/text.rules.ts';

/**
 * The path of the first string (value or key) in a parsed body, query or params that holds a
 * character no text may hold (NUL, a lone surrogate, a C0 control other than tab and line breaks),
 * or null. Walks arrays and objects; a Buffer (an upload) is bytes, not text.
 */
export const findUnstorableText = (value: unknown, path: readonly string[] = [], depth = 0): string[] | null => {
  if (typeof value === 'string') return isStorableText(value) ? null : [...path];
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value) || depth > 64) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], [...path, String(i)], depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    // The key is reported without the characters that made it unreadable.
    if (!isStorableText(key)) return [...path, [...key.toWellFormed()].map((c) => (isStorableText(c) && c >= ' ' ? c : '?')).join('')];
    const found = findUnstorableText(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
};

/** Refuses, with a Slovenian 400 naming the field, any request whose text could not be stored or read back. */
export const refuseUnstorableText = (parts: { body?: unknown; query?: unknown; params?: unknown }) => {
  for (const part of [parts.params, parts.query, parts.body]) {
    const path = findUnstorableText(part);
    if (path) throw new DomainError('400', UNSTORABLE_TEXT_MESSAGE, { status: 400, field: path.join('.') || undefined });
  }
};
