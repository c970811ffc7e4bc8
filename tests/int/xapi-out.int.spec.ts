import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xapiUuid } from '../../application/xapi-out/statement-id.ts';
import { statementProblems } from '../../application/xapi-out/validate-statement.ts';
import {
  collectStatements,
  deliverStatements,
  forwardStatements,
  PLATFORM_DESTINATION,
  XAPI_OUT_PACE,
  XAPI_OUT_QUEUE,
  type XapiOutJobDeps,
} from '../../application/xapi-out/xapi-out.job.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { statementsOf } from '../../domain/xapi-out/learning-statements.ts';
import { parsePosition, type RecordedEvent } from '../../infrastructure/event-store/event-store.port.ts';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { putStatement } from '../../infrastructure/xapi/http-statement-sender.ts';
import type { LrsDestination, StatementSender } from '../../infrastructure/xapi/statement-sender.port.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

const LRS_KEY = 'medilearn-lrs-klient';
const LRS_SECRET = 'skrivnost-lrs-za-preskus';

type Mode = 'up' | 'unavailable' | 'refusing';

/**
 * A small LRS for the test: PUT /xapi/statements?statementId= with Basic credentials, each statement
 * validated (xapi-validation) and kept once by its id, as xAPI 1.0.3 asks (the same statement again:
 * 204; another with the same id: 409). It counts every PUT per id, so a statement sent twice shows.
 */
