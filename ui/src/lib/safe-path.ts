/** A `redirect` target only when it is a path of this site (`/x`), never `//host` or `https://...`. */
export const safeLocalPath = (value: string | null | undefined, fallback = '/') => (value?.startsWith('/') && !value.startsWith('//') ? value : fallback);
