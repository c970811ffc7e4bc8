import type pg from 'pg';
import { type AllPosition, comparePositions } from '../event-store/event-store.port.ts';

export type ReadModelChanges = {
  /**
   * Calls the listener with the names of the read models whose checkpoint moved, and the furthest of
   * their checkpoints: a page's read again with it as `X-Min-Position` waits until a replica has the
   * change too (decision 0067), instead of reading what was there before. Returns the unsubscribe.
   */
  subscribe(listener: (readModels: readonly string[], position: AllPosition) => void): () => void;
  /** Resolves once the state changes are told against is known (a change after it reaches every listener), with the furthest checkpoint then. */
  ready(): Promise<AllPosition | null>;
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
  const listeners = new Set<(readModels: readonly string[], position: AllPosition) => void>();
  let last = new Map<string, string>();
  const checkpoints = new Map<string, AllPosition>();
  const furthest = (names: Iterable<string>) => {
    let position: AllPosition | null = null;
    for (const name of names) {
      const checkpoint = checkpoints.get(name);
      if (checkpoint && (!position || comparePositions(checkpoint, position) > 0)) position = checkpoint;
    }
    return position;
  };
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
      const result = await db.query<{ name: string; version: string; commit: string; prepare: string }>({
        name: 'read_model_versions_at',
        text: `select name, generation::text || '/' || events_applied::text as version, checkpoint_commit::text as commit, checkpoint_prepare::text as prepare
               from projections.generations where status = 'active'`,
      });
      const next = new Map(result.rows.map((r) => [r.name, r.version]));
      for (const r of result.rows) checkpoints.set(r.name, { commit: BigInt(r.commit), prepare: BigInt(r.prepare) });
      const changed = last.size === 0 ? [] : [...next].filter(([name, version]) => last.get(name) !== version).map(([name]) => name);
      last = next;
      baseline?.resolve();
      const position = furthest(changed);
      if (changed.length > 0 && position) for (const listener of listeners) listener(changed, position);
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
    checkpoints.clear();
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
    ready: async () => {
      await baseline?.promise;
      return furthest(checkpoints.keys());
    },
    close: () => {
      listeners.clear();
      stop();
    },
  };
};
