import type { Decider } from '../../domain/shared/decider.ts';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';

/**
 * What a stream folded to at a revision, kept by this process so that a command reads only the
 * events appended since (issue 37, decision 0069: a user's stream gains two events with every
 * session, and every command of theirs read it whole; an enrollment's gains one with every progress
 * report).
 *
 * Only states folded from events read back from the store are kept, never a state a command derived
 * from the events it is appending: those are read back by the next command, decoded as every reader
 * decodes them (upcast, personal fields revealed), so a kept state equals a fold from the start.
 * Reading on starts at the kept revision itself and checks that the event there is still the one
 * kept: another process's appends are the events after it, and a stream rewritten under the process
 * (a failover that lost acknowledged writes, a restored backup) is read from the start again. The
 * fold is kept per `evolve` function: deciders of one stream that share it share the entry.
 *
 * A kept state holds people's data as the protecting store revealed it. Erasing a person destroys
 * their key, after which a fold from the start reads the placeholder: every erasure (announced to
 * every process, decision 0019) forgets every kept state, also one whose read was under way when it
 * came, and no state is trusted longer than KEEP_MS after its read from the start began.
 */
const KEEP_MS = 60_000;
/**
 * Streams kept per store, the least recently used going first. A user's state is a few kilobytes, a
 * course's (its blocks' content) can be hundreds: 2,000 keeps the streams of people active right now
 * without letting the process's memory grow with the catalogue.
 */
const MAX_STREAMS = 2_000;
/** Shorter streams cost little to read whole, and one-off ones (a mail, an export) would push out those worth keeping. */
const MIN_EVENTS = 8;

/** `since`: when the read from the stream's start began; reading on from it does not renew it. */
type Kept = { readonly evolve: unknown; readonly revision: bigint; readonly eventId: string; readonly state: unknown; readonly since: number };

let byStore = new WeakMap<EventStore, Map<string, Kept>>();
/** Moves with every forgetting of all states: a read that began before it keeps nothing. */
let forgotten = 0;

/** The state kept for this stream and fold, if it is fresh enough to read on from. */
export const keptState = <State>(store: EventStore, streamName: string, evolve: unknown, now = Date.now()): (Kept & { readonly state: State }) | null => {
  const streams = byStore.get(store);
  const kept = streams?.get(streamName);
  if (!streams || !kept) return null;
  if (kept.evolve !== evolve || now - kept.since >= KEEP_MS) {
    streams.delete(streamName);
    return null;
  }
  // Used again: it moves to the back of the eviction order.
  streams.delete(streamName);
  streams.set(streamName, kept);
  return kept as Kept & { readonly state: State };
};

/** Keeps a state folded from the store's events up to `kept.revision`, unless every state was forgotten since `generation`. */
export const keepState = (store: EventStore, streamName: string, kept: Kept, generation: number) => {
  if (generation !== forgotten) return;
  let streams = byStore.get(store);
  if (!streams) {
    streams = new Map();
    byStore.set(store, streams);
  }
  const previous = streams.get(streamName);
  // A slower reader must not put back an older state than one kept meanwhile.
  if (previous && previous.evolve === kept.evolve && previous.revision > kept.revision && previous.since >= kept.since) return;
  streams.delete(streamName);
  streams.set(streamName, kept);
  if (streams.size > MAX_STREAMS) {
    const oldest = streams.keys().next();
    if (!oldest.done) streams.delete(oldest.value);
  }
};

/** How many times every state was forgotten: taken before a read, passed to `keepState` after it. */
export const forgetGeneration = () => forgotten;

/** Forgets every state kept in this process (someone was erased: a kept state may hold what is now unreadable). */
export const forgetAllStates = () => {
  byStore = new WeakMap();
  forgotten++;
};

/**
 * A stream's state now: read on from the kept state (or from the start), folded, and kept for the
 * next reader. `revision` is what an append after this decision expects.
 */
export const readState = async <Event, State>(
  store: EventStore,
  streamName: string,
  decider: Pick<Decider<never, Event, State>, 'initialState' | 'evolve'>,
): Promise<{ state: State; revision: bigint | 'no_stream' }> => {
  const generation = forgotten;
  const started = Date.now();
  const evolve = (s: State, e: { type: string; data: unknown }) => decider.evolve(s, { type: e.type, data: e.data } as Event);
  const kept = keptState<State>(store, streamName, decider.evolve, started);
  if (kept) {
    const read = await store.readStream(streamName, { fromRevision: kept.revision });
    const [first, ...after] = read.events;
    const last = read.events.at(-1);
    if (first && last && first.eventId === kept.eventId && first.revision === kept.revision) {
      const state = after.reduce(evolve, kept.state);
      keepState(store, streamName, { ...kept, revision: last.revision, eventId: last.eventId, state }, generation);
      return { state, revision: last.revision };
    }
  }
  const read = await store.readStream(streamName);
  const state = read.events.reduce(evolve, decider.initialState);
  const last = read.events.at(-1);
  if (last && read.events.length >= MIN_EVENTS) {
    keepState(store, streamName, { evolve: decider.evolve, revision: last.revision, eventId: last.eventId, state, since: started }, generation);
  }
  return { state, revision: read.revision };
};
