import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresAttemptLimiter } from '../../infrastructure/auth/postgres-attempt-limiter.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

/** The guessing budget (issue 12) over time: a sliding minute, so no window's edge doubles it. */
describe('attempt limiter', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform();
  });
  afterAll(async () => p.close());

  const limiterAt = (clock: { ms: number }) => createPostgresAttemptLimiter(p.db.pg, () => new Date(clock.ms));
  const minute = 60_000;
  const base = Math.floor(Date.now() / minute) * minute + 10 * minute;

  it('refuses a fourth try just after the minute turns when three came just before it', async () => {
    const clock = { ms: base - 200 };
    const limiter = limiterAt(clock);
    const budget = [{ key: `edge|${base}`, limit: 3 }];
    for (let i = 0; i < 3; i++) expect((await limiter.hit(budget, 60)).allowed).toBe(true);
    clock.ms = base + 200;
    expect(await limiter.hit(budget, 60)).toMatchObject({ allowed: false });
  });

  it('lets tries back in as the earlier ones slide out of the last minute', async () => {
    const clock = { ms: base + 5 * minute + 1_000 };
    const limiter = limiterAt(clock);
    const budget = [{ key: `slide|${base}`, limit: 3 }];
    for (let i = 0; i < 3; i++) expect((await limiter.hit(budget, 60)).allowed).toBe(true);
    expect((await limiter.hit(budget, 60)).allowed).toBe(false);
    // 70 s later the earlier window weighs (1 - 11/60) of its 4 tries: 3.3 + 1 > 3, still refused; a
    // minute after that only that refused try weighs in (0.8 + 1).
    clock.ms += 70_000;
    expect((await limiter.hit(budget, 60)).allowed).toBe(false);
    clock.ms += 60_000;
    expect((await limiter.hit(budget, 60)).allowed).toBe(true);
  });
});
