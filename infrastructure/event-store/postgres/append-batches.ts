/** What the batching needs to know of a queued append. */
export type QueuedAppend = { readonly streamName: string; readonly events: { readonly length: number } };

export type BatchLimits = {
  /** Appends in one batch at most. */
  readonly maxBatch: number;
  /** Batches in flight at once. */
  readonly maxInFlight: number;
  /**
   * A batch starts beside one in flight only with at least this many events queued, and a queue of
   * twice this many is shared out over the free slots (decision 0037).
   */
  readonly parallelBatchEvents: number;
};

export type InFlight = {
  readonly batches: number;
  /** Batches in flight per stream name. */
  readonly streams: ReadonlyMap<string, number>;
};

const eventsIn = (queue: readonly QueuedAppend[]) => queue.reduce((sum, append) => sum + append.events.length, 0);

/** Whether another batch may start now: the first whenever anything is queued, more only for a long queue. */
export const mayStartBatch = (queue: readonly QueuedAppend[], inFlight: InFlight, limits: BatchLimits): boolean =>
  queue.length > 0 &&
  inFlight.batches < limits.maxInFlight &&
  (inFlight.batches === 0 || eventsIn(queue) >= limits.parallelBatchEvents) &&
  queue.some((append) => !inFlight.streams.has(append.streamName));

/**
 * Takes the next batch out of the queue: queued appends in arrival order (all of them, or a share of
 * a long queue), sorted by stream name (stable), so every batch locks stream rows in the same order
 * and two batches in flight never wait on each other in a cycle. An append of a stream that a batch
 * in flight writes stays queued, as do the later appends of that stream: one stream's appends are
 * stored in the order they came.
 */
export const takeBatch = <T extends QueuedAppend>(queue: T[], inFlight: InFlight, limits: BatchLimits): T[] => {
  const queued = eventsIn(queue);
  const share =
    queued >= 2 * limits.parallelBatchEvents
      ? Math.max(limits.parallelBatchEvents, queued / (limits.maxInFlight - inFlight.batches))
      : Number.POSITIVE_INFINITY;
  const taken: T[] = [];
  const left: T[] = [];
  let events = 0;
  for (const append of queue) {
    if (taken.length >= limits.maxBatch || events >= share || inFlight.streams.has(append.streamName)) left.push(append);
    else {
      taken.push(append);
      events += append.events.length;
    }
  }
  queue.splice(0, queue.length, ...left);
  // Array.prototype.sort is stable (ES2019): appends of one stream keep their arrival order.
  return taken.sort(byStreamName);
};

const byStreamName = (a: QueuedAppend, b: QueuedAppend) => (a.streamName < b.streamName ? -1 : a.streamName > b.streamName ? 1 : 0);
