import { giveRequiredConsents } from '../../application/consents/consents.ts';
import { registerUser } from '../../application/users/register-user.ts';
import { loadConfig } from '../../infrastructure/config/config.ts';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { createLogger } from '../../infrastructure/main/logger.ts';
import { buildPlatform } from '../../infrastructure/main/platform.ts';
import { createBenchDb, type Figures, fmt, load, seconds } from './bench-support.ts';

/**
 * Issue 31 item 5 (decision 0049): one person floods the platform with personal-data PDFs from 24
 * connections while /api/health is asked one request at a time, beside /api/health asked the same
 * way on an idle server, in one run. The documents are drawn in the render pool's worker threads
 * with the shipped limits (two at once per person); the hourly budget is lifted so the flood lasts.
 */
export const benchFlood = async (adminUrl: string, out: (line: string) => void) => {
  const db = await createBenchDb(adminUrl, { poolSize: 20 });
  const config = loadConfig({
    DEMO_DATA: 'false',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    AUTH_ADDRESS_RATE_LIMIT_PER_MINUTE: '1000000',
    RENDERS_PER_HOUR: '100000',
    UI_DIST_DIR: '/nonexistent',
    PORT: '0',
  });
  const platform = await buildPlatform({ config, db, store: db.store, logger: createLogger('silent'), log: silentLog, jobs: null });
  await platform.runner.start();
  const { userId } = await registerUser(
    platform,
    { username: 'poplava', email: 'poplava@bench.si', firstName: 'Ana', lastName: 'Poplava', password: 'Geslo1234!' },
    [],
    {},
  );
  const { position } = await giveRequiredConsents({ store: platform.store, now: () => new Date() }, userId, 'import', {});
  if (position) await platform.runner.waitFor(['users', 'consents'], position, 30_000);
  await platform.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(platform.app.server.address() as { port: number }).port}`;
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ usernameOrEmail: 'poplava', password: 'Geslo1234!' }),
  });
  const { authToken } = (await login.json()) as { authToken: string };
  const duration = seconds();
  const health = () => load({ url: `${base}/api/health`, method: 'GET', seconds: duration, connections: 1 });
  const idle = await health();
  const [flood, during] = await Promise.all([
    load({ url: `${base}/api/users/me/personal-data.pdf`, method: 'GET', seconds: duration, connections: 24, headers: { authorization: `JWT ${authToken}` } }),
    health(),
  ]);
  const rows: [string, Figures][] = [
    ['GET /api/health, idle', idle],
    ['GET /api/health, during the flood', during],
    ['the flood: GET /api/users/me/personal-data.pdf, 24 connections, one person', flood],
  ];
  out('| requests | requests/s | p50 ms | p99 ms | non-2xx (429) | errors |');
  out('|---|---:|---:|---:|---:|---:|');
  for (const [name, f] of rows) out(`| ${name} | ${fmt(f.rps)} | ${fmt(f.p50, 1)} | ${fmt(f.p99, 1)} | ${f.non2xx} | ${f.errors} |`);
  out('');
  out(`/api/health p99 during the flood vs idle: ${fmt(during.p99, 1)} ms vs ${fmt(idle.p99, 1)} ms (${fmt(during.p99 / Math.max(idle.p99, 0.1), 1)}x)`);
  await platform.app.close();
  await platform.runner.stop();
  await db.drop();
  return Object.fromEntries(rows);
};
