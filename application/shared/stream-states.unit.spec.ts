import { describe, expect, it } from 'vitest';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import { forgetAllStates, forgetState, keepState, keptState } from './stream-states.ts';

const store = () => ({}) as EventStore;
const evolve = () => undefined;
const otherEvolve = () => undefined;

describe('stream states kept by a process', () => {
  it('answers the kept fold for the same stream and fold only, until a minute after its read from the start', () => {
    const s = store();
    keepState(s, 'user-1', evolve, 4n, { n: 4 }, 1_000);
    expect(keptState(s, 'user-1', evolve, 2_000)).toEqual({ revision: 4n, state: { n: 4 }, since: 1_000 });
    expect(keptState(s, 'user-2', evolve, 2_000)).toBeNull();
    expect(keptState(store(), 'user-1', evolve, 2_000)).toBeNull();
    // Another decider's fold of the same stream is not this one's.
    expect(keptState(s, 'user-1', otherEvolve, 2_000)).toBeNull();
    keepState(s, 'user-1', evolve, 6n, { n: 6 }, 1_000);
    // Reading on does not renew it: a minute after the read from the start, the stream is read whole again.
    expect(keptState(s, 'user-1', evolve, 60_999)).toMatchObject({ revision: 6n });
    expect(keptState(s, 'user-1', evolve, 61_000)).toBeNull();
    expect(keptState(s, 'user-1', evolve, 2_000)).toBeNull();
  });

  it('never puts back an older state than one kept meanwhile, and forgets on demand', () => {
    const s = store();
    keepState(s, 'course-1', evolve, 9n, { n: 9 }, 1_000);
    keepState(s, 'course-1', evolve, 7n, { n: 7 }, 1_000);
    expect(keptState(s, 'course-1', evolve, 1_500)).toMatchObject({ revision: 9n });
    forgetState(s, 'course-1');
    expect(keptState(s, 'course-1', evolve, 1_500)).toBeNull();
    keepState(s, 'course-1', evolve, 3n, { n: 3 }, 1_000);
    keepState(s, 'course-2', evolve, 3n, { n: 3 }, 1_000);
    forgetAllStates();
    expect(keptState(s, 'course-1', evolve, 1_500)).toBeNull();
    expect(keptState(s, 'course-2', evolve, 1_500)).toBeNull();
  });

  it('keeps at most two thousand streams, dropping the least recently used', () => {
    const s = store();
    for (let i = 0; i < 2_000; i++) keepState(s, `user-${i}`, evolve, 1n, i, 1_000);
    // user-0 is used again: user-1 is now the least recently used.
    expect(keptState(s, 'user-0', evolve, 1_000)).not.toBeNull();
    keepState(s, 'user-2000', evolve, 1n, 2_000, 1_000);
    expect(keptState(s, 'user-1', evolve, 1_000)).toBeNull();
    expect(keptState(s, 'user-0', evolve, 1_000)).not.toBeNull();
    expect(keptState(s, 'user-2000', evolve, 1_000)).not.toBeNull();
  });
});
