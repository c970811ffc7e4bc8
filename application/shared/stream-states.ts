import type { Decider } from '../../domain/shared/decider.ts';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';

/**
 * What a stream folded to at a revision, kept by this process so that a command reads only the
 * events appended since (issue 37: a user's stream gains two events with every session, and every
 * command of theirs read it whole; an enrollment's gains one with every progress report).
 *
 * Only states folded from events read back from the store are kept, never a state a command derived
 * from the events it is appending: those are read back by the next command, decoded as every reader
 * decodes them (upcast, personal fields revealed), so a kept state equals a fold from the start.
 * Another process's appends are simply the events after the kept revision. The fold is kept per
 * `evolve` function: deciders of one stream that share it share the entry.
 *
 * A kept state holds people's data as the protecting store revealed it. Erasing a person destroys
 * their key, after which a fold from the start reads the placeholder: every erasure (announced to
 * every process, decision 0019) forgets every kept state, and no state is trusted longer than
 * KEEP_MS, the same bound as the keys' own cache if an announcement is lost.
 */
const KEEP_MS = 60_000;
/**
 * Streams kept per store, the least recently used going first. A user's state is a few kilobytes, a
 * course's (its blocks' content) can be hundreds: 2,000 keeps the streams of people active right now
 * without letting the process's memory grow with the catalogue.
 */
const MAX_STREAMS = 2_000;

/** `since`: when the fold was last read from the stream's start; reading on from it does not renew it. */
type Kept = { readonly evolve: unknown; readonly revision: bigint; readonly state: unknown; readonly since: number };

let byStore = new WeakMap<EventStore, Map<string, Kept>>();

/** The state kept for this stream and fold, if it is fresh enough to read on from. */
export const keptState = <State>(
  store: EventStore,
  streamName: string,
  evolve: unknown,
  now = Date.now(),
): { revision: bigint; state: State; since: number } | null => {
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
  return { revision: kept.revision, state: kept.state as State, since: kept.since };
};

/** Keeps a state folded from the store's events up to `revision`, first read from the start at `since`. */
export const keepState = (store: EventStore, streamName: string, evolve: unknown, revision: bigint, state: unknown, since: number) => {
  let streams = byStore.get(store);
  if (!streams) {
    streams = new Map();
    byStore.set(store, streams);
  }
  const previous = streams.get(streamName);
  // A slower command of another fold must not put back an older state than one kept meanwhile.
  if (previous && previous.evolve === evolve && previous.revision > revision && previous.since >= since) return;
  streams.delete(streamName);
  streams.set(streamName, { evolve, revision, state, since });
  if (streams.size > MAX_STREAMS) {
    const oldest = streams.keys().next();
    if (!oldest.done) streams.delete(oldest.value);
  }
};

/** Forgets the state kept for one stream (an append conflicted: the stream may not be what was kept). */
export const forgetState = (store: EventStore, streamName: string) => {
  byStore.get(store)?.delete(streamName);
};

/** Forgets every state kept in this process (someone was erased: a kept state may hold what is now unreadable). */
export const forgetAllStates = () => {
  byStore = new WeakMap();
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
  const kept = keptState<State>(store, streamName, decider.evolve);
  const read = await store.readStream(streamName, kept ? { afterRevision: kept.revision } : undefined);
  const state = read.events.reduce((s, e) => decider.evolve(s, { type: e.type, data: e.data } as Event), kept ? kept.state : decider.initialState);
  if (read.revision !== 'no_stream') keepState(store, streamName, decider.evolve, read.revision, state, kept ? kept.since : Date.now());
  return { state, revision: read.revision };
};
