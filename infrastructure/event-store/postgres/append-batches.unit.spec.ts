import { describe, expect, it } from 'vitest';
import { type InFlight, mayStartBatch, takeBatch } from './append-batches.ts';

const limits = { maxBatch: 256, maxInFlight: 2, parallelBatchEvents: 32 };
const append = (streamName: string, events: number, id = streamName) => ({ id, streamName, events: { length: events } });
const idle: InFlight = { batches: 0, streams: new Map() };

describe('append batches', () => {
  it('takes every queued append into one batch, sorted by stream name and otherwise in arrival order', () => {
    const queue = [append('b', 1, 'b1'), append('a', 1, 'a1'), append('b', 1, 'b2'), append('a', 1, 'a2')];
    expect(takeBatch(queue, idle, limits).map((a) => a.id)).toEqual(['a1', 'a2', 'b1', 'b2']);
    expect(queue).toEqual([]);
  });

  it('starts a second batch beside one in flight only for a long queue', () => {
    const busy: InFlight = { batches: 1, streams: new Map([['x', 1]]) };
    expect(mayStartBatch([append('a', 10), append('b', 10)], busy, limits)).toBe(false);
    expect(mayStartBatch([append('a', 10), append('b', 10), append('c', 10), append('d', 10)], busy, limits)).toBe(true);
    expect(mayStartBatch([append('a', 1)], { batches: 2, streams: new Map() }, limits)).toBe(false);
    expect(mayStartBatch([append('a', 1)], idle, limits)).toBe(true);
  });

  it('shares a long queue out over the free slots, so ten-event appends of eight writers use two backends', () => {
    const queue = Array.from({ length: 8 }, (_, w) => append(`w${w}`, 10));
    const first = takeBatch(queue, idle, limits);
    expect(first.map((a) => a.streamName)).toEqual(['w0', 'w1', 'w2', 'w3']);
    const second = takeBatch(queue, { batches: 1, streams: new Map(first.map((a) => [a.streamName, 1])) }, limits);
    expect(second.map((a) => a.streamName)).toEqual(['w4', 'w5', 'w6', 'w7']);
  });

  it('keeps an append queued, with the later ones of its stream, while a batch in flight writes that stream', () => {
    const queue = [append('a', 20, 'a1'), append('x', 20, 'x2'), append('b', 20, 'b1'), append('x', 20, 'x3')];
    const inFlight: InFlight = { batches: 1, streams: new Map([['x', 1]]) };
    expect(mayStartBatch(queue, inFlight, limits)).toBe(true);
    expect(takeBatch(queue, inFlight, limits).map((a) => a.id)).toEqual(['a1', 'b1']);
    expect(queue.map((a) => a.id)).toEqual(['x2', 'x3']);
    expect(mayStartBatch(queue, inFlight, limits)).toBe(false);
  });

  it('never takes more than the batch limit', () => {
    const queue = Array.from({ length: 5 }, (_, i) => append(`s${i}`, 1));
    expect(takeBatch(queue, idle, { ...limits, maxBatch: 3 })).toHaveLength(3);
    expect(queue).toHaveLength(2);
  });
});
