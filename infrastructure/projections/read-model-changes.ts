import type pg from 'pg';

export type ReadModelChanges = {
  /** Calls the listener with the names of the read models whose checkpoint moved; returns the unsubscribe. */
  subscribe(listener: (readModels: readonly string[]) => void): () => void;
  close(): void;
};

/**
 * Which read models changed, for the live stream (issue 7): the active generations' checkpoints,
 * polled while someone listens. Polling the table (not the runner in this process) also works when
 * another process leads the projections.
 */
export const createReadModelChanges = (db: pg.Pool, options: { pollMs?: number } = {}): ReadModelChanges => {
  const pollMs = options.pollMs ?? 250;
  const listeners = new Set<(readModels: readonly string[]) => void>();
  let last = new Map<string, string>();
  let timer: NodeJS.Timeout | null = null;
  let polling = false;

  const poll = async () => {
    if (polling) return;
    polling = true;
    try {
      const result = await db.query<{ name: string; checkpoint: string }>({
        name: 'read_model_checkpoints',
        text: `select name, checkpoint_commit::text || '/' || checkpoint_prepare::text as checkpoint from projections.generations where status = 'active'`,
      });
      const next = new Map(result.rows.map((r) => [r.name, r.checkpoint]));
      const changed = last.size === 0 ? [] : [...next].filter(([name, checkpoint]) => last.get(name) !== checkpoint).map(([name]) => name);
      last = next;
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
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      if (!timer) {
        timer = setInterval(() => void poll(), pollMs);
        void poll();
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) stop();
      };
    },
    close: () => {
      listeners.clear();
      stop();
    },
  };
};
