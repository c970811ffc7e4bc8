import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleCommand } from '../../application/shared/handle-command.ts';
import type { Decider } from '../../domain/shared/decider.ts';
import { createEventCodec } from '../../infrastructure/event-store/event-codec.ts';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import { createPostgresEventStore } from '../../infrastructure/event-store/postgres/postgres-event-store.ts';
import { createTestDatabase } from '../support/test-database.ts';
import { testEvents } from '../support/test-events.ts';

type Counted = { type: 'TestHappened'; data: { n: number } };
/** A counter: each command appends the next number, decided on the state it read (a lost update would repeat one). */
const counter: Decider<{ writer: number }, Counted, number> = {
  initialState: 0,
  evolve: (count) => count + 1,
  decide: (_command, count) => [{ type: 'TestHappened', data: { n: count } }],
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

type Outcome = { waits: number[][]; givenUp: number; streams: string[] };

/** `writers` writers over `streams` hot streams, `commands` commands each, through handleCommand on the stores given (one per "process"). */
const contend = async (stores: EventStore[], writers: number, streamCount: number, commands: number): Promise<Outcome> => {
  const streams = Array.from({ length: streamCount }, () => `fair-${randomUUID()}`);
  const waits: number[][] = Array.from({ length: writers }, () => []);
  let givenUp = 0;
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      const store = stores[w % stores.length] as EventStore;
      const streamName = streams[w % streamCount] as string;
      for (let i = 0; i < commands; i++) {
        const started = performance.now();
        try {
          await handleCommand(store, { streamName, decider: counter, command: { writer: w }, metadata: { actorId: w } });
          waits[w]?.push(performance.now() - started);
        } catch {
          givenUp++;
        }
      }
    }),
  );
  return { waits, givenUp, streams };
};

describe('fair command retries (issue 19 item 3, decision 0034)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  const stores: EventStore[] = [];
  const newStore = () => {
    const store = createPostgresEventStore({ pool: db.pg, connect: db.connect, codec: createEventCodec([...testEvents]) });
    stores.push(store);
    return store;
  };

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 40 });
  });

  afterAll(async () => {
    for (const store of stores) await store.close();
    await db.drop();
  });

  const expectEveryCommandOnce = async (store: EventStore, outcome: Outcome, writers: number, commands: number) => {
    for (const s of outcome.streams) {
      const read = await store.readStream(s);
      const perStream = (writers / outcome.streams.length) * commands;
      // Every command decided on the state it was appended after: 0, 1, 2, ... with no number twice.
      expect(read.events.map((e) => (e.data as { n: number }).n)).toEqual(Array.from({ length: perStream }, (_, i) => i));
    }
  };

  it('32 writers x 4 streams in one process: every command succeeds and no writer waits more than 10x the median', async () => {
    const store = newStore();
    const outcome = await contend([store], 32, 4, 25);
    expect(outcome.givenUp).toBe(0);
    const all = outcome.waits.flat();
    expect(all).toHaveLength(32 * 25);
    const typical = median(all);
    const worstPerWriter = outcome.waits.map((w) => Math.max(...w));
    // Every writer finished all its commands, and its longest single wait is within 10x the median wait.
    expect(Math.max(...worstPerWriter)).toBeLessThanOrEqual(10 * typical);
    await expectEveryCommandOnce(store, outcome, 32, 25);
  });

  it('32 writers x 4 streams split over two processes (real conflicts, jittered backoff): every command succeeds, none lost', async () => {
    // Two stores over one database behave as two API processes: their commands on a stream do conflict.
    const a = newStore();
    const b = newStore();
    const outcome = await contend([a, b], 32, 4, 15);
    expect(outcome.givenUp).toBe(0);
    await expectEveryCommandOnce(a, outcome, 32, 15);
  });
});
