import type pg from 'pg';

export type ReadModelChanges = {
  /** Calls the listener with the names of the read models whose checkpoint moved; returns the unsubscribe. */
  subscribe(listener: (readModels: readonly string[]) => void): () => void;
  /** Resolves once the state changes are told against is known: a change after it reaches every listener. */
  ready(): Promise<void>;
  close(): void;
};

/**
 * Which read models changed, for the live stream (issue 7): the active generations and how many
 * events each applied, polled while someone listens. A read model is named when it applied an event
 * (or a rebuilt generation went live), not when its checkpoint merely moved past events of others
 * (issue 33 item 4: every page then refetched on every event of the platform). Polling the table (not
 * the runner in this process) also works when another process leads the projections.
 */
export const createReadModelChanges = (db: pg.Pool, options: { pollMs?: number } = {}): ReadModelChanges => {
  const pollMs = options.pollMs ?? 250;
  const listeners = new Set<(readModels: readonly string[]) => void>();
  let last = new Map<string, string>();
  let timer: NodeJS.Timeout | null = null;
  let polling = false;
  let baseline: { promise: Promise<void>; resolve: () => void } | null = null;
  const nextBaseline = () => {
    let resolve = () => {};
    const promise = new Promise<void>((r) => {
      resolve = r;
    });
    return { promise, resolve };
  };

  const poll = async () => {
    if (polling) return;
    polling = true;
    try {
      const result = await db.query<{ name: string; version: string }>({
        name: 'read_model_versions',
        text: `select name, generation::text || '/' || events_applied::text as version from projections.generations where status = 'active'`,
      });
      const next = new Map(result.rows.map((r) => [r.name, r.version]));
      const changed = last.size === 0 ? [] : [...next].filter(([name, version]) => last.get(name) !== version).map(([name]) => name);
      last = next;
      baseline?.resolve();
      if (changed.length > 0) for (const listener of listeners) listener(changed);
    } catch {
      // A failed poll is retried on the next tick; the stream only hints, the pages still read the API.
    } finally {
      polling = false;
    }
  };

  const stop = () => {
    if (timer) clearInterval(timer);
    timer = null;
    last = new Map();
    baseline = null;
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      if (!timer) {
        baseline = nextBaseline();
        timer = setInterval(() => void poll(), pollMs);
        void poll();
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) stop();
      };
    },
    ready: () => baseline?.promise ?? Promise.resolve(),
    close: () => {
      listeners.clear();
      stop();
    },
  };
};
