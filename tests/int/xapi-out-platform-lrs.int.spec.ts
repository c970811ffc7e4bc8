import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xapiUuid } from '../../application/xapi-out/statement-id.ts';
import { deliverStatements, PLATFORM_DESTINATION, XAPI_OUT_PACE, XAPI_OUT_QUEUE, type XapiOutJobDeps } from '../../application/xapi-out/xapi-out.job.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { statementsOf } from '../../domain/xapi-out/learning-statements.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { putStatement } from '../../infrastructure/xapi/http-statement-sender.ts';
import type { LrsDestination, StatementSender } from '../../infrastructure/xapi/statement-sender.port.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

const CLIENT = { key: 'medilearn-posiljatelj', secret: 'skrivnost-prejemnega-lrs-2026' };

/**
 * The external LRS is real (issue 35 item 5): a second platform, on a second database of the same
 * PostgreSQL, whose own LRS (issue 35 item 4) takes statements from an outside client with Basic
 * credentials (LRS_CLIENT_KEY/SECRET). It is reached over HTTP through a small front that can play
 * "down" (503) and counts PUTs; the first platform's XAPI_LRS_URL points at it. What the receiving
 * LRS holds is read from its own log: one stream per statement id.
 */
describe('xAPI out to a second platform’s LRS', () => {
  let receiver: TestPlatform;
  let sender: TestPlatform;
  let front: Server;
  let url = '';
  const down = { now: false };
  const puts = new Map<string, number>();
  const tokens: Record<string, string> = {};
  const users: Record<string, number> = {};
  const course = { id: 0, article: 0, quiz: 0 };

  /** Forwards a request to the receiving platform (its real routes, by inject) unless it plays down. */
  const startFront = () =>
    new Promise<Server>((resolve) => {
      const server = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          const id = new URL(request.url ?? '/', 'http://front').searchParams.get('statementId') ?? '';
          if (request.method === 'PUT') puts.set(id, (puts.get(id) ?? 0) + 1);
          if (down.now) {
            response.writeHead(503, { 'content-type': 'text/plain' }).end('vzdrževanje');
            return;
          }
          const headers: IncomingHttpHeaders = { ...request.headers };
          delete headers.host;
          void receiver.app
            .inject({ method: request.method as 'PUT', url: request.url ?? '/', headers: headers as Record<string, string>, payload: Buffer.concat(chunks) })
            .then((answer) => {
              response.writeHead(answer.statusCode, { 'content-type': String(answer.headers['content-type'] ?? 'text/plain') }).end(answer.rawPayload);
            });
        });
      });
      server.listen(0, '127.0.0.1', () => resolve(server));
    });

  const call = async (who: string, method: 'GET' | 'POST', path: string, payload?: object) => {
    const response = await sender.app.inject({ method, url: path, headers: { authorization: `JWT ${tokens[who]}` }, ...(payload ? { payload } : {}) });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await sender.settleAll(parsePosition(position));
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json() as { id: number };
  };
  const journey = async (who: string) => {
    await call(who, 'POST', `/api/user-courses/${course.id}/start`);
    await call(who, 'POST', `/api/user-courses/${course.id}/blocks/${course.article}/open`);
    await call(who, 'POST', `/api/user-courses/${course.id}/blocks/${course.quiz}/quiz`, { answers: { q1: 'a' } });
  };
  const statementIds = async (who: string) => {
    const { events } = await sender.store.readStream(`enrollment-${course.id}_${users[who]}`);
    return events.flatMap((e) =>
      statementsOf(
        { eventId: e.eventId, type: e.type, data: e.data, streamName: e.streamName, createdAt: e.createdAt.toISOString() },
        { publicUrl: sender.config.publicUrl, actorName: 'x', course: null, uuid: xapiUuid },
      ).map((m) => m.statement.id),
    );
  };
  /** What the sender's log says of these statements. */
  const logged = async (ids: readonly string[]) =>
    (
      await sender.db.pg.query<{ statement_id: string; status: string; attempts: number; accepted: number; last_error: string | null }>(
        'select statement_id::text, status, attempts, accepted, last_error from public.xapi_out_deliveries where statement_id = any($1::uuid[])',
        [ids],
      )
    ).rows;
  const until = async (what: string, probe: () => Promise<boolean>, seconds = 30) => {
    const deadline = Date.now() + seconds * 1000;
    while (!(await probe())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const allSent = (ids: readonly string[], accepted?: (id: string) => number) =>
    until(`${ids.length} statements sent`, async () => {
      const rows = await logged(ids);
      return rows.length === ids.length && rows.every((r) => r.status === 'sent' && (accepted === undefined || r.accepted === accepted(r.statement_id)));
    });
  /** The receiving LRS holds each statement once: one stored event in its stream, and readable by its id. */
  const heldOnce = async (ids: readonly string[]) => {
    const auth = `Basic ${Buffer.from(`${CLIENT.key}:${CLIENT.secret}`).toString('base64')}`;
    for (const id of ids) {
      const stored = await receiver.store.readStream(`lrsstatement-${id}`);
      expect(
        stored.events.map((e) => e.type),
        id,
      ).toEqual(['LrsStatementStored']);
      const read = await receiver.app.inject({
        method: 'GET',
        url: `/xapi/statements?statementId=${id}`,
        headers: { authorization: auth, 'x-experience-api-version': '1.0.3' },
      });
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json()).toMatchObject({ id, actor: { account: { homePage: sender.config.publicUrl } } });
    }
  };
  const destination = (): LrsDestination => ({ url, key: CLIENT.key, secret: CLIENT.secret });
  const jobDeps = (send: StatementSender): XapiOutJobDeps => ({
    store: sender.store,
    db: sender.db.slonik,
    log: silentLog,
    publicUrl: sender.config.publicUrl,
    destination: destination(),
    send,
    pace: { ...XAPI_OUT_PACE, sendBatch: 4, sendAtOnce: 1 },
  });

  beforeAll(async () => {
    receiver = await startTestPlatform({ LRS_CLIENT_KEY: CLIENT.key, LRS_CLIENT_SECRET: CLIENT.secret });
    front = await startFront();
    url = `http://127.0.0.1:${(front.address() as AddressInfo).port}/xapi`;
    sender = await startTestPlatform({ XAPI_LRS_URL: url, XAPI_LRS_KEY: CLIENT.key, XAPI_LRS_SECRET: CLIENT.secret }, { jobs: true });
    await sender.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.admin = (await sender.login('skrbnik')).token;
    for (const who of ['ana', 'bojan', 'cene']) {
      users[who] = await sender.createUser(who, [{ roleId: ROLE.participant, unitId: 1, companyId: null }]);
      tokens[who] = (await sender.login(who)).token;
    }
    course.id = (
      await call('admin', 'POST', '/api/courses', {
        type: 3,
        title: 'Interakcije zdravil v lekarni',
        description: 'Interakcije zdravil, ki jih srečamo v lekarni vsak dan.',
        cover: '/c.svg',
        creditPoints: 1,
        public: true,
      })
    ).id;
    course.article = (await call('admin', 'POST', `/api/courses/${course.id}/blocks`, { block: { kind: 'article', name: 'Uvod', html: '<p>Uvod.</p>' } })).id;
    course.quiz = (
      await call('admin', 'POST', `/api/courses/${course.id}/blocks`, {
        block: {
          kind: 'quiz',
          name: 'Preverjanje',
          batchSize: 1,
          successThreshold: 100,
          questions: [
            {
              id: 'q1',
              text: 'Je ibuprofen NSAR?',
              answers: [
                { id: 'a', text: 'Da', correct: true },
                { id: 'b', text: 'Ne' },
              ],
            },
          ],
        },
      })
    ).id;
    await call('admin', 'POST', `/api/courses/${course.id}/publish`);
  }, 120_000);

  afterAll(async () => {
    await sender?.close();
    await new Promise((resolve) => front?.close(resolve));
    await receiver?.close();
  });

  it('delivers a course journey: the receiving LRS holds every statement once, each accepted by its validation', async () => {
    await journey('ana');
    const ids = await statementIds('ana');
    // Start; the article experienced and completed; the answer, passed; the course completed; the certificate.
    expect(ids).toHaveLength(7);
    await allSent(ids);
    for (const id of ids) expect(puts.get(id), id).toBe(1);
    await heldOnce(ids);
  });

  it('retries while the LRS is down, and after a worker dies mid-batch sends the rest without losing or doubling any', async () => {
    down.now = true;
    await journey('bojan');
    await journey('cene');
    const ids = [...(await statementIds('bojan')), ...(await statementIds('cene'))];
    await until('every statement tried and none being sent', async () => {
      const { rows } = await sender.db.pg.query<{ n: number }>(
        'select count(*)::int as n from public.xapi_out_deliveries where statement_id = any($1::uuid[]) and last_error is not null and claimed_by is null',
        [ids],
      );
      return rows[0]?.n === ids.length;
    });
    expect((await logged(ids)).every((r) => r.status === 'pending' && r.last_error === 'LRS je odgovoril 503: vzdrževanje')).toBe(true);
    down.now = false;
    await sender.db.pg.query(`update public.xapi_out_deliveries set next_attempt_at = now() where status = 'pending'`);
    const before = new Map(ids.map((id) => [id, puts.get(id) ?? 0]));
    let sent = 0;
    let last = '';
    const dying: StatementSender = async (target, id, statement) => {
      const outcome = await putStatement(target, id, statement);
      last = id;
      if (++sent === 3) throw new Error('the worker died');
      return outcome;
    };
    await expect(deliverStatements(jobDeps(dying), destination(), PLATFORM_DESTINATION, Date.now() + 60_000)).rejects.toThrow('the worker died');
    // Time passes: the dead worker's leases run out.
    await sender.db.pg.query(
      'update public.xapi_out_deliveries set claimed_until = now() where claimed_by = (select claimed_by from public.xapi_out_deliveries where statement_id = $1)',
      [last],
    );
    // The platform's own worker takes the rest, the dead worker's leased statements too.
    await sender.jobs?.send(XAPI_OUT_QUEUE, {}, { id: randomUUID() });
    await allSent(ids);
    const twice = ids.filter((id) => (puts.get(id) ?? 0) - (before.get(id) ?? 0) !== 1);
    expect(twice).toHaveLength(1);
    await heldOnce(ids);
  });

  it('backfills from a day: every statement is sent again with its id, and the receiving LRS still holds each once', async () => {
    const ids = [...(await statementIds('ana')), ...(await statementIds('bojan')), ...(await statementIds('cene'))];
    const accepted = new Map((await logged(ids)).map((r) => [r.statement_id, r.accepted]));
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const started = await sender.app.inject({
      method: 'POST',
      url: '/api/xapi-out/backfill',
      headers: { authorization: `JWT ${tokens.admin}` },
      payload: { from: yesterday },
    });
    expect(started.statusCode, started.body).toBe(202);
    await allSent(ids, (id) => (accepted.get(id) ?? 0) + 1);
    await heldOnce(ids);
  });
});
