import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import XLSX from 'xlsx';
import { CHAMBER_CREDIT_QUEUE, sweepChamberCredits } from '../../application/chambers/chamber-credits.job.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { type AllPosition, formatPosition, parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

type Credit = {
  courseId: number;
  userId: number;
  chamber: number | null;
  points: number;
  courseExternalId: string | null;
  status: string;
  heldReason: string | null;
  attempts: number;
  lastError: string | null;
  earnedAt: string;
  reportedAt: string | null;
  receipt: string | null;
  chamberMembershipNumber: string | null;
};
type Received = { key: string | undefined; body: Record<string, unknown> };

/**
 * Credit points to the chambers (issue 17 item 6, decision 0030) with the job queue running: a
 * chamber over HTTP started here that refuses the first report and acknowledges the next, and the
 * local file drop for a chamber without an address. Earned when the course is completed, reported
 * with both times kept, retried until acknowledged, held while the person has no number, never
 * reported twice, visible per course, per person and to the person, and exported per chamber.
 */
describe('chamber credit points', () => {
  let p: TestPlatform;
  let chamber: Server;
  let dropDir: string;
  const received: Received[] = [];
  /** Idempotency keys the chamber refuses once more (503) before it acknowledges. */
  const refuseOnce = new Set<string>();
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  let last: AllPosition | null = null;

  const call = async (who: string | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const response = await p.app.inject({
      method,
      url,
      headers: { ...(who ? { authorization: `JWT ${tokens[who]}` } : {}), ...(last ? { 'x-min-position': formatPosition(last) } : {}) },
      ...(payload ? { payload } : {}),
    });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') last = parsePosition(position);
    return response;
  };
  const created = async (url: string, payload: object) => {
    const response = await call('admin', 'POST', url, payload);
    expect(response.statusCode, response.body).toBeLessThan(300);
    return (response.json() as { id: number }).id;
  };
  const course = async (title: string, syncDestination: number | null, externalId: string | null) => {
    const id = await created('/api/courses', {
      type: 3,
      title,
      description: 'Izobraževanje s kreditnimi točkami zbornice.',
      cover: '/c.svg',
      creditPoints: 2.5,
      externalId,
      syncDestination,
      audience: { companyIds: [ids.company] },
    });
    await created(`/api/courses/${id}/blocks`, { block: { kind: 'points', name: 'Točke', points: 2.5 } });
    expect((await call('admin', 'POST', `/api/courses/${id}/publish`)).statusCode).toBe(200);
    return id;
  };
  /** The participant completes the course (the events the course page writes). */
  const complete = async (courseId: number, userId: number) => {
    const stream = `enrollment-${courseId}_${userId}`;
    const result = await p.store.append(
      stream,
      [
        { eventId: randomUUID(), type: 'CourseStarted', data: { courseId, userId }, metadata: {} },
        { eventId: randomUUID(), type: 'CourseCompleted', data: { creditPoints: 2.5 }, metadata: {} },
      ],
      { expectedRevision: 'no_stream' },
    );
    last = result.position;
  };
  const creditsOf = async (courseId: number) => ((await call('admin', 'GET', `/api/courses/${courseId}/chamber-credits`)).json() as { items: Credit[] }).items;
  /** Waits until the course's credit of this person reads `status`. */
  const until = async (courseId: number, userId: number, status: string) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      await p.settleAll(last);
      const credit = (await creditsOf(courseId)).find((c) => c.userId === userId);
      if (credit?.status === status) return credit;
      if (Date.now() > deadline) throw new Error(`credit of ${userId} on ${courseId} is ${credit?.status ?? 'missing'}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const credentials = async (name: string, numbers: { chamberMembershipNumber: string | null; licenceNumber: string | null }, profession = ids.pharmacist) => {
    const response = await call('admin', 'PUT', `/api/users/${ids[name]}`, {
      username: name,
      email: `${name}@test.si`,
      firstName: 'Test',
      middleName: null,
      lastName: name,
      phone: '041 555 666',
      professionId: profession ?? null,
      otherJob: null,
      secondaryEmail: null,
      notes: null,
      ...numbers,
      roles: [{ roleId: ROLE.participant, companyId: ids.company, unitId: ids.unit }],
    });
    expect(response.statusCode, response.body).toBe(200);
  };

  beforeAll(async () => {
    chamber = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const key = request.headers['idempotency-key'] as string | undefined;
        received.push({ key, body: JSON.parse(body) as Record<string, unknown> });
        if (key && refuseOnce.delete(key)) {
          response.writeHead(503).end();
          return;
        }
        response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ receipt: `LZS-${received.length}` }));
      });
    });
    await new Promise<void>((resolve) => chamber.listen(0, '127.0.0.1', resolve));
    dropDir = await mkdtemp(join(tmpdir(), 'medilearn-chambers-'));
    p = await startTestPlatform(
      {
        CHAMBER_1_URL: `http://127.0.0.1:${(chamber.address() as AddressInfo).port}/kreditne-tocke`,
        CHAMBER_DROP_DIR: dropDir,
        CHAMBER_RETRY_DELAY_SECONDS: '1',
      },
      { jobs: true },
    );
    ids.admin = await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    ids.company = await created('/api/companies', { name: 'Lekarne Zbornica d.o.o.', address: 'Cesta 1' });
    ids.unit = await created('/api/units', { name: 'Lekarna Center', companyId: ids.company });
    // Credits go to the chamber of the person's profession (issue 32 item 4).
    ids.pharmacist = await created('/api/professions', { name: 'Magister farmacije', chamber: 1 });
    ids.doctor = await created('/api/professions', { name: 'Zdravnik', chamber: 2 });
    ids.nurse = await created('/api/professions', { name: 'Medicinska sestra', chamber: 3 });
    ids.physio = await created('/api/professions', { name: 'Fizioterapevt' });
    for (const name of ['ana', 'bojan', 'cvetka', 'dusan', 'eva']) {
      ids[name] = await p.createUser(name, [{ roleId: ROLE.participant, unitId: ids.unit, companyId: ids.company }]);
      tokens[name] = (await p.login(name)).token;
    }
    await credentials('ana', { chamberMembershipNumber: 'LZS-1001', licenceNumber: null });
    await credentials('bojan', { chamberMembershipNumber: null, licenceNumber: null });
    await credentials('cvetka', { chamberMembershipNumber: 'ZZN-501', licenceNumber: null }, ids.nurse);
    await credentials('dusan', { chamberMembershipNumber: 'ZZS-77', licenceNumber: null }, ids.doctor);
    await credentials('eva', { chamberMembershipNumber: 'X-1', licenceNumber: null }, ids.physio);
    ids.pharmacy = await course('Interakcije zdravil', 1, 'LZS-2026-17');
    ids.nursing = await course('Oskrba ran', 3, 'ZZN-44');
    ids.plain = await course('Brez zbornice', null, null);
  }, 180_000);

  afterAll(async () => {
    await p?.close();
    await new Promise((resolve) => chamber?.close(resolve));
    if (dropDir) await rm(dropDir, { recursive: true, force: true });
  });

  it('reports a completion to the chamber, sends it again after a refusal, and keeps both times', async () => {
    refuseOnce.add(`medilearn-${ids.pharmacy}-${ids.ana}`);
    const before = Date.now();
    await complete(ids.pharmacy as number, ids.ana as number);
    const credit = await until(ids.pharmacy as number, ids.ana as number, 'reported');
    expect(credit).toMatchObject({ chamber: 1, points: 2.5, courseExternalId: 'LZS-2026-17', attempts: 2, chamberMembershipNumber: 'LZS-1001' });
    expect(credit.lastError).toBe('Zbornica je odgovorila s stanjem 503.');
    expect(Date.parse(credit.earnedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(credit.reportedAt as string)).toBeGreaterThanOrEqual(Date.parse(credit.earnedAt));
    // Two requests with one key: the refused one and the acknowledged one, carrying what the chamber files.
    const sent = received.filter((r) => r.key === `medilearn-${ids.pharmacy}-${ids.ana}`);
    expect(sent).toHaveLength(2);
    expect(credit.receipt).toBe(`LZS-${received.indexOf(sent[1] as Received) + 1}`);
    expect(sent[1]?.body).toMatchObject({
      chamber: 1,
      memberNumber: 'LZS-1001',
      firstName: 'Test',
      lastName: 'ana',
      courseTitle: 'Interakcije zdravil',
      courseExternalId: 'LZS-2026-17',
      creditPoints: 2.5,
      earnedAt: credit.earnedAt,
    });
  });

  it('a completion seen again (a job run twice) is neither earned nor reported twice', async () => {
    const requests = received.length;
    await p.jobs?.send(CHAMBER_CREDIT_QUEUE, { enrollment: `enrollment-${ids.pharmacy}_${ids.ana}` }, { id: randomUUID() });
    await p.jobs?.send(CHAMBER_CREDIT_QUEUE, { courseId: ids.pharmacy, userId: ids.ana }, { id: randomUUID() });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(received.length).toBe(requests);
    const events = (await p.store.readStream(`chambercredit-${ids.pharmacy}_${ids.ana}`)).events.map((e) => e.type);
    expect(events).toEqual(['ChamberCreditEarned', 'ChamberCreditReportFailed', 'ChamberCreditReported']);
  });

  it('holds the credit of a person the chamber cannot match, and reports it once they have a number', async () => {
    await complete(ids.pharmacy as number, ids.bojan as number);
    const held = await until(ids.pharmacy as number, ids.bojan as number, 'held');
    expect(held.heldReason).toBe('missing-number');
    expect(received.some((r) => r.key === `medilearn-${ids.pharmacy}-${ids.bojan}`)).toBe(false);
    await credentials('bojan', { chamberMembershipNumber: null, licenceNumber: '7788' });
    await p.settleAll(last);
    // The half-hourly sweep (here without waiting half an hour) sends what is not acknowledged.
    await sweepChamberCredits({ db: p.db.slonik, jobs: p.jobs as NonNullable<typeof p.jobs> }, 0)({}, { id: randomUUID(), retryCount: 0 });
    const reported = await until(ids.pharmacy as number, ids.bojan as number, 'reported');
    expect(reported.attempts).toBe(1);
    expect(received.filter((r) => r.key === `medilearn-${ids.pharmacy}-${ids.bojan}`).map((r) => r.body.licenceNumber)).toEqual(['7788']);
  });

  it('a chamber without an address gets a file in the drop folder; a course without a chamber reports nothing', async () => {
    await complete(ids.nursing as number, ids.cvetka as number);
    await complete(ids.plain as number, ids.ana as number);
    const credit = await until(ids.nursing as number, ids.cvetka as number, 'reported');
    const name = `medilearn-${ids.nursing}-${ids.cvetka}.json`;
    expect(credit.receipt).toBe(`datoteka zbornica-3/${name}`);
    expect(await readdir(join(dropDir, 'zbornica-3'))).toEqual([name]);
    expect(JSON.parse(await readFile(join(dropDir, 'zbornica-3', name), 'utf8'))).toMatchObject({
      chamber: 3,
      memberNumber: 'ZZN-501',
      courseExternalId: 'ZZN-44',
      creditPoints: 2.5,
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await creditsOf(ids.plain as number)).toEqual([]);
    expect((await p.store.readStream(`chambercredit-${ids.plain}_${ids.ana}`)).events).toHaveLength(0);
  });

  it('sends a doctor’s credit to the doctors’ chamber, whatever chamber the course names (issue 32 item 4)', async () => {
    await complete(ids.pharmacy as number, ids.dusan as number);
    const credit = await until(ids.pharmacy as number, ids.dusan as number, 'reported');
    expect(credit.chamber).toBe(2);
    const name = `medilearn-${ids.pharmacy}-${ids.dusan}.json`;
    expect(credit.receipt).toBe(`datoteka zbornica-2/${name}`);
    expect(JSON.parse(await readFile(join(dropDir, 'zbornica-2', name), 'utf8'))).toMatchObject({ chamber: 2, memberNumber: 'ZZS-77' });
    // The pharmacists' chamber never heard of him.
    expect(received.some((r) => r.key === `medilearn-${ids.pharmacy}-${ids.dusan}`)).toBe(false);
  });

  it('holds a credit whose person’s profession names no chamber, with the reason, and sends it once the profession has one', async () => {
    await complete(ids.pharmacy as number, ids.eva as number);
    const held = await until(ids.pharmacy as number, ids.eva as number, 'held');
    expect(held).toMatchObject({ heldReason: 'no-chamber', chamber: null });
    expect((await call('admin', 'PUT', `/api/professions/${ids.physio}`, { name: 'Fizioterapevt', chamber: 3 })).statusCode).toBe(200);
    await p.settleAll(last);
    await sweepChamberCredits({ db: p.db.slonik, jobs: p.jobs as NonNullable<typeof p.jobs> }, 0)({}, { id: randomUUID(), retryCount: 0 });
    const reported = await until(ids.pharmacy as number, ids.eva as number, 'reported');
    expect(reported.chamber).toBe(3);
  });

  it('an erasure removes the files the drop folder still holds for the person, and only theirs (issue 32 item 3)', async () => {
    const doctors = join(dropDir, 'zbornica-2');
    expect(await readdir(doctors)).toContain(`medilearn-${ids.pharmacy}-${ids.dusan}.json`);
    expect((await call('admin', 'DELETE', `/api/users/${ids.dusan}/personal-data`)).statusCode).toBe(200);
    expect(await readdir(doctors)).not.toContain(`medilearn-${ids.pharmacy}-${ids.dusan}.json`);
    expect(await readdir(join(dropDir, 'zbornica-3'))).toContain(`medilearn-${ids.nursing}-${ids.cvetka}.json`);
  });

  it('shows a person their credits, an admin anyone’s, and refuses a participant the course list', async () => {
    const own = (await call('ana', 'GET', '/api/users/me/chamber-credits')).json() as { items: Credit[] };
    expect(own.items.map((c) => [c.courseId, c.status])).toEqual([[ids.pharmacy, 'reported']]);
    const hers = (await call('admin', 'GET', `/api/users/${ids.cvetka}/chamber-credits`)).json() as { items: Credit[] };
    expect(hers.items.map((c) => [c.courseId, c.chamber])).toEqual([[ids.nursing, 3]]);
    expect((await call('ana', 'GET', `/api/courses/${ids.pharmacy}/chamber-credits`)).statusCode).toBe(403);
    expect((await call('ana', 'GET', `/api/users/${ids.bojan}/chamber-credits`)).statusCode).toBe(403);
    expect((await call('admin', 'GET', '/api/courses/999999/chamber-credits')).statusCode).toBe(404);
  });

  it('exports a chamber’s credits of a period, read back by a second reader', async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Ljubljana' }).format(new Date());
    const missing = await call('admin', 'POST', '/api/exports', { kind: 'chambers', parameters: { from: today, to: today } });
    expect(missing.statusCode).toBe(400);
    const asked = await call('admin', 'POST', '/api/exports', { kind: 'chambers', parameters: { chamber: 1, from: today, to: today } });
    expect(asked.statusCode, asked.body).toBe(202);
    const { id } = asked.json() as { id: number };
    const deadline = Date.now() + 30_000;
    while (
      ((await call('admin', 'GET', '/api/exports')).json() as { items: { id: number; status: string }[] }).items.find((i) => i.id === id)?.status !== 'finished'
    ) {
      if (Date.now() > deadline) throw new Error('export not finished');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const file = await call('admin', 'GET', `/api/exports/${id}/file`);
    expect(file.statusCode).toBe(200);
    const book = XLSX.read(file.rawPayload, { type: 'buffer' });
    const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(book.Sheets[book.SheetNames[0] as string] as XLSX.WorkSheet);
    expect(rows).toHaveLength(2);
    const ana = rows.find((r) => r['ID uporabnika'] === ids.ana);
    expect(ana).toMatchObject({
      Zbornica: 'Lekarniška zbornica',
      'Številka članstva v zbornici': 'LZS-1001',
      Izobraževanje: 'Interakcije zdravil',
      'Zunanji ID': 'LZS-2026-17',
      'Kreditne točke': 2.5,
      Stanje: 'sporočeno',
      Poskusi: 2,
    });
    expect(rows.find((r) => r['ID uporabnika'] === ids.bojan)).toMatchObject({ 'Številka licence': '7788', Stanje: 'sporočeno' });
  });
});
