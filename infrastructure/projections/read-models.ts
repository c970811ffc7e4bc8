import type { EventStore } from '../event-store/event-store.port.ts';
import type { ReadModelFreshness, ReadModels } from './projection.port.ts';

/** A request's wait for the read models behind its write, over the runner that keeps them. */
export const createReadModels = (
  freshness: ReadModelFreshness,
  store: Pick<EventStore, 'headPosition'>,
  all: readonly string[],
  waitMs: number,
): ReadModels => ({
  waitMs,
  waitFor: (names, position, timeoutMs) => freshness.waitFor(names, position, timeoutMs),
  catchUp: async (names = all, timeoutMs = waitMs) => {
    const head = await store.headPosition();
    if (head) await freshness.waitFor(names, head, timeoutMs);
  },
});
