import { describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { startTestPlatform } from '../support/test-platform.ts';

describe('live stream (GET /api/live)', () => {
  it('does not keep the server from shutting down while a page listens', async () => {
    const p = await startTestPlatform();
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    const { token } = await p.login('skrbnik');
    await p.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (p.app.server.address() as { port: number }).port;
    const response = await fetch(`http://127.0.0.1:${port}/api/live`, { headers: { authorization: `JWT ${token}` } });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('retry:');
    expect((await fetch(`http://127.0.0.1:${port}/api/live`)).status).toBe(401);
    const started = Date.now();
    const closed = await Promise.race([p.close().then(() => 'closed'), new Promise((r) => setTimeout(() => r('still open'), 8_000))]);
    expect(closed).toBe('closed');
    expect(Date.now() - started).toBeLessThan(8_000);
    // The page sees its stream end (and would reconnect to another process), after what was already sent (ready).
    let done = false;
    for (let reads = 0; reads < 10 && !done; reads++) done = (await reader.read()).done;
    expect(done).toBe(true);
  });
});
