import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { importXlsx, person } from '../support/import-files.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

const ROWS = 1500;
const root = join(import.meta.dirname, '..', '..');

/**
 * Issue 17 item 1, "resumable after a kill": the import job runs in a platform process of its own,
 * which is killed (SIGKILL, as a crash or `kill -9` would) half way through the file; a second
 * process takes the job up once the first has fallen silent, and finishes it. Every row's user
 * exists exactly once, every one of them got exactly one welcome mail, and the result says all
 * 1,500 were created: no duplicates and no loss.
 */
describe('a users import killed half way', () => {
  let p: TestPlatform;
  let token = '';
  const workers: ChildProcess[] = [];

  /** A platform process running the job workers; resolves once it is ready. */
  const worker = () =>
    new Promise<ChildProcess>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        ['--disable-warning=ExperimentalWarning', join(root, 'tests', 'support', 'import-worker.ts'), p.db.connectionString],
        {
          cwd: root,
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      workers.push(child);
      child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
      child.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('ready')) resolve(child);
      });
    });

  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await p.app.inject({ method, url, headers: { authorization: `JWT ${token}` }, ...(payload ? { payload } : {}) });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(position);
    return response;
  };
  const progress = async (id: number) =>
    (await call('GET', `/api/imports/${id}`)).json() as {
      status: string;
      processed: number;
      created: number;
      failed: number;
      skipped: number;
      updated: number;
    };
  const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, pollMs = 100) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out at ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  };
  const count = async (text: string, values: unknown[]) => Number((await p.db.pg.query(text, values)).rows[0]?.n ?? -1);

  beforeAll(async () => {
    // This process serves the API and keeps the read models; the jobs run only in the workers.
    p = await startTestPlatform({}, { jobs: false });
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    token = (await p.login('skrbnik')).token;
    const id = async (url: string, payload: object) => ((await call('POST', url, payload)).json() as { id: number }).id;
    const companyId = await id('/api/companies', { name: 'Lekarne Zdravje d.o.o.', address: 'Slovenska cesta 1' });
    await id('/api/units', { name: 'Lekarna Center', companyId });
    await id('/api/professions', { name: 'Farmacevtski tehnik' });
  }, 180_000);

  afterAll(async () => {
    for (const child of workers) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await p?.close();
  });

  it('finishes after a SIGKILL with every row created once and welcomed once', async () => {
    const rows = Array.from({ length: ROWS }, (_, i) =>
      person(i, { company: 'Lekarne Zdravje d.o.o.', unit: 'Lekarna Center', profession: 'Farmacevtski tehnik' }, 'kill'),
    );
    const first = await worker();
    const uploaded = await p.app.inject({
      method: 'POST',
      url: '/api/imports?name=osebje.xlsx',
      headers: { authorization: `JWT ${token}`, 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
      payload: await importXlsx(rows),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const { id } = uploaded.json() as { id: number };
    expect((await call('POST', `/api/imports/${id}/start`, { sendWelcome: true })).statusCode).toBe(202);

    // Half way (past two recorded batches, another under way), the process dies.
    const before = await until(
      () => progress(id),
      (s) => s.processed >= 400,
      120_000,
      20,
    );
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const atKill = await progress(id);
    expect(atKill.status).toBe('running');
    expect(atKill.processed).toBeGreaterThanOrEqual(before.processed);
    expect(atKill.processed).toBeLessThan(ROWS);
    // Some users of the batch that was cut short exist already: written, not yet recorded.
    const written = await count("select count(*)::int as n from es.events where event_type = 'UserRegistered' and metadata->>'correlationId' = $1", [
      `import-${id}`,
    ]);
    expect(written).toBeGreaterThanOrEqual(atKill.processed);

    // Another process takes the job up once the first has stopped beating, and finishes it.
    await worker();
    const done = await until(
      () => progress(id),
      (s) => s.status === 'completed' || s.status === 'failed',
      150_000,
      250,
    );
    expect(done).toMatchObject({ status: 'completed', processed: ROWS, created: ROWS, updated: 0, skipped: 0, failed: 0 });

    // No duplicates: one user stream per row. No loss: every row's user exists, with its username.
    expect(
      await count("select count(*)::int as n from es.events where event_type = 'UserRegistered' and metadata->>'correlationId' = $1", [`import-${id}`]),
    ).toBe(ROWS);
    expect(
      await count(
        "select count(distinct metadata->>'causationId')::int as n from es.events where event_type = 'UserRegistered' and metadata->>'correlationId' = $1",
        [`import-${id}`],
      ),
    ).toBe(ROWS);
    const settledAll = await p.store.headPosition();
    await p.settleAll(settledAll);
    expect(await count("select count(*)::int as n from rm.users where origin = 'import' and username like 'kill%'", [])).toBe(ROWS);
    // Each of them was asked its welcome mail exactly once (the first-password link, /nov-uporabnik).
    const welcomes = await p.db.pg.query<{ n: number }>(
      `select count(*)::int as n from es.events where event_type = 'UserPasswordResetRequested' and data->>'purpose' = 'setup'
         and metadata->>'correlationId' = $1 group by stream_name`,
      [`import-${id}`],
    );
    expect(welcomes.rows.length).toBe(ROWS);
    expect(welcomes.rows.every((r) => r.n === 1)).toBe(true);
    // The result lists every row once.
    expect(await count('select count(*)::int as n from rm.import_rows where import_id = $1 and outcome = $2', [id, 'created'])).toBe(ROWS);
  }, 300_000);
});
