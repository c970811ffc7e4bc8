import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleCommand } from '../../application/shared/handle-command.ts';
import { loadUser } from '../../application/users/user-state.ts';
import { fold } from '../../domain/shared/decider.ts';
import { ERASED_PERSON } from '../../domain/shared/event.ts';
import { userDecider } from '../../domain/users/user.decide.ts';
import { type ActiveUser, type UserEvent, userStream } from '../../domain/users/user.ts';
import type { EventStore, StreamReadOptions } from '../../infrastructure/event-store/event-store.port.ts';
import { createPostgresPersonalKeys } from '../../infrastructure/personal-data/postgres-personal-keys.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

/**
 * Issue 37: a command reads on from the stream state its process kept (application/shared/stream-states.ts)
 * instead of the whole stream, and still decides on exactly what a fold from the start would give:
 * other writers' events included, and an erased person's data unreadable as soon as the erasure is announced.
 */
describe('commands read on from the stream state their process kept', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform();
  }, 60_000);
  afterAll(async () => p?.close());

  /** The platform's store as one more process would hold it (its own kept states), counting the events each read returns. */
  const processStore = () => {
    const reads: { events: number; from: bigint | undefined }[] = [];
    const store: EventStore = {
      ...p.store,
      readStream: async (name: string, options?: StreamReadOptions) => {
        const read = await p.store.readStream(name, options);
        reads.push({ events: read.events.length, from: options?.fromRevision });
        return read;
      },
    };
    return { store, reads };
  };
  const foldFromStart = (read: { events: readonly { type: string; data: unknown }[] }) =>
    fold(
      userDecider,
      read.events.map((e) => ({ type: e.type, data: e.data }) as UserEvent),
    );
  const logIn = async (store: EventStore, userId: number, sessionId = randomUUID()) => {
    const user = (await loadUser(p.store, userId)) as ActiveUser;
    return handleCommand(store, {
      streamName: userStream(userId),
      decider: userDecider,
      command: { type: 'LogIn', sessionId, verifiedPasswordHash: user.passwordHash as string },
      metadata: { actorId: userId },
    });
  };
  const logOut = (store: EventStore, userId: number) =>
    handleCommand(store, {
      streamName: userStream(userId),
      decider: userDecider,
      command: { type: 'LogOut', sessionId: randomUUID() },
      metadata: { actorId: userId },
    });

  it('a long stream costs a command only what was appended since, and the state equals a fold from the start', async () => {
    const userId = await p.createUser('dolga');
    const { store, reads } = processStore();
    for (let i = 0; i < 120; i++) await (i % 2 === 0 ? logIn(store, userId) : logOut(store, userId));
    // A short stream is read whole; once kept, every command reads the event it was kept at (to check
    // it is still there) and the one its predecessor appended.
    expect(reads[0]?.from).toBeUndefined();
    expect(reads.slice(10).map((r) => [r.from !== undefined, r.events])).toEqual(Array.from({ length: 110 }, () => [true, 2]));
    const last = await logOut(store, userId);
    expect(last.state).toEqual(foldFromStart(await p.store.readStream(userStream(userId))));
    expect((last.state as ActiveUser).openSessions).toHaveLength(60);
  });

  it('reads a stream rewritten under it from the start again (a failover that lost acknowledged writes)', async () => {
    const userId = await p.createUser('prepisana');
    const { store, reads } = processStore();
    for (let i = 0; i < 10; i++) await logIn(store, userId);
    const lostSession = randomUUID();
    const lost = await logIn(store, userId, lostSession);
    await logOut(store, userId);
    // The last two appends never reached the database that now serves: the stream ends before them,
    // and another process writes a different history at the same revisions.
    const stream = userStream(userId);
    const head = Number((lost.position as { prepare: bigint }).prepare);
    await p.db.pg.query('delete from es.appends where stream_name = $1 and global_position >= $2', [stream, head]);
    await p.db.pg.query(
      'update es.streams set revision = (select max(first_revision + cardinality(event_ids) - 1) from es.appends where stream_name = $1) where stream_name = $1',
      [stream],
    );
    const other = processStore();
    const survivor = randomUUID();
    await logIn(other.store, userId, survivor);
    await logIn(other.store, userId);
    reads.length = 0;
    const after = await logOut(store, userId);
    expect(reads.map((r) => r.from === undefined)).toEqual([false, true]);
    expect(after.state).toEqual(foldFromStart(await p.store.readStream(stream)));
    expect((after.state as ActiveUser).openSessions).toContain(survivor);
    expect((after.state as ActiveUser).openSessions).not.toContain(lostSession);
  });

  it('decides on the sessions another process opened meanwhile, also when both write at once', async () => {
    const userId = await p.createUser('dvojna');
    const here = processStore();
    const there = processStore();
    const kept = randomUUID();
    await logIn(here.store, userId, kept);
    // Forty sessions from each process at the same time: appends conflict and are decided again.
    const opened = await Promise.all(Array.from({ length: 80 }, (_, i) => logIn(i % 2 === 0 ? here.store : there.store, userId)));
    expect(new Set(opened.map((o) => o.position?.prepare)).size).toBe(80);
    const user = (await loadUser(p.store, userId)) as ActiveUser;
    const changed = await handleCommand(here.store, {
      streamName: userStream(userId),
      decider: userDecider,
      command: { type: 'ChangePassword', passwordHash: 'nov-hash', keepSessionId: kept, verifiedPasswordHash: user.passwordHash as string },
      metadata: { actorId: userId },
    });
    // Every other session ends, those the other process opened included.
    const ended = changed.events.filter((e) => e.type === 'UserLoggedOut').map((e) => (e.data as { sessionId: string }).sessionId);
    expect(ended.sort()).toEqual(user.openSessions.filter((s) => s !== kept).sort());
    expect(ended).toHaveLength(80);
  });

  it('forgets the kept states once another process erases someone: the next command reads their data as erased', async () => {
    const userId = await p.createUser('pozabljena');
    const { store } = processStore();
    for (let i = 0; i < 8; i++) await logOut(store, userId);
    expect(((await logOut(store, userId)).state as ActiveUser).email).toBe('pozabljena@test.si');
    // Another process destroys the key (as an erasure does last) and announces it; this one only hears of it.
    const elsewhere = createPostgresPersonalKeys(p.db.pg, { seal: () => '', unseal: () => null });
    await elsewhere.erase(userId);
    const deadline = Date.now() + 5_000;
    let email = '';
    while (Date.now() < deadline) {
      email = ((await logOut(store, userId)).state as ActiveUser).email;
      if (email === ERASED_PERSON) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(email).toBe(ERASED_PERSON);
  });
});
