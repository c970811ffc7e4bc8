import { giveRequiredConsents } from '../../application/consents/consents.ts';
import { registerUser } from '../../application/users/register-user.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { loadConfig } from '../../infrastructure/config/config.ts';
import { type AllPosition, parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { startJobs } from '../../infrastructure/jobs/pg-boss-jobs.ts';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { createLogger } from '../../infrastructure/main/logger.ts';
import { buildPlatform, PROJECTIONS } from '../../infrastructure/main/platform.ts';
import { importXlsx, person } from '../support/import-files.ts';
import { createBenchDb, fmt } from './bench-support.ts';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000);
const UNITS = 10;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Users imports (issue 17 item 1: 10,000 rows in under a minute), through the whole platform as
 * `npm start` runs it: the upload with its precheck (HTTP, exceljs, every row checked against the
 * read models), then the pg-boss job that creates each user through the admin's user creation (id,
 * username and e-mail claims, the user's stream with its personal data encrypted, the role), timed
 * from the start until the import's read model says completed, with the welcome mail and without;
 * the same file again (every row compared and skipped); and the users read model catching up.
 * Beside it, the plain baseline of the same run: the same rows as single-row INSERTs into a table on
 * the same database (32 connections), and as one multi-row INSERT.
 */
export const benchImports = async (adminUrl: string, out: (line: string) => void) => {
  const db = await createBenchDb(adminUrl, { poolSize: 40 });
  const config = loadConfig({
    DEMO_DATA: 'false',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    AUTH_ADDRESS_RATE_LIMIT_PER_MINUTE: '1000000',
    UI_DIST_DIR: '/nonexistent',
    PORT: '0',
  });
  const jobs = await startJobs({ connectionString: db.connectionString, log: silentLog, pollingIntervalSeconds: 0.5 });
  const platform = await buildPlatform({ config, db, store: db.store, logger: createLogger('silent'), log: silentLog, jobs });
  await platform.runner.start();
  const everything = PROJECTIONS.map((p) => p.name);
  const settle = async (position: AllPosition | null, names = everything) => {
    if (position) await platform.runner.waitFor(names, position, 600_000);
  };
  const { userId: adminId } = await registerUser(
    platform,
    { username: 'benchadmin', email: 'benchadmin@bench.si', firstName: 'B', lastName: 'Admin', password: 'Geslo1234!' },
    [{ roleId: ROLE.admin, unitId: 0, companyId: null }],
    {},
  );
  await giveRequiredConsents({ store: platform.store, now: () => new Date() }, adminId, 'import', {});
  await settle(await db.store.headPosition());
  const login = await platform.app.inject({ method: 'POST', url: '/api/auth/login', payload: { usernameOrEmail: 'benchadmin', password: 'Geslo1234!' } });
  const token = (login.json() as { authToken: string }).authToken;
  const call = async (method: 'GET' | 'POST', url: string, payload?: object | Buffer, contentType?: string) => {
    const response = await platform.app.inject({
      method,
      url,
      headers: { authorization: `JWT ${token}`, ...(contentType ? { 'content-type': contentType } : {}) },
      ...(payload ? { payload } : {}),
    });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await settle(parsePosition(position));
    return response.json() as { id: number; status: string; problemCount: number; created: number; skipped: number; processed: number };
  };
  const companyId = (await call('POST', '/api/companies', { name: 'Lekarne Bench d.o.o.', address: 'Cesta 1' })).id;
  for (let u = 0; u < UNITS; u++) await call('POST', '/api/units', { name: `Enota ${u}`, companyId });
  await call('POST', '/api/professions', { name: 'Farmacevtski tehnik' });

  const file = async (prefix: string) =>
    importXlsx(
      Array.from({ length: ROWS }, (_, i) =>
        person(i, { company: 'Lekarne Bench d.o.o.', unit: `Enota ${i % UNITS}`, profession: 'Farmacevtski tehnik' }, prefix),
      ),
    );
  /** Upload (precheck) and job, each timed; the job until the import's read model says completed. */
  const run = async (bytes: Buffer, sendWelcome: boolean) => {
    let started = performance.now();
    const uploaded = await call('POST', '/api/imports?name=bench.xlsx', bytes, XLSX);
    const precheck = (performance.now() - started) / 1000;
    if (uploaded.problemCount > 0) throw new Error(`the bench file has ${uploaded.problemCount} problems`);
    started = performance.now();
    await call('POST', `/api/imports/${uploaded.id}/start`, { sendWelcome });
    for (;;) {
      const detail = await call('GET', `/api/imports/${uploaded.id}`);
      if (detail.status === 'completed' || detail.status === 'failed') {
        const job = (performance.now() - started) / 1000;
        if (detail.status === 'failed') throw new Error('the bench import failed');
        const head = (await db.store.headPosition()) as AllPosition;
        await settle(head, ['users']);
        return { precheck, job, caughtUp: (performance.now() - started) / 1000, created: detail.created, skipped: detail.skipped };
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  const plainFile = await file('plain');
  const withoutWelcome = await run(await file('bez'), false);
  const withWelcome = await run(await file('dob'), true);
  const again = await run(await file('bez'), false);

  // The plain baseline: the same rows, once as single-row INSERTs (one per user, 32 connections), once as one statement.
  await db.pg.query(`create table public.bench_import_users (id bigserial primary key, username text not null unique, email text not null unique,
    first_name text not null, last_name text not null, phone text not null, unit text not null, created_at timestamptz not null default now())`);
  const rows = Array.from({ length: ROWS }, (_, i) => person(i, { company: 'Lekarne Bench d.o.o.', unit: `Enota ${i % UNITS}` }, 'plain'));
  let next = 0;
  let started = performance.now();
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < rows.length) {
        const row = rows[next++] as ReturnType<typeof person>;
        await db.pg.query('insert into public.bench_import_users (username, email, first_name, last_name, phone, unit) values ($1, $2, $3, $4, $5, $6)', [
          row.username,
          row.email,
          row.firstName,
          row.lastName,
          row.phone,
          row.unit,
        ]);
      }
    }),
  );
  const plainSingle = (performance.now() - started) / 1000;
  await db.pg.query('truncate public.bench_import_users');
  started = performance.now();
  const column = (key: keyof ReturnType<typeof person>) => rows.map((r) => String(r[key]));
  await db.pg.query(
    `insert into public.bench_import_users (username, email, first_name, last_name, phone, unit)
     select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])`,
    [column('username'), column('email'), column('firstName'), column('lastName'), column('phone'), column('unit')],
  );
  const plainBulk = (performance.now() - started) / 1000;

  out(
    `${fmt(ROWS)} rows, ${fmt(plainFile.length / 1024)} KB xlsx, ${UNITS} units; the job and the projection runner share the process, as with \`npm start\`.`,
  );
  out('');
  out('| what | precheck (upload) s | job s | rows/s (job) | users read model caught up s | outcome |');
  out('|---|---:|---:|---:|---:|---|');
  const line = (name: string, r: Awaited<ReturnType<typeof run>>) =>
    out(
      `| ${name} | ${fmt(r.precheck, 1)} | ${fmt(r.job, 1)} | ${fmt(ROWS / r.job)} | ${fmt(r.caughtUp, 1)} | ${fmt(r.created)} created, ${fmt(r.skipped)} skipped |`,
    );
  line('import, no welcome mail', withoutWelcome);
  line('import with the welcome mail', withWelcome);
  line('the same file again', again);
  out(`| plain baseline: ${fmt(ROWS)} single-row INSERTs, 32 connections | | ${fmt(plainSingle, 1)} | ${fmt(ROWS / plainSingle)} | | |`);
  out(`| plain baseline: one INSERT of ${fmt(ROWS)} rows | | ${fmt(plainBulk, 2)} | ${fmt(ROWS / plainBulk)} | | |`);
  await platform.app.close();
  await platform.runner.stop();
  await jobs.stop();
  await db.drop();
  return { withoutWelcome, withWelcome, again, plainSingle, plainBulk };
};
