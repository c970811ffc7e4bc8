import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_FAILED_REASON, EXPORT_QUEUE, type ExportJobDeps, runExport } from '../../application/exports/export.job.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { type AllPosition, formatPosition, parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import type { FileStore } from '../../infrastructure/files/file-store.port.ts';
import { createPostgresFileStore } from '../../infrastructure/files/postgres-file-store.ts';
import type { Jobs } from '../../infrastructure/jobs/jobs.port.ts';
import { startJobs } from '../../infrastructure/jobs/pg-boss-jobs.ts';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { createLogger } from '../../infrastructure/main/logger.ts';
import { buildPlatform } from '../../infrastructure/main/platform.ts';
import { createExceljsSpreadsheet } from '../../infrastructure/reports/exceljs-spreadsheet.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

type Item = { id: number; status: string; attempts: number; error: string | null; rows: number | null; progress: { done: number; total: number } };

/**
 * Exports as jobs (issue 17 item 2, decision 0026): asked for while no worker runs, an export waits
 * in queue (initiated) and a process started later computes it; a run that dies is run again and
 * writes one result; a worker that dies mid-export falls silent and another takes it over; a
 * failure records a Slovenian reason.
 */
describe('export jobs', () => {
  let p: TestPlatform;
  let token = '';
  let last: AllPosition | null = null;
  const workers: Jobs[] = [];
  const closers: (() => Promise<void>)[] = [];

  const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => {
    const response = await p.app.inject({
      method,
      url,
      headers: { authorization: `JWT ${token}`, ...(last ? { 'x-min-position': formatPosition(last) } : {}) },
      ...(payload ? { payload } : {}),
    });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') last = parsePosition(position);
    return response;
  };
  const ask = async (kind: string, parameters: object) => {
    const response = await call('POST', '/api/exports', { kind, parameters });
    expect(response.statusCode, response.body).toBe(202);
    return (response.json() as { id: number }).id;
  };
  const item = async (id: number) => ((await call('GET', '/api/exports')).json() as { items: Item[] }).items.find((i) => i.id === id) as Item;
  const until = async (id: number, statuses: readonly string[], seconds = 30) => {
    const deadline = Date.now() + seconds * 1000;
    for (;;) {
      const found = await item(id);
      if (statuses.includes(found.status)) return found;
      if (Date.now() > deadline) throw new Error(`export ${id} is still ${found.status}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  const types = async (id: number) => (await p.store.readStream(`export-${id}`)).events.map((e) => e.type);
  const deps = (files: FileStore, retryLimit = 2): ExportJobDeps => ({
    store: p.store,
    db: p.db.slonik,
    files,
    spreadsheet: createExceljsSpreadsheet(),
    log: silentLog,
    now: () => new Date(),
    retryLimit,
  });

  beforeAll(async () => {
    // No job queue in this process: exports wait until a worker starts.
    p = await startTestPlatform();
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    token = (await p.login('skrbnik')).token;
    for (const name of ['prva', 'druga', 'tretja']) await p.createUser(name, [{ roleId: ROLE.participant, unitId: 1, companyId: null }]);
  }, 120_000);

  afterAll(async () => {
    for (const close of closers) await close().catch(() => undefined);
    for (const jobs of workers) await jobs.stop().catch(() => undefined);
    await p?.close();
  });

  it('a run that dies is run again (computing, attempt 2) and finishes once; a repeated run writes nothing', async () => {
    const id = await ask('users', { companyId: 0, status: 'all' });
    expect(await item(id)).toMatchObject({ status: 'initiated', attempts: 0, progress: { done: 0, total: 0 } });
    const files = createPostgresFileStore(p.db.pg);
    const broken: FileStore = { ...files, put: async () => Promise.reject(new Error('the disk went away')) };
    await expect(runExport(deps(broken))({ exportId: id }, { id: 'a', retryCount: 0 })).rejects.toThrow('the disk went away');
    await p.settleAll(await p.store.headPosition());
    expect(await item(id)).toMatchObject({ status: 'computing', attempts: 1 });
    await runExport(deps(files))({ exportId: id }, { id: 'a', retryCount: 1 });
    await runExport(deps(files))({ exportId: id }, { id: 'a', retryCount: 2 });
    expect(await types(id)).toEqual(['ExportRequested', 'ExportStarted', 'ExportProgressed', 'ExportStarted', 'ExportProgressed', 'ExportFinished']);
    await p.settleAll(await p.store.headPosition());
    expect(await item(id)).toMatchObject({ status: 'finished', attempts: 2, rows: 4 });
  });

  it('the last attempt that fails records the error with a Slovenian reason', async () => {
    const id = await ask('users', { companyId: 0, status: 'active' });
    const broken: FileStore = { ...createPostgresFileStore(p.db.pg), put: async () => Promise.reject(new Error('the disk went away')) };
    await runExport(deps(broken, 2))({ exportId: id }, { id: 'b', retryCount: 2 });
    await p.settleAll(await p.store.headPosition());
    expect(await item(id)).toMatchObject({ status: 'error', error: EXPORT_FAILED_REASON });
    expect(EXPORT_FAILED_REASON).toBe('Izvoza ni bilo mogoče pripraviti zaradi napake na strežniku. Poskusite znova.');
    expect((await call('GET', `/api/exports/${id}/file`)).statusCode).toBe(409);
  });

  it('a worker that dies in the middle of an export falls silent; another worker runs the export again and finishes it', async () => {
    const id = await ask('users', { companyId: 0, status: 'all' });
    const files = createPostgresFileStore(p.db.pg);
    // Worker one freezes while storing the file (as a process that is killed), and is then shut down.
    let unfreeze: (error: Error) => void = () => undefined;
    const frozen: FileStore = { ...files, put: () => new Promise((_resolve, reject) => (unfreeze = reject)) };
    const first = await startJobs({ connectionString: p.db.connectionString, log: silentLog, pollingIntervalSeconds: 0.5, monitorIntervalSeconds: 1 });
    await first.register('exports.test', runExport(deps(frozen)), { retryLimit: 2, retryDelaySeconds: 1, heartbeatSeconds: 10 });
    await first.send('exports.test', { exportId: id });
    const deadline = Date.now() + 20_000;
    while ((await item(id)).status !== 'computing' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await item(id)).toMatchObject({ status: 'computing', attempts: 1 });
    const stopped = first.stop();

    // Worker two: the same queue. It runs the export once the first one's job is given up.
    const second = await startJobs({ connectionString: p.db.connectionString, log: silentLog, pollingIntervalSeconds: 0.5, monitorIntervalSeconds: 1 });
    workers.push(second);
    await second.register('exports.test', runExport(deps(files)), { retryLimit: 2, retryDelaySeconds: 1, heartbeatSeconds: 10 });
    expect(await until(id, ['finished', 'error'], 60)).toMatchObject({ status: 'finished', attempts: 2, rows: 4 });
    unfreeze(new Error('killed'));
    await stopped;
    expect((await types(id)).filter((t) => t === 'ExportFinished')).toHaveLength(1);
    expect(EXPORT_QUEUE).toBe('exports.run');
  }, 90_000);
  it('waits in queue (initiated) while no worker runs; a process started later computes it, or records why it cannot', async () => {
    const waiting = await ask('users', { companyId: 0, status: 'all' });
    const course = (
      await call('POST', '/api/courses', {
        type: 3,
        title: 'Kmalu izbrisan',
        description: 'Izobraževanje, ki ga izbrišemo pred izvozom.',
        cover: '/c.svg',
        creditPoints: 1,
        public: true,
      })
    ).json() as { id: number };
    const doomed = await ask('nps', { courseId: course.id, from: '2026-01-01', to: '2026-01-31' });
    expect((await call('DELETE', `/api/courses/${course.id}`)).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await item(waiting)).status).toBe('initiated');
    expect((await item(doomed)).status).toBe('initiated');

    // "Restart": a process with the job queue starts on the same database; its reactor sends what waits.
    const jobs = await startJobs({ connectionString: p.db.connectionString, log: silentLog, pollingIntervalSeconds: 0.5 });
    workers.push(jobs);
    const second = await buildPlatform({ config: p.config, db: p.db, store: p.unprotectedStore, logger: createLogger('silent'), log: silentLog, jobs });
    closers.push(async () => {
      await second.app.close();
      await second.runner.stop();
    });
    await second.runner.start();
    expect(await until(waiting, ['finished', 'error'])).toMatchObject({ status: 'finished', rows: 4 });
    expect(await until(doomed, ['finished', 'error'])).toMatchObject({ status: 'error', error: 'Izobraževanje ne obstaja več.' });
    expect(await types(doomed)).toEqual(['ExportRequested', 'ExportStarted', 'ExportFailed']);
  }, 60_000);
});
