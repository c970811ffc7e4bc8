import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAesSecretSealer } from '../../infrastructure/auth/aes-secret-sealer.ts';
import { createNotificationListener } from '../../infrastructure/event-store/postgres/notification-listener.ts';
import { createPostgresPersonalKeys, PERSONAL_KEY_ERASED_CHANNEL } from '../../infrastructure/personal-data/postgres-personal-keys.ts';
import { createTestDatabase } from '../support/test-database.ts';

/** The per-person keys of decision 0019: one key per person however many writers ask at once, and gone for good once erased. */
describe('personal data keys', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  const sealer = createAesSecretSealer('tajna-za-kljuce-osebnih-podatkov');

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 24 });
  });
  afterAll(async () => db.drop());

  it('gives 20 writers asking at once for a new person’s key (each with its own cache, as separate processes would) one and the same key', async () => {
    for (const userId of [101, 102, 103, 104, 105]) {
      const keys = await Promise.all(Array.from({ length: 20 }, () => createPostgresPersonalKeys(db.pg, sealer).keyFor(userId)));
      expect(keys[0]).toBeInstanceOf(Buffer);
      expect(keys.every((key) => key?.equals(keys[0] as Buffer))).toBe(true);
    }
    const rows = await db.pg.query('select count(*)::int as n from public.personal_keys');
    expect(rows.rows[0]).toEqual({ n: 5 });
  });

  it('forgets an erased person’s key for good: no new key is ever made for them, in this process or another', async () => {
    const here = createPostgresPersonalKeys(db.pg, sealer);
    expect(await here.keyFor(201)).not.toBeNull();
    await here.erase(201);
    expect(await here.keyFor(201)).toBeNull();
    const elsewhere = createPostgresPersonalKeys(db.pg, sealer);
    expect(await elsewhere.keyFor(201)).toBeNull();
    expect((await elsewhere.existingKeys([201])).get(201)).toBeNull();
    const stored = await db.pg.query('select wrapped, erased_at is not null as erased from public.personal_keys where user_id = 201');
    expect(stored.rows).toEqual([{ wrapped: null, erased: true }]);
  });

  it('evicts a key another process erased from every process’s cache at once, not after the cache’s minute (NOTIFY)', async () => {
    // The clock stands still: a cached key would stay fresh for ever, so only the notification can evict it.
    const frozen = () => 0;
    const listeners: ReturnType<typeof createNotificationListener>[] = [];
    const openProcess = () => {
      const erasures = createNotificationListener({ connect: db.connect, channel: PERSONAL_KEY_ERASED_CHANNEL });
      listeners.push(erasures);
      return createPostgresPersonalKeys(db.pg, sealer, frozen, { erasures });
    };
    const here = openProcess();
    const elsewhere = openProcess();
    const unaware = createPostgresPersonalKeys(db.pg, sealer, frozen);
    try {
      const key = await elsewhere.keyFor(301);
      expect(key).toBeInstanceOf(Buffer);
      expect((await unaware.existingKeys([301])).get(301)).toEqual(key);
      // Let both listeners connect (a connect also empties the cache, which proves nothing here).
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await elsewhere.existingKeys([301])).get(301)).toEqual(key);
      await here.erase(301);
      const started = Date.now();
      let seen: Buffer | null | undefined = key;
      while (seen && Date.now() - started < 3000) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        seen = (await elsewhere.existingKeys([301])).get(301);
      }
      expect(seen).toBeNull();
      // A cache that hears nothing keeps the key until its minute is over (here: for ever): what NOTIFY fixes.
      expect((await unaware.existingKeys([301])).get(301)).toEqual(key);
    } finally {
      await Promise.all(listeners.map((l) => l.close()));
    }
  });
  it('does not cache a key read under way when its erasure is announced', async () => {
    const frozen = () => 0;
    const erasures = createNotificationListener({ connect: db.connect, channel: PERSONAL_KEY_ERASED_CHANNEL });
    // This process's key read is answered by the database at once, but reaches the process only when let go.
    let letGo = () => {};
    const held = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    let holding = false;
    const slowPool = {
      query: async (...args: Parameters<typeof db.pg.query>) => {
        const result = await (db.pg.query as (...a: unknown[]) => Promise<unknown>)(...args);
        if (holding) await held;
        return result;
      },
    } as unknown as typeof db.pg;
    const here = createPostgresPersonalKeys(slowPool, sealer, frozen, { erasures });
    try {
      const key = await createPostgresPersonalKeys(db.pg, sealer).keyFor(401);
      // Let the listener connect (a connect also empties the cache, which proves nothing here).
      expect(await here.keyFor(999)).not.toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 300));
      holding = true;
      const reading = here.existingKeys([401]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await createPostgresPersonalKeys(db.pg, sealer).erase(401);
      // The announcement arrives while the read is still held.
      await new Promise((resolve) => setTimeout(resolve, 300));
      letGo();
      holding = false;
      expect((await reading).get(401)).toEqual(key);
      // The key it read is gone: the next read asks the database instead of a cache.
      expect((await here.existingKeys([401])).get(401)).toBeNull();
      expect(await here.keyFor(401)).toBeNull();
    } finally {
      letGo();
      await erasures.close();
    }
  });
});
