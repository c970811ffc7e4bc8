/**
 * Parses a query string so that lists arrive as arrays in both styles the spec's clients use:
 * `location[]=1&location[]=2` and `location=1&location=2` both give `{ location: ['1', '2'] }`.
 * A single `location[]=1` is a one-element array; a single `location=1` stays a string (the
 * route's schema wraps it when it expects a list, see `queryArray`).
 */
export const parseQueryString = (query: string): Record<string, string | string[]> => {
  const result: Record<string, string | string[]> = Object.create(null);
  for (const [rawKey, value] of new URLSearchParams(query)) {
    const isList = rawKey.endsWith('[]');
    const key = isList ? rawKey.slice(0, -2) : rawKey;
    if (key === '' || key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
    const existing = result[key];
    if (existing === undefined) result[key] = isList ? [value] : value;
    else if (Array.isArray(existing)) existing.push(value);
    else result[key] = [existing, value];
  }
  return result;
};
