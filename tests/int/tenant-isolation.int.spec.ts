import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { SAMPLE_PNG } from '../support/sample-png.ts';
import { startSmtpSink, tokenIn } from '../support/smtp-sink.ts';
import { startTestPlatform, TEST_PASSWORD, type TestPlatform } from '../support/test-platform.ts';

type Sink = Awaited<ReturnType<typeof startSmtpSink>>;
type Errors = { errors: { code: string; field: string | null; message: string }[] };

/**
 * Issue 31: competing companies on one platform. Each finding of the outside test, replayed: a
 * client naming another company's file, a client's course reaching another company's nurses by
 * profession, a person joining another company's unit, and links that outlived what they vouched for.
 */
describe('tenant isolation (issue 31)', () => {
  let p: TestPlatform;
  let smtp: Sink;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};

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
  const id = async (who: string, url: string, payload: object) => {
    const response = await call(who, 'POST', url, payload);
    if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    return (response.json() as { id: number }).id;
  };
  const person = async (
    username: string,
    roles: { roleId: (typeof ROLE)[keyof typeof ROLE]; unitId: number; companyId: number | null }[],
    professionId?: number,
  ) => {
    const userId = await p.createUser(username, roles);
    tokens[username] = (await p.login(username)).token;
    if (professionId) {
      const me = await call(username, 'PUT', '/api/users/me', { firstName: 'Test', lastName: username, phone: '041 000 000', professionId });
      if (me.statusCode !== 200) throw new Error(`profile: ${me.body}`);
    }
    return userId;
  };
  const course = (title: string, extra: object = {}) => ({
    type: 4,
    title,
    description: 'Izobraževanje za preverjanje ločenosti podjetij.',
    cover: '/c.jpg',
    creditPoints: 1,
    ...extra,
  });
  const visibleTo = async (who: string) => ((await call(who, 'GET', '/api/user-courses')).json() as { items: { id: number }[] }).items.map((c) => c.id);

  beforeAll(async () => {
    smtp = await startSmtpSink();
    p = await startTestPlatform({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://medilearn.test' }, { jobs: true });
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    ids.companyA = await id('admin', '/api/companies', { name: 'Farma A', address: 'Cesta 1' });
    ids.companyB = await id('admin', '/api/companies', { name: 'Farma B', address: 'Cesta 2' });
    ids.a1 = await id('admin', '/api/units', { name: 'Enota A1', companyId: ids.companyA });
    ids.a2 = await id('admin', '/api/units', { name: 'Enota A2', companyId: ids.companyA });
    ids.b1 = await id('admin', '/api/units', { name: 'Enota B1', companyId: ids.companyB });
    for (const unit of [ids.a1, ids.a2, ids.b1]) await call('admin', 'POST', `/api/units/${unit}/publish`);
    ids.nurse = await id('admin', '/api/professions', { name: 'Medicinska sestra' });

    ids.clientA = await person('narocnika', [{ roleId: ROLE.client, unitId: ids.a1, companyId: ids.companyA }]);
    ids.nurseA = await person('sestraa', [{ roleId: ROLE.participant, unitId: ids.a1, companyId: ids.companyA }], ids.nurse);
    ids.nurseB = await person('sestrab', [{ roleId: ROLE.participant, unitId: ids.b1, companyId: ids.companyB }], ids.nurse);
    ids.nurseNone = await person('sestrabrez', [], ids.nurse);

    // Company B's internal course, with an attachment; company A's internal course.
    ids.courseB = await id('admin', '/api/courses', course('Notranje B', { audience: { unitIds: [ids.b1] } }));
    const upload = await p.app.inject({
      method: 'POST',
      url: '/api/files?name=zaupno-b.png',
      headers: { authorization: `JWT ${tokens.admin}`, 'content-type': 'image/png' },
      payload: SAMPLE_PNG,
    });
    ids.fileB = (upload.json() as { id: number }).id;
    await call('admin', 'POST', `/api/courses/${ids.courseB}/attachments`, { fileId: ids.fileB });
    ids.courseA = await id('admin', '/api/courses', course('Notranje A', { audience: { unitIds: [ids.a1] } }));
    for (const c of [ids.courseB, ids.courseA]) await call('admin', 'POST', `/api/courses/${c}/publish`);
  }, 120_000);

  afterAll(async () => {
    await p?.close();
    await smtp?.close();
  });

  it("refuses a client's attachment naming another company's file, and never serves that file to them", async () => {
    const own = await id('narocnika', '/api/courses', course('Tečaj naročnika A', { audience: { unitIds: [ids.a1] } }));
    const refused = await call('narocnika', 'POST', `/api/courses/${own}/attachments`, { fileId: ids.fileB });
    expect(refused.statusCode).toBe(400);
    expect((refused.json() as Errors).errors[0]).toMatchObject({ code: '400', field: 'fileId' });
    const stored = (await call('narocnika', 'GET', `/api/courses/${own}`)).json() as { attachments: unknown[] };
    expect(stored.attachments).toEqual([]);
    expect((await call('narocnika', 'GET', `/api/files/${ids.fileB}`)).statusCode).toBe(404);
    // A company signature image is no file of theirs to name either.
    expect((await call('narocnika', 'PUT', `/api/units/${ids.a1}/signature`, { name: 'Ana', role: 'Direktorica', imageFileId: ids.fileB })).statusCode).toBe(
      400,
    );
  });

  it("keeps a client's profession-only course inside its company: not seen, not counted, not mailed elsewhere", async () => {
    const byProfession = { audience: { byProfession: true, professionIds: [ids.nurse] } };
    const clientCourse = await id('narocnika', '/api/courses', course('Za sestre podjetja A', byProfession));
    await id('narocnika', `/api/courses/${clientCourse}/blocks`, { block: { kind: 'points', name: 'Točke', points: 1 } });
    expect((await call('narocnika', 'POST', `/api/courses/${clientCourse}/publish`)).statusCode).toBe(200);

    expect(await visibleTo('sestraa')).toContain(clientCourse);
    expect(await visibleTo('sestrab')).not.toContain(clientCourse);
    expect(await visibleTo('sestrabrez')).not.toContain(clientCourse);
    expect((await call('sestrab', 'GET', `/api/user-courses/${clientCourse}`)).statusCode).toBe(404);
    expect((await call('sestrab', 'POST', `/api/user-courses/${clientCourse}/start`)).statusCode).toBe(404);
    // The live count the client sees counts its own company's nurses only; the admin's the same course everyone would reach.
    const count = async (who: string) =>
      ((await call(who, 'POST', '/api/courses/audience-count', { public: false, ...byProfession })).json() as { count: number }).count;
    expect(await count('narocnika')).toBe(1);
    expect(await count('admin')).toBe(3);

    // Its notification goes to the company's nurse only.
    const sent = await call('narocnika', 'POST', `/api/courses/${clientCourse}/notifications`, { subject: 'Nov tečaj za sestre', message: 'Vabljeni.' });
    expect(sent.statusCode, sent.body).toBe(202);
    await smtp.waitFor('sestraa@test.si', /Nov tečaj za sestre/, 30_000);
    // Give any other recipient's job the time the first one took, then count who was written to.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const notifications = (await call('narocnika', 'GET', `/api/courses/${clientCourse}/notifications`)).json() as {
      items: { sent: number; failed: number; skipped: number }[];
    };
    expect(notifications.items.map((n) => n.sent + n.failed + n.skipped)).toEqual([1]);
    expect(smtp.received.filter((m) => /Nov tečaj za sestre/.test(m.subject)).map((m) => m.to)).toEqual(['sestraa@test.si']);

    expect((await call('sestraa', 'POST', `/api/user-courses/${clientCourse}/start`)).statusCode).toBe(200);
    const participants = (await call('narocnika', 'GET', `/api/courses/${clientCourse}/participants`)).json() as { items: { userId: number }[] };
    expect(participants.items.map((r) => r.userId)).toEqual([ids.nurseA]);
  });

  it("lets nobody into another company's unit by joining it, nor into its internal courses", async () => {
    for (const who of ['sestrab', 'sestrabrez']) {
      const joined = await call(who, 'POST', `/api/units/${ids.a1}/join`);
      expect(joined.statusCode).toBe(403);
      expect(await visibleTo(who)).not.toContain(ids.courseA);
    }
    const me = (await call('sestrab', 'GET', '/api/users/me')).json() as { userRoles: { unit_id: number }[] };
    expect(me.userRoles.map((r) => r.unit_id)).toEqual([ids.b1]);
    // Within one's own company a published unit is joined.
    expect((await call('sestraa', 'POST', `/api/units/${ids.a2}/join`)).statusCode).toBe(200);
    expect((await call('sestraa', 'POST', `/api/units/${ids.a2}/leave`)).statusCode).toBe(200);
  });

  it('voids a reset link when the password changes, and login links when the password changes or the account is switched off and on', async () => {
    const userId = await person('mojca', []);
    expect((await call(null, 'POST', '/api/auth/password-reset', { email: 'mojca@test.si' })).statusCode).toBeLessThan(300);
    const resetLink = tokenIn(await smtp.waitFor('mojca@test.si', /Ponastavitev gesla/, 30_000));
    const loginLink = ((await call('admin', 'POST', `/api/users/${userId}/login-tokens`)).json() as { token: string }).token;
    const changed = await call('mojca', 'PUT', '/api/users/me/password', {
      currentPassword: TEST_PASSWORD,
      password: 'NovoGeslo77',
      passwordConfirmation: 'NovoGeslo77',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const reset = await call(null, 'POST', '/api/auth/password-reset/complete', {
      token: resetLink,
      password: 'Vsiljivec1',
      passwordConfirmation: 'Vsiljivec1',
    });
    expect(reset.statusCode).toBe(401);
    expect((await call(null, 'POST', '/api/auth/token', { token: loginLink })).statusCode).toBe(401);
    expect((await p.app.inject({ method: 'POST', url: '/api/auth/login', payload: { usernameOrEmail: 'mojca', password: 'NovoGeslo77' } })).statusCode).toBe(
      200,
    );

    const second = ((await call('admin', 'POST', `/api/users/${userId}/login-tokens`)).json() as { token: string }).token;
    expect((await call('admin', 'POST', `/api/users/${userId}/deactivate`)).statusCode).toBe(200);
    expect((await call('admin', 'POST', `/api/users/${userId}/activate`)).statusCode).toBe(200);
    expect((await call(null, 'POST', '/api/auth/token', { token: second })).statusCode).toBe(401);
    // A newer link voids the older one; the newer works.
    const older = ((await call('admin', 'POST', `/api/users/${userId}/login-tokens`)).json() as { token: string }).token;
    const newer = ((await call('admin', 'POST', `/api/users/${userId}/login-tokens`)).json() as { token: string }).token;
    expect((await call(null, 'POST', '/api/auth/token', { token: older })).statusCode).toBe(401);
    expect((await call(null, 'POST', '/api/auth/token', { token: newer })).statusCode).toBe(200);
  });
});
