import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { giveRequiredConsents } from '../../application/consents/consents.ts';
import { registerUser } from '../../application/users/register-user.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { loadConfig } from '../../infrastructure/config/config.ts';
import type { AllPosition } from '../../infrastructure/event-store/event-store.port.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { createLogger } from '../../infrastructure/main/logger.ts';
import { buildPlatform } from '../../infrastructure/main/platform.ts';
import { createBenchDb, type Figures, fmt, load, seconds } from './bench-support.ts';

const USERS = Number(process.env.BENCH_USERS ?? 50_000);
const COMPANIES = 10;
const UNITS_PER_COMPANY = 10;
const FIRST = ['Ana', 'Maja', 'Nina', 'Eva', 'Špela', 'Luka', 'Jan', 'Žiga', 'Matej', 'Čarli', 'Urška', 'Tina', 'Rok', 'Nejc', 'Katja'];
// 2,048 surnames from syllables, so a search for "novak" finds about 200 people, as in a real register.
const HEAD = ['Ko', 'No', 'Hor', 'Kra', 'Zu', 'Po', 'Mla', 'Vid', 'Go', 'Tu', 'Bo', 'Ža', 'Pe', 'Ši', 'Ro', 'Le'];
const MIDDLE = ['vak', 'vat', 'jnc', 'pan', 'toč', 'kar', 'mar', 'lob', 'rk', 'žič', 'gar', 'ter', 'ška', 'bec', 'man', 'nik'];
const TAIL = ['', 'ič', 'ec', 'ar', 'šek', 'nik', 'ovič', 'in'];
const surname = (i: number) => `${HEAD[i % 16]}${MIDDLE[Math.floor(i / 16) % 16]}${TAIL[Math.floor(i / 256) % 8]}`;

/**
 * The admins' user list (issue 14: p99 under 50 ms with 50,000 users) through the whole platform
 * (token, session and permission check, zod, slonik), beside the same page by one hand-written
 * SQL statement on the plain pg pool behind a bare Fastify route, and a bare route itself.
 */
