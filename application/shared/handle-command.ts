import type { Decider } from '../../domain/shared/decider.ts';
import type { AnyEvent } from '../../domain/shared/event.ts';
import {
  type AllPosition,
  ConcurrencyConflictError,
  type EventMetadata,
  type EventStore,
  newEventId,
} from '../../infrastructure/event-store/event-store.port.ts';

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
 * The one way every slice changes state: read the stream, fold it, decide, append with the revision
 * that was read. Another writer in between makes the append fail with a conflict; then the whole
 * cycle runs again on the fresh stream (bounded, with jittered exponential backoff), so a decision
 * is always made on the state it is appended after.
 */
export const handleCommand = async <Command, Event extends AnyEvent, State>(
  store: EventStore,
  options: HandleCommandOptions<Command, Event, State>,
): Promise<CommandResult<Event, State>> => {
  const { streamName, decider, command, metadata } = options;
  // Enough for a few dozen writers on one stream (a burst of role grants or consents) to each get their turn.
  const maxAttempts = options.maxAttempts ?? 16;
  for (let attempt = 1; ; attempt++) {
    const read = await store.readStream(streamName);
    const state = read.events.reduce((s, e) => decider.evolve(s, { type: e.type, data: e.data } as Event), decider.initialState);
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
      await sleep(Math.random() * Math.min(400, 2 ** attempt));
    }
  }
};
