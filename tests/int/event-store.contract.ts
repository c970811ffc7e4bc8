import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDefinition } from '../../domain/shared/event.ts';
import { ConcurrencyConflictError, comparePositions, type EventStore, type NewEvent, START } from '../../infrastructure/event-store/event-store.port.ts';
import { readAllPages } from '../support/read-all-pages.ts';
import { renamedV1, renamedV2, testEvents } from '../support/test-events.ts';

export type StoreFactory = {
  /** A store over one shared backend, reading and writing with the given event definitions. */
  create(definitions: readonly EventDefinition[]): Promise<EventStore>;
  dispose(): Promise<void>;
};

const happened = (n: number, id: string = randomUUID()): NewEvent => ({
  eventId: id,
  type: 'TestHappened',
  data: { n },
  metadata: { actorId: 7, correlationId: 'c-1' },
});

const stream = () => `test-${randomUUID()}`;

/** The behaviour every event store adapter must show. */
export const eventStoreContract = (name: string, setup: () => Promise<StoreFactory>) => {
  describe(`event store contract: ${name}`, () => {
    let factory: StoreFactory;
    let store: EventStore;

    beforeAll(async () => {
      factory = await setup();
      store = await factory.create([...testEvents, renamedV2]);
    });

    afterAll(async () => {
      await store.close();
      await factory.dispose();
    });

    it('appends to a new stream and reads it back in order with data and metadata', async () => {
      const s = stream();
      const result = await store.append(s, [happened(1), happened(2), happened(3)], { expectedRevision: 'no_stream' });
      expect(result.nextRevision).toBe(2n);
      const read = await store.readStream(s);
      expect(read.revision).toBe(2n);
      expect(read.events.map((e) => [e.revision, e.type, e.data])).toEqual([
        [0n, 'TestHappened', { n: 1 }],
        [1n, 'TestHappened', { n: 2 }],
        [2n, 'TestHappened', { n: 3 }],
      ]);
      expect(read.events[0]?.metadata).toMatchObject({ actorId: 7, correlationId: 'c-1' });
      expect(read.events[0]?.createdAt).toBeInstanceOf(Date);
      expect(comparePositions(read.events[2]!.position, result.position)).toBe(0);
    });

    it('reads a stream that does not exist as no_stream', async () => {
      expect(await store.readStream(stream())).toEqual({ revision: 'no_stream', events: [] });
    });

    it('appends at the exact expected revision and refuses a stale one with a typed conflict', async () => {
      const s = stream();
      await store.append(s, [happened(1)], { expectedRevision: 'no_stream' });
      await store.append(s, [happened(2)], { expectedRevision: 0n });
      const error = await store.append(s, [happened(3)], { expectedRevision: 0n }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConcurrencyConflictError);
      expect(error).toMatchObject({ streamName: s, expected: 0n, actual: 1n });
      const ahead = await store.append(s, [happened(3)], { expectedRevision: 5n }).catch((e: unknown) => e);
      expect(ahead).toBeInstanceOf(ConcurrencyConflictError);
      expect((await store.readStream(s)).events).toHaveLength(2);
    });

    it('honours no_stream, stream_exists and any', async () => {
      const s = stream();
      await expect(store.append(s, [happened(1)], { expectedRevision: 'stream_exists' })).rejects.toMatchObject({ actual: 'no_stream' });
      await store.append(s, [happened(1)], { expectedRevision: 'any' });
      await expect(store.append(s, [happened(2)], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(ConcurrencyConflictError);
      await store.append(s, [happened(2)], { expectedRevision: 'stream_exists' });
      const last = await store.append(s, [happened(3), happened(4)], { expectedRevision: 'any' });
      expect(last.nextRevision).toBe(3n);
      expect((await store.readStream(s)).events.map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
    });

    it('reads a stream from a revision on, also when it falls inside an append', async () => {
      const s = stream();
      await store.append(s, [happened(0), happened(1), happened(2)], { expectedRevision: 'no_stream' });
      await store.append(s, [happened(3)], { expectedRevision: 2n });
      await store.append(s, [happened(4), happened(5)], { expectedRevision: 3n });
      const whole = (await store.readStream(s)).events;
      for (let from = 0; from <= 5; from++) {
        const read = await store.readStream(s, { fromRevision: BigInt(from) });
        expect(read.events.map((e) => [e.revision, e.eventId, (e.data as { n: number }).n])).toEqual(
          whole.slice(from).map((e) => [e.revision, e.eventId, (e.data as { n: number }).n]),
        );
        expect(read.revision).toBe(5n);
      }
      // A revision the stream does not reach (it is shorter, or absent): nothing.
      expect(await store.readStream(s, { fromRevision: 6n })).toEqual({ revision: 'no_stream', events: [] });
      expect(await store.readStream(stream(), { fromRevision: 3n })).toEqual({ revision: 'no_stream', events: [] });
    });

    it('treats appending the same event ids again as the same append (idempotent retry)', async () => {
      const s = stream();
      const events = [happened(1), happened(2)];
      const first = await store.append(s, events, { expectedRevision: 'no_stream' });
      const again = await store.append(s, events, { expectedRevision: 'no_stream' });
      expect(again.nextRevision).toBe(first.nextRevision);
      expect(comparePositions(again.position, first.position)).toBe(0);
      expect((await store.readStream(s)).events).toHaveLength(2);
    });

    it('refuses an event that does not match its schema, and stores nothing', async () => {
      const s = stream();
      await expect(
        store.append(s, [{ eventId: randomUUID(), type: 'TestHappened', data: { n: 'one' }, metadata: {} }], { expectedRevision: 'any' }),
      ).rejects.toThrow();
      await expect(store.append(s, [{ eventId: randomUUID(), type: 'NoSuchEvent', data: {}, metadata: {} }], { expectedRevision: 'any' })).rejects.toThrow();
      expect((await store.readStream(s)).revision).toBe('no_stream');
    });

    it('reads $all in order from a checkpoint, page by page, without gaps or repeats', async () => {
      const streams = [stream(), stream(), stream()];
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) {
        const event = happened(i);
        ids.push(event.eventId);
        await store.append(streams[i % 3] as string, [event], { expectedRevision: 'any' });
      }
      const seen = (await readAllPages(store, START, 7)).map((e) => e.eventId);
      const ours = seen.filter((id) => ids.includes(id));
      expect(ours).toEqual(ids);
      expect(new Set(seen).size).toBe(seen.length);
    });

    it('reads appends of several events page by page when pages end inside an append, and streams with their revisions', async () => {
      const streams = [stream(), stream()];
      const written: { id: string; stream: string; revision: bigint }[] = [];
      const revisions = new Map<string, bigint>();
      // Appends of 1 to 5 events on two streams, read back three events at a time.
      for (let i = 0; i < 12; i++) {
        const s = streams[i % 2] as string;
        const events = Array.from({ length: (i % 5) + 1 }, (_, k) => happened(i * 10 + k));
        const before = revisions.get(s);
        const result = await store.append(s, events, { expectedRevision: before ?? 'no_stream' });
        events.forEach((e, k) => {
          written.push({ id: e.eventId, stream: s, revision: (before === undefined ? 0n : before + 1n) + BigInt(k) });
        });
        revisions.set(s, result.nextRevision);
      }
      const seen = (await readAllPages(store, START, 3))
        .filter((event) => streams.includes(event.streamName))
        .map((event) => ({ id: event.eventId, stream: event.streamName, revision: event.revision }));
      expect(seen).toEqual(written);
      for (const s of streams) {
        const read = await store.readStream(s);
        expect(read.events.map((e) => [e.eventId, e.revision])).toEqual(written.filter((w) => w.stream === s).map((w) => [w.id, w.revision]));
        expect(read.revision).toBe(revisions.get(s));
      }
    });

    it('stores a long append (150 events) whole: read back in order, page by page, and a retry of it is the same append', async () => {
      const s = stream();
      const events = Array.from({ length: 150 }, (_, n) => happened(n));
      const result = await store.append(s, events, { expectedRevision: 'no_stream' });
      expect(result.nextRevision).toBe(149n);
      const read = await store.readStream(s);
      expect(read.events.map((e) => [e.eventId, e.revision])).toEqual(events.map((e, n) => [e.eventId, BigInt(n)]));
      expect(comparePositions(read.events[149]!.position, result.position)).toBe(0);
      const seen = (await readAllPages(store, read.events[0]!.position, 40)).filter((event) => event.streamName === s).map((event) => event.eventId);
      expect(seen).toEqual(events.slice(1).map((e) => e.eventId));
      const again = await store.append(s, events, { expectedRevision: 'no_stream' });
      expect(again.nextRevision).toBe(149n);
      expect(comparePositions(again.position, result.position)).toBe(0);
      expect((await store.readStream(s)).events).toHaveLength(150);
    });

    it('upcasts events stored with an older schema version when reading', async () => {
      const s = stream();
      const v1Store = await factory.create([...testEvents, renamedV1]);
      await v1Store.append(s, [{ eventId: randomUUID(), type: 'TestRenamed', data: { name: 'Ana Marija Novak' }, metadata: {} }], {
        expectedRevision: 'no_stream',
      });
      await v1Store.close();
      const [event] = (await store.readStream(s)).events;
      expect(event?.schemaVersion).toBe(1);
      expect(event?.data).toEqual({ firstName: 'Ana', lastName: 'Marija Novak' });
      // Other transactions on the server may hold the horizon back a moment: read until it has passed.
      let fromAll = await store.readAll(START, 100_000);
      for (let i = 0; i < 200 && !fromAll.events.some((e) => e.streamName === s); i++) {
        await new Promise((r) => setTimeout(r, 25));
        fromAll = await store.readAll(START, 100_000);
      }
      expect(fromAll.events.find((e) => e.streamName === s)?.data).toEqual({ firstName: 'Ana', lastName: 'Marija Novak' });
    });

    it('wakes listeners after an append', async () => {
      let calls = 0;
      const woke = new Promise<void>((resolve) => {
        const off = store.onAppended(() => {
          calls++;
          off();
          resolve();
        });
      });
      // The listener connection may open after the first append: keep appending until it fires.
      const s = stream();
      for (let i = 0; i < 50 && calls === 0; i++) {
        await store.append(s, [happened(i)], { expectedRevision: 'any' });
        await Promise.race([woke, new Promise((r) => setTimeout(r, 100))]);
      }
      expect(calls).toBeGreaterThan(0);
    });

    it('keeps 32 writers on 4 hot streams consistent: 20,000 events, none lost or repeated, revisions gapless', async () => {
      const streams = [stream(), stream(), stream(), stream()];
      const target = 20_000;
      let remaining = target;
      const written = new Map<string, string[]>(streams.map((s) => [s, []]));
      let conflicts = 0;
      const writer = async (w: number) => {
        const s = streams[w % 4] as string;
        let known: bigint | 'no_stream' = 'no_stream';
        while (remaining > 0) {
          const count = Math.min(remaining, 1 + (w % 3));
          remaining -= count;
          const events = Array.from({ length: count }, (_, i) => happened(w * 1_000_000 + i));
          for (;;) {
            try {
              const result = await store.append(s, events, { expectedRevision: known });
              known = result.nextRevision;
              written.get(s)?.push(...events.map((e) => e.eventId));
              break;
            } catch (error) {
              // Anything but the typed conflict fails the test.
              if (!(error instanceof ConcurrencyConflictError)) throw error;
              conflicts++;
              known = error.actual;
            }
          }
        }
      };
      await Promise.all(Array.from({ length: 32 }, (_, w) => writer(w)));
      expect(conflicts).toBeGreaterThan(0);
      let total = 0;
      for (const s of streams) {
        const read = await store.readStream(s);
        expect(read.events.map((e) => e.revision)).toEqual(read.events.map((_, i) => BigInt(i)));
        expect(new Set(read.events.map((e) => e.eventId))).toEqual(new Set(written.get(s)));
        expect(read.events).toHaveLength(written.get(s)?.length ?? -1);
        total += read.events.length;
      }
      expect(total).toBe(target);
      const ids = new Set(streams.flatMap((s) => written.get(s) ?? []));
      const inAll: string[] = [];
      let from = START;
      for (;;) {
        const page = await store.readAll(from, 5000);
        if (page.events.length === 0) {
          if (!page.hasMore) break;
          await new Promise((r) => setTimeout(r, 10));
          continue;
        }
        inAll.push(...page.events.filter((e) => ids.has(e.eventId)).map((e) => e.eventId));
        from = page.events.at(-1)!.position;
      }
      expect(inAll).toHaveLength(target);
      expect(new Set(inAll).size).toBe(target);
    });
  });
};
