import type { AuthSubject } from './users.queries.ts';

export type AuthSubjectCacheOptions = {
  /** What the subject is read from; see ProjectionRunner.changeStamp. Null: do not keep anything. */
  readonly stamp: () => string | null;
  readonly load: (userId: number, sessionId: string) => Promise<AuthSubject | null>;
  /** Sessions kept at most; the one used longest ago goes first. */
  readonly maxEntries?: number;
};

/**
 * The acting user of a request, kept per session for as long as the read models it comes from
 * (users, consents) have not changed in this process (decision 0039). Every signed-in request asks
 * for it; it changes only when such an event is applied, so most requests need no query for it.
 * The stamp is taken before the read: a change applied while the read runs leaves the entry
 * stamped as before it, and the next request reads again. A process that does not run those read
 * models itself (several API processes) gets a null stamp and always reads.
 */
export const createAuthSubjectCache = (options: AuthSubjectCacheOptions) => {
  const maxEntries = options.maxEntries ?? 20_000;
  const entries = new Map<string, { stamp: string; subject: AuthSubject }>();
  return async (userId: number, sessionId: string): Promise<AuthSubject | null> => {
    const stamp = options.stamp();
    if (stamp === null) return options.load(userId, sessionId);
    const key = `${userId}:${sessionId}`;
    const kept = entries.get(key);
    if (kept && kept.stamp === stamp) {
      // Map order is insertion order: moved to the end, it is the last to be dropped.
      entries.delete(key);
      entries.set(key, kept);
      return kept.subject;
    }
    const subject = await options.load(userId, sessionId);
    // An ended session or an inactive user is not kept: the session may be one opened a moment
    // ago that the read model does not know yet (app.ts waits and asks again).
    if (subject === null) entries.delete(key);
    else {
      entries.delete(key);
      entries.set(key, { stamp, subject });
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    }
    return subject;
  };
};
