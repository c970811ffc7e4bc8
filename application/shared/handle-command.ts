import type { Decider } from '../../domain/shared/decider.ts';
import type { AnyEvent } from '../../domain/shared/event.ts';
import {
  type AllPosition,
  ConcurrencyConflictError,
  type EventMetadata,
  type EventStore,
  newEventId,
} from '../../infrastructure/event-store/event-store.port.ts';
import { readState } from './stream-states.ts';

export type CommandResult<Event, State> = {
  /** The events this command appended; empty when the decision was "nothing to do". */
  readonly events: Event[];
  /** The state after the command. */
  readonly state: State;
  /** Position of the last appended event, for `X-Event-Position`; null when nothing was appended. */
  readonly position: AllPosition | null;
};

export type HandleCommandOptions<Command, Event, State> = {
  readonly streamName: string;
  readonly decider: Decider<Command, Event, State>;
  readonly command: Command;
  readonly metadata: EventMetadata;
  /** Attempts after a concurrency conflict before giving up. */
  readonly maxAttempts?: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Per store and stream, the promise the last queued command of this process resolves when done.
 * Commands of one process on one stream run one after another in arrival order (decision 0034): a
 * writer that just succeeded queues behind those already waiting instead of racing them, and no
 * two of them read the same revision, so in one process they never conflict with each other.
 */
const streamTails = new WeakMap<EventStore, Map<string, Promise<void>>>();

const inStreamOrder = async <T>(store: EventStore, streamName: string, work: () => Promise<T>): Promise<T> => {
  let tails = streamTails.get(store);
  if (!tails) {
    tails = new Map();
    streamTails.set(store, tails);
  }
  const previous = tails.get(streamName);
  let release = () => {};
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  tails.set(streamName, mine);
  try {
    if (previous) await previous;
    return await work();
  } finally {
    release();
    if (tails.get(streamName) === mine) tails.delete(streamName);
  }
};

/**
 * Pause before attempt `attempt + 1` after a conflict (only writers of other processes, or
 * appends that bypass handleCommand, can cause one): "full jitter" exponential backoff, a random
 * time up to 2^attempt ms, capped at 200 ms, so competing processes spread out instead of
 * retrying in lockstep.
 */
export const retryDelayMs = (attempt: number, random: () => number = Math.random): number => random() * Math.min(200, 2 ** attempt);

/**
 * The one way every slice changes state: read the stream (from the state this process kept for it),
 * fold it, decide, append with the revision that was read. Commands of this process on one stream take turns in arrival order; another
 * process's writer in between makes the append fail with a conflict, and then the whole cycle runs
 * again on the fresh stream (bounded, with jittered exponential backoff), so a decision is always
 * made on the state it is appended after.
 */
export const handleCommand = async <Command, Event extends AnyEvent, State>(
  store: EventStore,
  options: HandleCommandOptions<Command, Event, State>,
): Promise<CommandResult<Event, State>> => inStreamOrder(store, options.streamName, () => decideAndAppend(store, options));

const decideAndAppend = async <Command, Event extends AnyEvent, State>(
  store: EventStore,
  options: HandleCommandOptions<Command, Event, State>,
): Promise<CommandResult<Event, State>> => {
  const { streamName, decider, command, metadata } = options;
  // Conflicts come only from other processes (or direct appends): a few dozen of them on one hot stream still get their turn.
  const maxAttempts = options.maxAttempts ?? 16;
  for (let attempt = 1; ; attempt++) {
    // Read on from the state this process kept for the stream, if any (stream-states.ts).
    const read = await readState<Event, State>(store, streamName, decider);
    const state = read.state;
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, state, position: null };
    try {
      const result = await store.append(
        streamName,
        events.map((event) => ({ eventId: newEventId(), type: event.type, data: event.data, metadata })),
        { expectedRevision: read.revision },
      );
      return { events, state: events.reduce(decider.evolve, state), position: result.position };
    } catch (error) {
      if (!(error instanceof ConcurrencyConflictError) || attempt >= maxAttempts) throw error;
      await sleep(retryDelayMs(attempt));
    }
  }
};
