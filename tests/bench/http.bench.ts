import Fastify from 'fastify';
import { giveRequiredConsents } from '../../application/consents/consents.ts';
import { registerUser } from '../../application/users/register-user.ts';
import { loadConfig } from '../../infrastructure/config/config.ts';
import type { AllPosition } from '../../infrastructure/event-store/event-store.port.ts';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { createLogger } from '../../infrastructure/main/logger.ts';
import { buildPlatform } from '../../infrastructure/main/platform.ts';
import { createBenchDb, type Figures, fmt, load, seconds } from './bench-support.ts';

/** Login and /users/me through the whole platform, beside a bare Fastify route, measured from another process. */
export const benchHttp = async (adminUrl: string, out: (line: string) => void) => {
  const db = await createBenchDb(adminUrl, { poolSize: 20 });
  const config = loadConfig({
    DEMO_DATA: 'false',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    AUTH_ADDRESS_RATE_LIMIT_PER_MINUTE: '1000000',
    UI_DIST_DIR: '/nonexistent',
    PORT: '0',
  });
  const platform = await buildPlatform({ config, db, store: db.store, logger: createLogger('silent'), log: silentLog, jobs: null });
  await platform.runner.start();
  const names = Array.from({ length: 50 }, (_, i) => `bench${i}`);
  let last: AllPosition | null = null;
  for (const name of names) {
    const { userId } = await registerUser(
      platform,
      { username: name, email: `${name}@bench.si`, firstName: 'B', lastName: name, password: 'Geslo1234!' },
      [],
      {},
    );
    // Every user of the platform holds the required consents (issue 6).
    last = (await giveRequiredConsents({ store: platform.store, now: () => new Date() }, userId, 'import', {})).position;
  }
  await platform.runner.waitFor(['users', 'consents'], last as AllPosition, 30_000);
  await platform.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (platform.app.server.address() as { port: number }).port;
  const bare = Fastify();
  bare.get('/bare', async () => ({ ok: true }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const barePort = (bare.server.address() as { port: number }).port;

  const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ usernameOrEmail: 'bench0', password: 'Geslo1234!' }),
  });
  const { authToken } = (await login.json()) as { authToken: string };
  const duration = seconds();
  const rows: [string, Figures][] = [
    ['bare Fastify GET /bare', await load({ url: `http://127.0.0.1:${barePort}/bare`, method: 'GET', seconds: duration, connections: 16 })],
    [
      'GET /api/users/me',
      await load({
        url: `http://127.0.0.1:${port}/api/users/me`,
        method: 'GET',
        seconds: duration,
        connections: 16,
        headers: { authorization: `JWT ${authToken}` },
      }),
    ],
    [
      'POST /api/auth/login (argon2id)',
      await load({
        url: `http://127.0.0.1:${port}/api/auth/login`,
        method: 'POST',
        seconds: duration,
        connections: 16,
        bodies: names.map((name) => JSON.stringify({ usernameOrEmail: name, password: 'Geslo1234!' })),
      }),
    ],
  ];
  out('| route | requests/s | p50 ms | p99 ms | non-2xx | errors |');
  out('|---|---:|---:|---:|---:|---:|');
  for (const [name, f] of rows) out(`| ${name} | ${fmt(f.rps)} | ${fmt(f.p50, 1)} | ${fmt(f.p99, 1)} | ${f.non2xx} | ${f.errors} |`);
  await bare.close();
  await platform.app.close();
  await platform.runner.stop();
  await db.drop();
  return Object.fromEntries(rows);
};