const startFakeLrs = async () => {
  const held = new Map<string, string>();
  const puts = new Map<string, number>();
  const problems: string[] = [];
  const state = { mode: 'up' as Mode };
  const app: FastifyInstance = Fastify();
  app.put<{ Querystring: { statementId?: string } }>('/xapi/statements', async (request, reply) => {
    const expected = `Basic ${Buffer.from(`${LRS_KEY}:${LRS_SECRET}`).toString('base64')}`;
    if (request.headers.authorization !== expected) return reply.status(401).send({ error: 'unauthorised' });
    if (request.headers['x-experience-api-version'] !== '1.0.3') return reply.status(400).send({ error: 'version' });
    const id = request.query.statementId ?? '';
    puts.set(id, (puts.get(id) ?? 0) + 1);
    if (state.mode === 'unavailable') return reply.status(503).send({ error: 'LRS se posodablja' });
    if (state.mode === 'refusing') return reply.status(400).send({ error: 'Izjava zavrnjena' });
    const statement = request.body as { id?: string };
    const found = statementProblems(statement);
    if (found.length > 0 || statement.id !== id) {
      problems.push(`${id}: ${found.join('; ')}`);
      return reply.status(400).send({ error: found });
    }
    const text = JSON.stringify(statement);
    const before = held.get(id);
    if (before !== undefined) return reply.status(before === text ? 204 : 409).send();
    held.set(id, text);
    return reply.status(204).send();
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/xapi`;
  return { app, url, held, puts, problems, state };
};

type Delivery = {
  statementId: string;
  eventType: string;
  verb: string;
  status: string;
  attempts: number;
  lastError: string | null;
  accepted: number;
  position: string;
};

describe('xAPI out: learning events forwarded to an external LRS (issue 35 item 5)', () => {
  let lrs: Awaited<ReturnType<typeof startFakeLrs>>;
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  const users: Record<string, number> = {};
  const course = { id: 0, article: 0, quiz: 0, nps: 0 };

  const call = async (who: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => {
    const response = await p.app.inject({ method, url, headers: { authorization: `JWT ${tokens[who]}` }, ...(payload ? { payload } : {}) });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(parsePosition(position));
    return response;
  };
  const ok = async (who: string, method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await call(who, method, url, payload);
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json() as { id: number };
  };

  /** A participant's way through the course: start, the article, a failed and a passed quiz, the NPS answer (completion, certificate). */
  const journey = async (who: string) => {
    await ok(who, 'POST', `/api/user-courses/${course.id}/start`);
    await ok(who, 'POST', `/api/user-courses/${course.id}/blocks/${course.article}/open`);
    await ok(who, 'POST', `/api/user-courses/${course.id}/blocks/${course.quiz}/open`);
    await ok(who, 'POST', `/api/user-courses/${course.id}/blocks/${course.quiz}/quiz`, { answers: { q1: 'b', q2: 'a' } });
    await ok(who, 'POST', `/api/user-courses/${course.id}/blocks/${course.quiz}/quiz`, { answers: { q1: 'a', q2: 'a' } });
    await ok(who, 'POST', `/api/user-courses/${course.id}/blocks/${course.nps}/open`);
    const answered = await ok(who, 'POST', `/api/user-courses/${course.id}/blocks/${course.nps}/nps`, {
      score: 9,
      reasons: ['Uporabno'],
      comment: `Zasebna pripomba ${who}`,
    });
    expect(answered).toMatchObject({ completed: true });
  };

  /** The statement ids a person's journey must produce: UUID v5 of each stored event's id and verb. */
  const expectedIds = async (who: string) => {
    const { events } = await p.store.readStream(`enrollment-${course.id}_${users[who]}`);
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['CourseStarted', 'QuizFailed', 'QuizPassed', 'NpsAnswered', 'CourseCompleted', 'CertificateIssued']),
    );
    return events.flatMap((e: RecordedEvent) =>
      statementsOf(
        { eventId: e.eventId, type: e.type, data: e.data, streamName: e.streamName, createdAt: e.createdAt.toISOString() },
        { publicUrl: p.config.publicUrl, actorName: 'x', course: null, uuid: xapiUuid },
      ).map((m) => m.statement.id),
    );
  };

  const deliveries = async (query = '') => {
    const response = await call('admin', 'GET', `/api/xapi-out/deliveries?pageSize=100${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { items: Delivery[]; total: number };
  };
  const allDeliveries = async () => {
    const items: Delivery[] = [];
    for (let page = 1; ; page++) {
      const { items: found, total } = await deliveries(`&page=${page}`);
      items.push(...found);
      if (items.length >= total || found.length === 0) return items;
    }
  };
  const until = async <T>(what: string, probe: () => Promise<T | null | undefined | false>, seconds = 30): Promise<T> => {
    const deadline = Date.now() + seconds * 1000;
    for (;;) {
      const found = await probe();
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  /** The log's rows for these statement ids, once every one is in the log with one of `statuses`. */
  const settled = (ids: readonly string[], statuses: readonly string[]) =>
    until(`${ids.length} statements ${statuses.join('/')}`, async () => {
      const rows = (await allDeliveries()).filter((d) => ids.includes(d.statementId));
      return rows.length === ids.length && rows.every((d) => statuses.includes(d.status)) ? rows : null;
    });
  /** Every one of these statements was tried and is no longer being sent (no worker holds it). */
  const triedAndIdle = (ids: readonly string[]) =>
    until('every statement tried and none being sent', async () => {
      const { rows } = await p.db.pg.query<{ n: number }>(
        'select count(*)::int as n from public.xapi_out_deliveries where statement_id = any($1::uuid[]) and last_error is not null and claimed_by is null',
        [ids],
      );
      return rows[0]?.n === ids.length;
    });
  /** Time passes for a worker that died: the leases it held (with the statement it held last) ran out. */
  const leasesRunOut = (heldBy: string) =>
    p.db.pg.query(
      'update public.xapi_out_deliveries set claimed_until = now() where claimed_by = (select claimed_by from public.xapi_out_deliveries where statement_id = $1)',
      [heldBy],
    );
  /** Time passes for the retries: every waiting statement is due now. */
  const dueNow = () => p.db.pg.query(`update public.xapi_out_deliveries set next_attempt_at = now() where status = 'pending'`);
  const runNow = () => p.jobs?.send(XAPI_OUT_QUEUE, {}, { id: randomUUID() });
  const lrsDestination = (): LrsDestination => ({ url: lrs.url, key: LRS_KEY, secret: LRS_SECRET });
  const jobDeps = (overrides: Partial<XapiOutJobDeps> = {}): XapiOutJobDeps => ({
    store: p.store,
    db: p.db.slonik,
    log: silentLog,
    publicUrl: p.config.publicUrl,
    destination: lrsDestination(),
    send: putStatement,
    pace: XAPI_OUT_PACE,
    ...overrides,
  });

  beforeAll(async () => {
    lrs = await startFakeLrs();
    p = await startTestPlatform({ XAPI_LRS_URL: lrs.url, XAPI_LRS_KEY: LRS_KEY, XAPI_LRS_SECRET: LRS_SECRET }, { jobs: true });
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    for (const who of ['ana', 'bojan', 'cene', 'dora', 'eva', 'franc', 'goran']) {
      users[who] = await p.createUser(who, [{ roleId: ROLE.participant, unitId: 1, companyId: null }]);
      tokens[who] = (await p.login(who)).token;
    }
    course.id = (
      await ok('admin', 'POST', '/api/courses', {
        type: 3,
        title: 'Interakcije zdravil v lekarni',
        description: 'Interakcije zdravil, ki jih srečamo v lekarni vsak dan.',
        cover: '/c.svg',
        creditPoints: 1,
        public: true,
      })
    ).id;
    const add = async (block: object) => (await ok('admin', 'POST', `/api/courses/${course.id}/blocks`, { block })).id;
    course.article = await add({ kind: 'article', name: 'Uvod', html: '<p>Uvod v interakcije.</p>' });
    course.quiz = await add({
      kind: 'quiz',
      name: 'Preverjanje',
      batchSize: 2,
      successThreshold: 100,
      retries: 1,
      questions: [
        {
          id: 'q1',
          text: 'Ali grenivka vpliva na statine?',
          answers: [
            { id: 'a', text: 'Da', correct: true },
            { id: 'b', text: 'Ne' },
          ],
        },
        {
          id: 'q2',
          text: 'Je ibuprofen NSAR?',
          answers: [
            { id: 'a', text: 'Da', correct: true },
            { id: 'b', text: 'Ne' },
          ],
        },
      ],
    });
    course.nps = await add({
      kind: 'nps',
      name: 'Mnenje',
      question: 'Bi izobraževanje priporočili?',
      set: 1,
      reasons: { detractor: [], neutral: [], promoter: ['Uporabno'] },
      commentEnabled: true,
    });
    await ok('admin', 'POST', `/api/courses/${course.id}/publish`);
  }, 120_000);

  afterAll(async () => {
    await p?.close();
    await lrs?.app.close();
  });

  it('delivers a course journey to the LRS: every statement once, each valid, with ids derived from the events', async () => {
    await journey('ana');
    const ids = await expectedIds('ana');
    // Start, article (experienced, completed), quiz opened, 2 answers + failed, 2 answers + passed, NPS opened and answered, completed, certificate.
    expect(ids).toHaveLength(14);
    const rows = await settled(ids, ['sent']);
    expect(rows.every((r) => r.attempts === 1 && r.accepted === 1 && r.lastError === null)).toBe(true);
    expect(lrs.problems).toEqual([]);
    for (const id of ids) {
      expect(lrs.held.has(id), id).toBe(true);
      expect(lrs.puts.get(id), id).toBe(1);
    }
    const statements = ids.map((id) => JSON.parse(lrs.held.get(id) as string) as { verb: { id: string }; actor: { account: { name: string } } });
    expect(new Set(statements.map((s) => s.verb.id.split('/').at(-1)))).toEqual(
      new Set(['attempted', 'experienced', 'completed', 'answered', 'failed', 'passed', 'earned']),
    );
    // One opaque name for her, and nothing personal: not her username, e-mail, id or her comment.
    expect(new Set(statements.map((s) => s.actor.account.name)).size).toBe(1);
    const text = [...lrs.held.values()].join('\n');
    for (const personal of ['ana@test.si', '"ana"', 'Zasebna pripomba', `_${users.ana}`]) expect(text).not.toContain(personal);
  });

  it('shows the destination and the log to the admin (1064) and to no one else', async () => {
    const overview = await call('admin', 'GET', '/api/xapi-out');
    expect(overview.statusCode, overview.body).toBe(200);
    expect(overview.json()).toMatchObject({ endpoint: lrs.url, destination: { counts: { sent: 14, pending: 0, failed: 0 }, backfill: null } });
    expect(overview.body).not.toContain(LRS_SECRET);
    expect((await deliveries('&status=failed')).total).toBe(0);
    const page = await call('admin', 'GET', '/api/xapi-out/deliveries?status=sent&pageSize=5&page=3');
    expect(page.statusCode, page.body).toBe(200);
    const sent = page.json() as { items: Delivery[]; total: number };
    expect(sent.total).toBe(14);
    expect(sent.items).toHaveLength(4);
    expect(sent.items.every((d) => d.status === 'sent')).toBe(true);
    expect((await call('ana', 'GET', '/api/xapi-out/deliveries')).statusCode).toBe(403);
    expect((await call('ana', 'POST', '/api/xapi-out/backfill', { from: '2026-01-01' })).statusCode).toBe(403);
  });

  it('keeps statements while the LRS is down and delivers them when it is back; a refused one is recorded as failed', async () => {
    lrs.state.mode = 'unavailable';
    await journey('bojan');
    const ids = await expectedIds('bojan');
    await triedAndIdle(ids);
    const waiting = (await allDeliveries()).filter((d) => ids.includes(d.statementId));
    expect(waiting.every((d) => d.status === 'pending')).toBe(true);
    expect(waiting[0]?.lastError).toMatch(/^LRS je odgovoril 503: /);
    expect(ids.some((id) => lrs.held.has(id))).toBe(false);

    // Back up; the backoff has passed.
    lrs.state.mode = 'up';
    await dueNow();
    await runNow();
    const rows = await settled(ids, ['sent']);
    expect(rows.every((r) => r.accepted === 1 && r.lastError === null)).toBe(true);
    for (const id of ids) expect(lrs.held.has(id), id).toBe(true);
    expect(lrs.problems).toEqual([]);

    // A 4xx other than 409 is not tried again: the statement is recorded as failed with the LRS's answer.
    lrs.state.mode = 'refusing';
    await ok('cene', 'POST', `/api/user-courses/${course.id}/start`);
    const [started] = (await p.store.readStream(`enrollment-${course.id}_${users.cene}`)).events;
    const refusedId = xapiUuid(`statement/${started?.eventId}/attempted`);
    const [refused] = await settled([refusedId], ['failed']);
    expect(refused).toMatchObject({ attempts: 1, lastError: 'LRS je odgovoril 400: {"error":"Izjava zavrnjena"}' });
    lrs.state.mode = 'up';
  });

  it('sends each statement once with two workers at once, and loses none when a worker dies mid-batch', async () => {
    lrs.state.mode = 'unavailable';
    await journey('dora');
    await journey('eva');
    const ids = [...(await expectedIds('dora')), ...(await expectedIds('eva'))];
    await triedAndIdle(ids);
    lrs.state.mode = 'up';
    await dueNow();
    const putsBefore = new Map(ids.map((id) => [id, lrs.puts.get(id) ?? 0]));

    // A worker that dies after sending 7 statements of its batch: the 8th reached the LRS, but its answer never got recorded.
    let sent = 0;
    let last = '';
    const dying: StatementSender = async (destination, id, statement) => {
      const outcome = await putStatement(destination, id, statement);
      last = id;
      if (++sent === 8) throw new Error('the worker died');
      return outcome;
    };
    const oneByOne = { ...XAPI_OUT_PACE, sendBatch: 10, sendAtOnce: 1 };
    await expect(deliverStatements(jobDeps({ send: dying, pace: oneByOne }), lrsDestination(), PLATFORM_DESTINATION, Date.now() + 60_000)).rejects.toThrow(
      'the worker died',
    );
    // Two workers at once take the rest, and the dead worker's statements once its lease ran out.
    await leasesRunOut(last);
    await Promise.all([
      deliverStatements(jobDeps({ pace: { ...XAPI_OUT_PACE, sendBatch: 3 } }), lrsDestination(), PLATFORM_DESTINATION, Date.now() + 60_000),
      deliverStatements(jobDeps({ pace: { ...XAPI_OUT_PACE, sendBatch: 3 } }), lrsDestination(), PLATFORM_DESTINATION, Date.now() + 60_000),
    ]);
    const rows = await settled(ids, ['sent']);
    expect(rows).toHaveLength(ids.length);
    const resent = ids.filter((id) => (lrs.puts.get(id) ?? 0) - (putsBefore.get(id) ?? 0) !== 1);
    // Only the statement in flight when the worker died went twice; the LRS keeps it once.
    expect(resent).toHaveLength(1);
    expect((lrs.puts.get(resent[0] as string) ?? 0) - (putsBefore.get(resent[0] as string) ?? 0)).toBe(2);
    for (const id of ids) expect(lrs.held.has(id), id).toBe(true);
    expect(lrs.problems).toEqual([]);
  });

  it('records and sends nothing twice when a collector dies mid-batch and the log is read again from its start', async () => {
    await journey('franc');
    const ids = await expectedIds('franc');
    await settled(ids, ['sent']);
    const count = async () => Number((await p.db.pg.query('select count(*) from public.xapi_out_deliveries')).rows[0].count);
    const rowsBefore = await count();
    const putsBefore = new Map(ids.map((id) => [id, lrs.puts.get(id) ?? 0]));
    // A collector that dies while it reads a course: nothing it recorded in that batch stays, nor its cursor.
    await p.db.pg.query('update public.xapi_out_destinations set cursor_commit = 0, cursor_prepare = 0');
    const failing = { ...p.store, readStream: async () => Promise.reject(new Error('the worker died')) };
    await expect(collectStatements(jobDeps({ store: failing }), PLATFORM_DESTINATION, Date.now() + 60_000)).rejects.toThrow('the worker died');
    const cursor = await p.db.pg.query('select cursor_commit::text as c from public.xapi_out_destinations');
    expect(cursor.rows[0].c).toBe('0');
    // Read again from the start (no backfill): every statement is in the log already, none is recorded or sent again.
    await forwardStatements(jobDeps());
    expect(await count()).toBe(rowsBefore);
    for (const id of ids) expect(lrs.puts.get(id), id).toBe(putsBefore.get(id));
  });

  /** What was sent of the person erased below: a backfill passes it over, so the backfill tests leave it out. */
  const erasedSent: string[] = [];
  it('sends nothing more of a person erased: what waited is dropped, what was sent no longer names them, and a backfill passes them over', async () => {
    await ok('goran', 'POST', `/api/user-courses/${course.id}/start`);
    const [started] = (await p.store.readStream(`enrollment-${course.id}_${users.goran}`)).events;
    erasedSent.push(xapiUuid(`statement/${started?.eventId}/attempted`));
    await settled(erasedSent, ['sent']);
    lrs.state.mode = 'unavailable';
    await ok('goran', 'POST', `/api/user-courses/${course.id}/blocks/${course.article}/open`);
    const opened = (await p.store.readStream(`enrollment-${course.id}_${users.goran}`)).events.find((e) => e.type === 'BlockOpened');
    const id = xapiUuid(`statement/${opened?.eventId}/experienced`);
    await settled([id], ['pending']);
    const erased = await call('admin', 'DELETE', `/api/users/${users.goran}/personal-data`);
    expect(erased.statusCode, erased.body).toBe(200);
    await until('his waiting statement dropped', async () => !(await allDeliveries()).some((d) => d.statementId === id));
    const actor = await p.db.pg.query('select name from public.xapi_out_actors where user_id = $1', [users.goran]);
    expect(actor.rows).toEqual([{ name: null }]);
    // The sent statement stays in the log as sent, without his id or the statement that held his opaque name.
    const sent = await p.db.pg.query('select user_id, statement::text as statement from public.xapi_out_deliveries where statement_id = $1', [
      xapiUuid(`statement/${started?.eventId}/attempted`),
    ]);
    expect(sent.rows).toEqual([{ user_id: null, statement: '{}' }]);
    lrs.state.mode = 'up';
  });

  it('backfills from a day: every statement is sent again with its own id, and the LRS still holds each once', async () => {
    const refused = (await deliveries('&status=failed')).items.map((d) => d.statementId);
    const before = (await allDeliveries()).filter((d) => !erasedSent.includes(d.statementId));
    const heldBefore = lrs.held.size;
    const putsBefore = new Map(before.map((d) => [d.statementId, lrs.puts.get(d.statementId) ?? 0]));
    const invalid = await call('admin', 'POST', '/api/xapi-out/backfill', { from: '2026-02-31' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.body).toContain('Vnesite veljaven datum');
    const neither = await call('admin', 'POST', '/api/xapi-out/backfill', {});
    expect(neither.statusCode).toBe(400);
    expect(neither.body).toContain('Vnesite datum ali položaj dogodka');

    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const started = await call('admin', 'POST', '/api/xapi-out/backfill', { from: yesterday });
    expect(started.statusCode, started.body).toBe(202);
    const accepted = (d: Delivery) => (refused.includes(d.statementId) ? 1 : d.accepted + 1);
    await until(
      'every statement accepted once more',
      async () => {
        const now = new Map((await allDeliveries()).map((d) => [d.statementId, d]));
        return before.every((d) => now.get(d.statementId)?.status === 'sent' && now.get(d.statementId)?.accepted === accepted(d));
      },
      60,
    );
    for (const d of before) expect(lrs.puts.get(d.statementId), d.statementId).toBe((putsBefore.get(d.statementId) ?? 0) + 1);
    // The same ids: the LRS holds nothing new, only the once-refused statement is new to it (and nothing of the erased person).
    expect(lrs.held.size).toBe(heldBefore + refused.length);
    expect((await allDeliveries()).filter((d) => !before.some((b) => b.statementId === d.statementId) && !erasedSent.includes(d.statementId))).toEqual([]);
    // The erased person's sent statement was not sent again.
    for (const id of erasedSent) expect(lrs.puts.get(id)).toBe(1);
    expect(lrs.problems).toEqual([]);
    await until(
      'the backfill to end',
      async () => ((await call('admin', 'GET', '/api/xapi-out')).json() as { destination: { backfill: unknown } }).destination.backfill === null,
    );
  });

  it('backfills from an event position: that event on', async () => {
    const log = (await allDeliveries()).filter((d) => !erasedSent.includes(d.statementId));
    const newest = log[0] as Delivery;
    const fromNewest = log.filter((d) => d.position === newest.position);
    const putsBefore = lrs.puts.get(newest.statementId) ?? 0;
    const started = await call('admin', 'POST', '/api/xapi-out/backfill', { position: newest.position });
    expect(started.statusCode, started.body).toBe(202);
    expect((started.json() as { from: string }).from).not.toBe(newest.position);
    await until('the newest event sent again', async () => (lrs.puts.get(newest.statementId) ?? 0) === putsBefore + 1);
    await until('the newest event accepted once more', async () => {
      const now = new Map((await allDeliveries()).map((d) => [d.statementId, d]));
      return fromNewest.every((d) => now.get(d.statementId)?.status === 'sent' && now.get(d.statementId)?.accepted === d.accepted + 1);
    });
    const older = log.find((d) => d.position !== newest.position) as Delivery;
    expect((await allDeliveries()).find((d) => d.statementId === older.statementId)?.accepted).toBe(older.accepted);
  });
});
