import { describe, expect, it } from 'vitest';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import { forgetAllStates, forgetGeneration, keepState, keptState } from './stream-states.ts';

const store = () => ({}) as EventStore;
const evolve = () => undefined;
const otherEvolve = () => undefined;
const kept = (revision: bigint, state: unknown, since = 1_000) => ({ evolve, revision, eventId: `e${revision}`, state, since });

describe('stream states kept by a process', () => {
  it('answers the kept fold for the same stream and fold only, until a minute after its read from the start began', () => {
    const s = store();
    keepState(s, 'user-1', kept(4n, { n: 4 }), forgetGeneration());
    expect(keptState(s, 'user-1', evolve, 2_000)).toMatchObject({ revision: 4n, eventId: 'e4', state: { n: 4 }, since: 1_000 });
    expect(keptState(s, 'user-2', evolve, 2_000)).toBeNull();
    expect(keptState(store(), 'user-1', evolve, 2_000)).toBeNull();
    // Another decider's fold of the same stream is not this one's.
    expect(keptState(s, 'user-1', otherEvolve, 2_000)).toBeNull();
    keepState(s, 'user-1', kept(6n, { n: 6 }), forgetGeneration());
    // Reading on does not renew it: a minute after the read from the start, the stream is read whole again.
    expect(keptState(s, 'user-1', evolve, 60_999)).toMatchObject({ revision: 6n });
    expect(keptState(s, 'user-1', evolve, 61_000)).toBeNull();
    expect(keptState(s, 'user-1', evolve, 2_000)).toBeNull();
  });

  it('never puts back an older state than one kept meanwhile', () => {
    const s = store();
    keepState(s, 'course-1', kept(9n, { n: 9 }), forgetGeneration());
    keepState(s, 'course-1', kept(7n, { n: 7 }), forgetGeneration());
    expect(keptState(s, 'course-1', evolve, 1_500)).toMatchObject({ revision: 9n });
  });

  it('forgets every state at an erasure, and keeps nothing read before it', () => {
    const s = store();
    keepState(s, 'user-1', kept(3n, { n: 3 }), forgetGeneration());
    const readBegan = forgetGeneration();
    forgetAllStates();
    expect(keptState(s, 'user-1', evolve, 1_500)).toBeNull();
    // A read under way when the erasure came would put back what may now be unreadable: it keeps nothing.
    keepState(s, 'user-2', kept(3n, { n: 3 }), readBegan);
    expect(keptState(s, 'user-2', evolve, 1_500)).toBeNull();
    keepState(s, 'user-2', kept(3n, { n: 3 }), forgetGeneration());
    expect(keptState(s, 'user-2', evolve, 1_500)).not.toBeNull();
  });

  it('keeps at most two thousand streams, dropping the least recently used', () => {
    const s = store();
    for (let i = 0; i < 2_000; i++) keepState(s, `user-${i}`, kept(1n, i), forgetGeneration());
    // user-0 is used again: user-1 is now the least recently used.
    expect(keptState(s, 'user-0', evolve, 1_000)).not.toBeNull();
    keepState(s, 'user-2000', kept(1n, 2_000), forgetGeneration());
    expect(keptState(s, 'user-1', evolve, 1_000)).toBeNull();
    expect(keptState(s, 'user-0', evolve, 1_000)).not.toBeNull();
    expect(keptState(s, 'user-2000', evolve, 1_000)).not.toBeNull();
  });
});
