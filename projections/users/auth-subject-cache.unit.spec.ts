import { describe, expect, it } from 'vitest';
import { createAuthSubjectCache } from './auth-subject-cache.ts';
import type { AuthSubject } from './users.queries.ts';

const subjectOf = (userId: number, roleId = 7): AuthSubject => ({
  subject: { userId, roles: [{ roleId, unitId: 1, companyId: 1 }] } as AuthSubject['subject'],
  missingConsents: [],
  consentStream: { length: 4, headHash: 'h' },
});

const setup = (maxEntries?: number) => {
  const state = { stamp: '1:1' as string | null, reads: 0, roleId: 7, active: true };
  const cache = createAuthSubjectCache({
    stamp: () => state.stamp,
    load: async (userId) => {
      state.reads++;
      return state.active ? subjectOf(userId, state.roleId) : null;
    },
    maxEntries,
  });
  return { state, cache };
};

describe('auth subject cache', () => {
  it('reads a session once while the read models stay as they were', async () => {
    const { state, cache } = setup();
    await cache(1, 's1');
    expect(await cache(1, 's1')).toEqual(subjectOf(1));
    expect(state.reads).toBe(1);
    await cache(1, 's2');
    expect(state.reads).toBe(2);
  });

  it('reads again once anything was applied to them: a role taken away counts at once', async () => {
    const { state, cache } = setup();
    await cache(1, 's1');
    state.roleId = 3;
    state.stamp = '2:1';
    expect((await cache(1, 's1'))?.subject.roles[0]?.roleId).toBe(3);
    expect(state.reads).toBe(2);
  });

  it('keeps nothing when this process does not run the read models, nor an ended session', async () => {
    const { state, cache } = setup();
    state.stamp = null;
    await cache(1, 's1');
    await cache(1, 's1');
    expect(state.reads).toBe(2);
    state.stamp = '3:3';
    state.active = false;
    expect(await cache(1, 's1')).toBeNull();
    expect(await cache(1, 's1')).toBeNull();
    expect(state.reads).toBe(4);
  });

  it('stamps an entry with the state before its read, so a change during the read is not hidden', async () => {
    let stamp = '1:1';
    let reads = 0;
    const cache = createAuthSubjectCache({
      stamp: () => stamp,
      load: async (userId) => {
        reads++;
        stamp = '2:1'; // applied while the query ran
        return subjectOf(userId);
      },
    });
    await cache(1, 's1');
    await cache(1, 's1');
    expect(reads).toBe(2);
  });

  it('holds at most maxEntries sessions, dropping the one used longest ago', async () => {
    const { state, cache } = setup(2);
    await cache(1, 'a');
    await cache(2, 'b');
    await cache(1, 'a'); // a is now the most recent
    await cache(3, 'c'); // drops b
    const before = state.reads;
    await cache(1, 'a');
    await cache(3, 'c');
    expect(state.reads).toBe(before);
    await cache(2, 'b');
    expect(state.reads).toBe(before + 1);
  });
});