export const benchUsers = async (adminUrl: string, out: (line: string) => void) => {
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
  const { userId: adminId } = await registerUser(
    platform,
    { username: 'benchadmin', email: 'benchadmin@bench.si', firstName: 'B', lastName: 'Admin', password: 'Geslo1234!' },
    [{ roleId: ROLE.admin, unitId: 0, companyId: null }],
    {},
  );
  // Every user of the platform holds the required consents (issue 6); without them the API answers 403.
  await giveRequiredConsents({ store: platform.store, now: () => new Date() }, adminId, 'import', {});
  await platform.runner.waitFor(['users', 'consents'], (await db.store.headPosition()) as AllPosition, 30_000);
  const login = async (username: string) =>
    (
      (await (
        await platform.app.inject({ method: 'POST', url: '/api/auth/login', payload: { usernameOrEmail: username, password: 'Geslo1234!' } })
      ).json()) as { authToken: string }
    ).authToken;
  const admin = await login('benchadmin');
  const inject = async (method: 'POST', url: string, payload: object) => {
    const response = await platform.app.inject({ method, url, payload, headers: { authorization: `JWT ${admin}` } });
    if (response.statusCode !== 201) throw new Error(`seed ${url}: ${response.statusCode} ${response.body}`);
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await platform.runner.waitFor(['organisation'], parsePosition(position) as AllPosition, 30_000);
    return (response.json() as { id: number }).id;
  };
  const units: { id: number; companyId: number }[] = [];
  for (let c = 0; c < COMPANIES; c++) {
    const companyId = await inject('POST', '/api/companies', { name: `Lekarne ${c}`, address: 'Cesta 1' });
    for (let u = 0; u < UNITS_PER_COMPANY; u++) units.push({ id: await inject('POST', '/api/units', { name: `Enota ${c}-${u}`, companyId }), companyId });
  }
  const profession = await inject('POST', '/api/professions', { name: 'Farmacevt' });

  // 50,000 users as their streams would hold them (registered, one role), appended 256 at a time.
  const started = performance.now();
  let next = 0;
  // Far above what the id allocator hands out, so users registered later do not collide.
  const firstId = 1_000_000 + adminId;
  await Promise.all(
    Array.from({ length: 256 }, async () => {
      while (next < USERS) {
        const i = next++;
        const id = firstId + i;
        const unit = units[i % units.length] as (typeof units)[number];
        await db.store.append(
          `user-${id}`,
          [
            {
              eventId: randomUUID(),
              type: 'UserRegistered',
              data: {
                userId: id,
                username: `user${id}`,
                email: `user${id}@bench.si`,
                firstName: FIRST[i % FIRST.length] as string,
                middleName: null,
                lastName: surname((i * 7919) % 2048),
                phone: '041 000 000',
                professionId: i % 2 === 0 ? profession : null,
                passwordHash: null,
                origin: 'import',
                emailConfirmed: true,
                otherJob: null,
                licenceNumber: i % 5 === 0 ? String(10_000 + (i % 90_000)).slice(0, 5) : null,
                chamberMembershipNumber: null,
              },
              metadata: {},
            },
            { eventId: randomUUID(), type: 'UserRoleGranted', data: { roleId: ROLE.participant, unitId: unit.id, companyId: unit.companyId }, metadata: {} },
          ],
          { expectedRevision: 'no_stream' },
        );
      }
    }),
  );
  const last = (await db.store.headPosition()) as AllPosition;
  await platform.runner.waitFor(['users'], last, 600_000);
  const seeded = (performance.now() - started) / 1000;
  // A manager of the first company (unit 0: every unit of it).
  const { userId: managerId } = await registerUser(
    platform,
    { username: 'benchmanager', email: 'benchmanager@bench.si', firstName: 'B', lastName: 'Manager', password: 'Geslo1234!' },
    [{ roleId: ROLE.manager, unitId: 0, companyId: units[0]?.companyId ?? null }],
    {},
  );
  await giveRequiredConsents({ store: platform.store, now: () => new Date() }, managerId, 'import', {});
  await platform.runner.waitFor(['users', 'consents'], (await db.store.headPosition()) as AllPosition, 30_000);
  const manager = await login('benchmanager');
  await db.pg.query('vacuum analyze');

  await platform.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (platform.app.server.address() as { port: number }).port;
  // The plain baseline: the first page by name and its total, one prepared statement each, no auth, no validation.
  const plain = Fastify();
  plain.get('/plain/users', async () => {
    const items = await db.pg.query({
      name: 'plain_users_page',
      text: `select u.id, u.username, u.email, u.first_name || ' ' || u.last_name as "fullName", u.status
               from rm.users u where u.status <> 'deleted'
              order by u.last_name collate public.slovenian, u.first_name collate public.slovenian, u.id limit 20`,
    });
    const total = await db.pg.query({ name: 'plain_users_total', text: `select count(*)::int as n from rm.users u where u.status <> 'deleted'` });
    return { items: items.rows, total: total.rows[0]?.n };
  });
  plain.get('/bare', async () => ({ ok: true }));
  await plain.listen({ port: 0, host: '127.0.0.1' });
  const plainPort = (plain.server.address() as { port: number }).port;

  const duration = seconds();
  const api = (path: string, token = admin) => ({
    url: `http://127.0.0.1:${port}${path}`,
    method: 'GET',
    seconds: duration,
    connections: 4,
    headers: { authorization: `JWT ${token}` },
  });
  const company = units[3]?.companyId as number;
  const rows: [string, Figures][] = [
    ['bare Fastify GET /bare', await load({ url: `http://127.0.0.1:${plainPort}/bare`, method: 'GET', seconds: duration, connections: 4 })],
    [
      'plain SQL: first page by name + total',
      await load({ url: `http://127.0.0.1:${plainPort}/plain/users`, method: 'GET', seconds: duration, connections: 4 }),
    ],
    ['GET /api/users (first page by name)', await load(api('/api/users'))],
    ['GET /api/users?search=novak', await load(api('/api/users?search=novak'))],
    ['GET /api/users?search=user1004242 (few matches)', await load(api('/api/users?search=user1004242'))],
    [`GET /api/users?companyId&roleId=10&page=20`, await load(api(`/api/users?companyId=${company}&roleId=10&page=20`))],
    ['GET /api/users?sort=lastLoginAt&order=desc&page=100', await load(api('/api/users?sort=lastLoginAt&order=desc&page=100'))],
    [`GET /api/manager/users (a company of ${fmt(USERS / COMPANIES)})`, await load(api('/api/manager/users', manager))],
  ];
  out(`${fmt(USERS)} users seeded and projected in ${fmt(seeded, 1)} s; 4 connections, ${duration} s each.`);
  out('');
  out('| request | requests/s | p50 ms | p99 ms | non-2xx | errors |');
  out('|---|---:|---:|---:|---:|---:|');
  for (const [name, f] of rows) out(`| ${name} | ${fmt(f.rps)} | ${fmt(f.p50, 1)} | ${fmt(f.p99, 1)} | ${f.non2xx} | ${f.errors} |`);
  await plain.close();
  await platform.app.close();
  await platform.runner.stop();
  await db.drop();
  return Object.fromEntries(rows);
};
