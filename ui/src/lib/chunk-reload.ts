/**
 * spec §8: when a code chunk fails to load (usually a deployment replaced it), reload the page
 * once, marked by the #retry hash, and at most once a minute.
 */
const LAST_RETRY = 'chunk_retry_at';

export const isChunkLoadError = (error: unknown) =>
  error instanceof Error &&
  /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|ChunkLoadError/i.test(error.message);

export const reloadOnceForChunkError = (now = Date.now()): boolean => {
  const last = Number(sessionStorage.getItem(LAST_RETRY) ?? 0);
  if (window.location.hash === '#retry' || now - last < 60_000) return false;
  sessionStorage.setItem(LAST_RETRY, String(now));
  window.location.hash = 'retry';
  window.location.reload();
  return true;
};
