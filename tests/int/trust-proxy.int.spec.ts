import { afterAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

/**
 * Behind a balancer every request comes from the balancer's address. The per-address sign-in limit
 * must count the clients the trusted balancer names (TRUST_PROXY), and a client talking to the
 * platform directly must not slip the limit by naming addresses of its own in X-Forwarded-For.
 */
describe('the client address behind a trusted balancer (decision 0068)', () => {
  const platforms: TestPlatform[] = [];
  afterAll(async () => {
    for (const p of platforms) await p.close();
  });

  /** Failed sign-ins of five different accounts, each naming another client address; the statuses answered. */
  const failedLogins = async (env: Record<string, string>) => {
    const p = await startTestPlatform({ AUTH_ADDRESS_RATE_LIMIT_PER_MINUTE: '3', ...env });
    platforms.push(p);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await p.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
        payload: { usernameOrEmail: `nihce${i}`, password: 'Napacno1234!' },
      });
      statuses.push(response.statusCode);
    }
    return statuses;
  };

  it('counts each named client apart when the balancer is trusted', async () => {
    expect((await failedLogins({ TRUST_PROXY: '127.0.0.1' })).filter((s) => s === 429)).toHaveLength(0);
  });

  it('ignores X-Forwarded-For from anyone else: one address, limited after three', async () => {
    expect((await failedLogins({})).filter((s) => s === 429).length).toBeGreaterThan(0);
  });
});
