import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushMessageId, pushNotification } from '../../application/courses/course-notifications.job.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { resolveVapidKeys } from '../../infrastructure/push/vapid-keys.ts';
import { createWebPushSender } from '../../infrastructure/push/web-push-sender.ts';
import { browserKeys, readVapid, startPushService } from '../support/push-service.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

type PushCounts = { sent: number; failed: number; skipped: number; skippedFor: Record<string, number> };
type History = { items: { id: string; kind: string; sent: number; skipped: number; push: PushCounts }[] };

/**
 * Issue 16 item 4 over the API: a person's browsers are kept as events (the endpoint and keys
 * encrypted with the person's key, decision 0019) and in the push read model; a course notification
 * reaches them through pg-boss jobs as standard Web Push, at a push service started here, encrypted
 * (aes128gcm) and signed (VAPID) so that only the browser reads it: the test decrypts it with the
 * browser's keys. Only people with push on whose consents allow it get one, each browser once even
 * when the job is retried, and a browser the push service says is gone (410) is removed.
 */
describe('push notifications', () => {
  let p: TestPlatform;
  let service: Awaited<ReturnType<typeof startPushService>>;
  const tokens: Record<string, string> = {};
  const users: Record<string, number> = {};
  let unit = 0;

  const call = async (who: string | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const response = await p.app.inject({
      method,
      url,
      headers: who ? { authorization: `JWT ${tokens[who]}` } : {},
      ...(payload ? { payload } : {}),
    });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(parsePosition(position));
    return response;
  };
  const subscription = (path: string, keys = browserKeys()) => ({
    keys,
    body: { endpoint: `${service.origin}${path}`, expirationTime: null, keys: { p256dh: keys.p256dh, auth: keys.auth } },
  });
  const devicesOf = async (userId: number) =>
    (await p.db.pg.query<{ endpoint: string }>('select endpoint from rm.push_subscriptions where user_id = $1 order by created_at', [userId])).rows.map((r) =>
      r.endpoint.slice(service.origin.length),
    );
  const streamEvents = async (userId: number) => (await p.store.readStream(`pushdevices-${userId}`)).events.map((e) => ({ type: e.type, data: e.data }));

  beforeAll(async () => {
    service = await startPushService();
    p = await startTestPlatform(
      { PUBLIC_URL: 'https://medilearn.test', PUSH_ENDPOINT_ORIGINS: `https://fcm.googleapis.com, ${service.origin}` },
      { jobs: true },
    );
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    const company = (await call('admin', 'POST', '/api/companies', { name: 'Lekarne', address: 'Cesta 1' })).json() as { id: number };
    unit = ((await call('admin', 'POST', '/api/units', { name: 'A', companyId: company.id })).json() as { id: number }).id;
    for (const name of ['ana', 'bojan', 'cene', 'dora']) {
      users[name] = await p.createUser(name, [{ roleId: ROLE.participant, unitId: unit, companyId: company.id }]);
      tokens[name] = (await p.login(name)).token;
    }
  }, 120_000);

  afterAll(async () => {
    await p?.close();
    await service?.close();
  });

  it('hands out the VAPID public key made on first start and kept in the database', async () => {
    const response = await call(null, 'GET', '/api/push/public-key');
    expect(response.statusCode).toBe(200);
    const { provider, publicKey } = response.json() as { provider: string; publicKey: string };
    expect(provider).toBe('web-push');
    // An uncompressed P-256 point, base64url.
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(publicKey, 'base64url')[0]).toBe(4);
    // Kept: a later start (or another process) resolves the same pair.
    expect((await resolveVapidKeys(p.db.pg, undefined)).publicKey).toBe(publicKey);
    const stored = await p.db.pg.query<{ value: string }>("select value from public.app_secrets where name = 'vapid'");
    expect(JSON.parse(stored.rows[0]?.value ?? '{}')).toMatchObject({ publicKey });
  });

  it('keeps a person’s browsers as events and in the read model: subscribe, the same again, unsubscribe, moved to another account', async () => {
    const a = subscription('/push/ana-a');
    expect((await call(null, 'POST', '/api/users/me/push-subscriptions', a.body)).statusCode).toBe(401);
    // Keys that are not a browser's, and an endpoint of no configured push service, are refused on their fields.
    const bad = await call('ana', 'POST', '/api/users/me/push-subscriptions', { ...a.body, keys: { p256dh: 'abc', auth: a.body.keys.auth } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ errors: [{ code: '400', field: 'keys.p256dh', message: 'Ključ naročnine na potisna obvestila ni veljaven.' }] });
    const foreign = await call('ana', 'POST', '/api/users/me/push-subscriptions', { ...a.body, endpoint: 'https://zlobni.example/push/1' });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ errors: [{ field: 'endpoint' }] });
    const internal = await call('ana', 'POST', '/api/users/me/push-subscriptions', { ...a.body, endpoint: 'http://127.0.0.1:5432/' });
    expect(internal.statusCode).toBe(400);

    const first = await call('ana', 'POST', '/api/users/me/push-subscriptions', a.body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ subscribed: true });
    // The UI syncs on every visit: the same subscription again changes nothing.
    const again = await call('ana', 'POST', '/api/users/me/push-subscriptions', a.body);
    expect(again.statusCode).toBe(200);
    expect(again.headers['x-event-position']).toBeUndefined();
    const b = subscription('/push/ana-b');
    await call('ana', 'POST', '/api/users/me/push-subscriptions', b.body);
    expect(await devicesOf(users.ana as number)).toEqual(['/push/ana-a', '/push/ana-b']);
    const events = await streamEvents(users.ana as number);
    expect(events).toEqual([
      { type: 'PushSubscribed', data: expect.objectContaining({ userId: users.ana, endpoint: a.body.endpoint, p256dh: a.keys.p256dh, auth: a.keys.auth }) },
      { type: 'PushSubscribed', data: expect.objectContaining({ endpoint: b.body.endpoint }) },
    ]);
    // The endpoint and keys are the person's data: never in the log in the clear.
    const raw = await p.db.pg.query<{ data: string }>('select data::text as data from es.events where stream_name = $1', [`pushdevices-${users.ana}`]);
    expect(raw.rows).toHaveLength(2);
    for (const row of raw.rows) {
      expect(row.data).not.toContain('/push/ana');
      expect(row.data).not.toContain(a.keys.auth);
    }

    // They are the person's: in the export of their data (decision 0019).
    const exported = (await call('ana', 'GET', '/api/users/me/personal-data')).json() as { events: { stream: string; type: string }[] };
    expect(exported.events.filter((e) => e.stream === `pushdevices-${users.ana}`).map((e) => e.type)).toEqual(['PushSubscribed', 'PushSubscribed']);

    // Unsubscribing: once removed, a second time removes nothing.
    expect((await call('ana', 'DELETE', '/api/users/me/push-subscriptions', { endpoint: b.body.endpoint })).json()).toEqual({ removed: true });
    expect((await call('ana', 'DELETE', '/api/users/me/push-subscriptions', { endpoint: b.body.endpoint })).json()).toEqual({ removed: false });
    expect(await devicesOf(users.ana as number)).toEqual(['/push/ana-a']);
    expect((await streamEvents(users.ana as number)).at(-1)).toEqual({
      type: 'PushUnsubscribed',
      data: { userId: users.ana, subscriptionId: expect.any(String), reason: 'user' },
    });

    // One browser, one person: Cene signs in on the browser Ana used, and it is his now.
    const shared = subscription('/push/shared');
    await call('ana', 'POST', '/api/users/me/push-subscriptions', shared.body);
    await call('cene', 'POST', '/api/users/me/push-subscriptions', shared.body);
    expect(await devicesOf(users.ana as number)).toEqual(['/push/ana-a']);
    expect(await devicesOf(users.cene as number)).toEqual(['/push/shared']);
    expect((await streamEvents(users.ana as number)).at(-1)).toMatchObject({ type: 'PushUnsubscribed', data: { reason: 'moved' } });
    await call('cene', 'DELETE', '/api/users/me/push-subscriptions', { endpoint: shared.body.endpoint });
  });

  it('POST /api/users/onesignal: 1 switches push on, 0 off', async () => {
    expect((await call('dora', 'POST', '/api/users/onesignal', { onesignalEnabled: 1 })).json()).toEqual({ onesignalEnabled: 1 });
    expect(((await call('dora', 'GET', '/api/users/me')).json() as { onesignalEnabled: number }).onesignalEnabled).toBe(1);
    expect((await call('dora', 'POST', '/api/users/onesignal', { onesignalEnabled: 0 })).json()).toEqual({ onesignalEnabled: 0 });
    expect(((await call('dora', 'GET', '/api/users/me')).json() as { onesignalEnabled: number }).onesignalEnabled).toBe(0);
  });

  it('pushes a course notification to each browser of those with push on whose consents allow it, once, encrypted and signed; a gone browser is removed', async () => {
    const keys = {
      anaA: subscription('/push/ana-a-2'),
      anaB: subscription('/push/ana-b-2'),
      bojan: subscription('/push/bojan'),
      cene: subscription('/push/cene'),
      dora: subscription('/push/dora'),
    };
    // Ana: push on, two browsers; the second's push service fails once, so the job is retried.
    await call('ana', 'DELETE', '/api/users/me/push-subscriptions', { endpoint: `${service.origin}/push/ana-a` });
    await call('ana', 'POST', '/api/users/me/push-subscriptions', keys.anaA.body);
    await call('ana', 'POST', '/api/users/me/push-subscriptions', keys.anaB.body);
    await call('ana', 'POST', '/api/users/onesignal', { onesignalEnabled: 1 });
    service.answer('/push/ana-b-2', [500, 201]);
    // Bojan: push on, but he withdraws the communications consent (decision 0013: push needs 1 and 4).
    await call('bojan', 'POST', '/api/users/me/push-subscriptions', keys.bojan.body);
    await call('bojan', 'POST', '/api/users/onesignal', { onesignalEnabled: 1 });
    expect((await call('bojan', 'POST', '/api/users/me/consents/4/withdraw')).statusCode).toBe(200);
    // Cene: a browser, but push off.
    await call('cene', 'POST', '/api/users/me/push-subscriptions', keys.cene.body);
    await call('cene', 'POST', '/api/users/onesignal', { onesignalEnabled: 0 });
    // Dora: push on; her browser unsubscribed meanwhile, so its push service answers 410 Gone.
    await call('dora', 'POST', '/api/users/me/push-subscriptions', keys.dora.body);
    await call('dora', 'POST', '/api/users/onesignal', { onesignalEnabled: 1 });
    service.answer('/push/dora', [410]);

    const created = await call('admin', 'POST', '/api/courses', {
      type: 3,
      title: 'Higiena rok',
      description: 'Izobraževanje za preizkus potisnih obvestil udeležencem.',
      cover: '/c.svg',
      creditPoints: 1,
      audience: { unitIds: [unit] },
    });
    const courseId = (created.json() as { id: number }).id;
    await call('admin', 'POST', `/api/courses/${courseId}/blocks`, { block: { kind: 'points', name: 'Točke', points: 1 } });
    await call('admin', 'POST', `/api/courses/${courseId}/publish`);
    const sent = await call('admin', 'POST', `/api/courses/${courseId}/notifications`, {
      subject: 'Nova vsebina v izobraževanju',
      message: 'Dodali smo poglavje o razkuževanju.\n\nVabljeni k ogledu.',
    });
    expect(sent.statusCode, sent.body).toBe(202);

    const [toA] = await service.waitFor('/push/ana-a-2');
    await service.waitFor('/push/ana-b-2', 2, 60_000);
    await service.waitFor('/push/dora');

    // What the push service got: an encrypted body (aes128gcm), a time to live, and the platform's VAPID signature for its origin.
    const publicKey = ((await call(null, 'GET', '/api/push/public-key')).json() as { publicKey: string }).publicKey;
    expect(toA?.headers['content-encoding']).toBe('aes128gcm');
    expect(toA?.headers['content-type']).toBe('application/octet-stream');
    expect(Number(toA?.headers.ttl)).toBeGreaterThan(0);
    const vapid = readVapid(toA?.headers.authorization);
    expect(vapid).toMatchObject({
      key: publicKey,
      valid: true,
      header: { alg: 'ES256' },
      claims: { aud: service.origin, sub: 'mailto:no-reply@medilearn.si' },
    });
    expect(vapid.claims.exp * 1000).toBeGreaterThan(Date.now());
    expect(toA?.body.toString('utf8')).not.toContain('razkuževanju');
    // Only the browser reads it: the title, the text and where a tap leads (the course, with its query).
    const payload = JSON.parse(keys.anaA.keys.decrypt(toA?.body as Buffer)) as Record<string, string>;
    expect(payload).toEqual({
      title: 'Nova vsebina v izobraževanju',
      body: 'Dodali smo poglavje o razkuževanju. Vabljeni k ogledu.',
      path: `/izobrazevanja/${courseId}?vir=obvestilo`,
      tag: expect.any(String),
    });
    const second = service.to('/push/ana-b-2');
    expect(JSON.parse(keys.anaB.keys.decrypt(second[1]?.body as Buffer))).toMatchObject({ title: 'Nova vsebina v izobraževanju' });

    // The history counts by push too: Ana reached, Dora's browser gone, Bojan skipped for want of consent; Cene (push off) not tried.
    let history: History | null = null;
    for (let i = 0; i < 100; i += 1) {
      history = (await call('admin', 'GET', `/api/courses/${courseId}/notifications`)).json() as History;
      const push = history.items[0]?.push;
      if (push && push.sent + push.failed + push.skipped >= 3) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(history?.items[0]?.push).toEqual({ sent: 1, failed: 1, skipped: 1, skippedFor: { 'no-consent': 1 } });
    expect(service.to('/push/bojan')).toHaveLength(0);
    expect(service.to('/push/cene')).toHaveLength(0);
    // Each browser once: A once though the job ran twice; B failed once, then once more and reached.
    expect(service.to('/push/ana-a-2')).toHaveLength(1);
    expect(service.to('/push/ana-b-2')).toHaveLength(2);
    // Once the retried job has recorded its second browser (the push service may answer before the record is written).
    for (let i = 0; i < 100 && (await p.db.pg.query('select 1 from rm.push_log where user_id = $1 and devices = 2', [users.ana])).rowCount === 0; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const log = await p.db.pg.query('select status, devices, attempts, last_error from rm.push_log where user_id = $1', [users.ana]);
    expect(log.rows).toEqual([{ status: 'sent', devices: 2, attempts: 3, last_error: 'push service answered 500' }]);

    // The gone browser is removed: an event on Dora's stream, and gone from the read model.
    expect((await streamEvents(users.dora as number)).at(-1)).toMatchObject({ type: 'PushUnsubscribed', data: { reason: 'gone' } });
    const head = await p.store.headPosition();
    if (head) await p.settleAll(head);
    expect(await devicesOf(users.dora as number)).toEqual([]);

    // The job run once more (a restart, a duplicate) sends nothing new.
    const notificationId = history?.items[0]?.id as string;
    const requested = (await p.store.readStream(`course-${courseId}`)).events.find((e) => e.type === 'CourseNotificationRequested');
    const keys2 = await resolveVapidKeys(p.db.pg, undefined);
    const run = pushNotification({
      store: p.store,
      db: p.db.slonik,
      log: silentLog,
      mailer: { send: async () => ({ messageId: 'x' }) },
      jobs: { send: async () => null },
      publicUrl: 'https://medilearn.test',
      now: () => new Date(),
      push: createWebPushSender({ keys: keys2, subject: 'mailto:a@b.si', allowedOrigins: [service.origin] }),
    });
    const before = service.received.length;
    await run(
      { streamName: `course-${courseId}`, eventId: requested?.eventId, userId: users.ana },
      { id: pushMessageId(notificationId, users.ana as number), retryCount: 0 },
    );
    await run({ streamName: `course-${courseId}`, eventId: requested?.eventId, userId: users.bojan }, { id: 'x', retryCount: 0 });
    expect(service.received.length).toBe(before);
    // Push switched off after the recipients were found: the job checks again, sends nothing and says why.
    await run({ streamName: `course-${courseId}`, eventId: requested?.eventId, userId: users.cene }, { id: 'y', retryCount: 0 });
    expect(service.to('/push/cene')).toHaveLength(0);
    const skipped = await p.store.readStream(`pushdelivery-${pushMessageId(notificationId, users.cene as number)}`);
    expect(skipped.events.map((e) => ({ type: e.type, data: e.data }))).toEqual([
      { type: 'PushSkipped', data: { userId: users.cene, kind: 'course-manual', triggeredBy: notificationId, reason: 'push-off' } },
    ]);
  }, 120_000);

  it('erasing a person (decision 0019) forgets their browsers: gone from the read model, unreadable in the log', async () => {
    const erased = await call('admin', 'DELETE', `/api/users/${users.cene}/personal-data`);
    expect(erased.statusCode, erased.body).toBe(200);
    expect(await devicesOf(users.cene as number)).toEqual([]);
    const subscribed = (await streamEvents(users.cene as number)).filter((e) => e.type === 'PushSubscribed');
    expect(subscribed.length).toBeGreaterThan(0);
    for (const event of subscribed) expect(event.data).toMatchObject({ endpoint: 'izbrisan uporabnik', auth: 'izbrisan uporabnik' });
  });
});
