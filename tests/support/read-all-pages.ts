import { expect } from 'vitest';
import { type AllPosition, comparePositions, type EventStore, type RecordedEvent } from '../../infrastructure/event-store/event-store.port.ts';

/**
 * Reads `$all` after `from`, `limit` at a time, to its end; checks every page holds at most `limit`
 * events in strictly increasing positions, and answers every event read.
 */
export const readAllPages = async (store: EventStore, from: AllPosition, limit: number): Promise<RecordedEvent[]> => {
  const read: RecordedEvent[] = [];
  let cursor = from;
  let previous = from;
  for (;;) {
    const page = await store.readAll(cursor, limit);
    expect(page.events.length).toBeLessThanOrEqual(limit);
    for (const event of page.events) {
      expect(comparePositions(event.position, previous)).toBe(1);
      previous = event.position;
      read.push(event);
    }
    if (page.events.length === 0) {
      // Held back behind a transaction still open elsewhere on the server: look again shortly.
      if (!page.hasMore) return read;
      await new Promise((r) => setTimeout(r, 10));
      continue;
    }
    cursor = page.events.at(-1)!.position;
  }
};
