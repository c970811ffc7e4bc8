import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleCommand } from '../../application/shared/handle-command.ts';
import { registerUser } from '../../application/users/register-user.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { userDecider } from '../../domain/users/user.decide.ts';
import { userStream } from '../../domain/users/user.ts';
import { formatPosition } from '../../infrastructure/event-store/event-store.port.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

describe('platform API and command handling', () => {
  let p: TestPlatform;

  beforeAll(async () => {
    // The product's own wait (2 s default): a loaded CI machine's projections lagged a 300 ms wait.
    p = await startTestPlatform({ READ_WAIT_MS: '2500', FEATURE_ZOOM: 'true' });
  });

  afterAll(async () => p.close());

  it('sends the security headers with every answer, refusals and unknown paths included', async () => {
    for (const [url, status] of [
      ['/api/health', 200],
      ['/api/user-courses', 401],
      ['/api/nothing-here', 404],
    ] as const) {
      const answer = await p.app.inject({ method: 'GET', url });
      expect(answer.statusCode).toBe(status);
      expect(answer.headers['content-security-policy']).toContain("script-src 'self'");
      expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'self'");
      expect(answer.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(answer.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('serves health, the feature flags of the spec (overridable), version, metrics and the OpenAPI document', async () => {
    expect((await p.app.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({ status: 'ok', database: 'ok' });
    expect((await p.app.inject({ method: 'GET', url: '/api/features' })).json()).toEqual({
      vimeoUpload: true,
      s3Upload: false,
      zoom: true,
      interactr: true,
      liveCourses: true,
      newsletters: true,
      deleteAccount: false,
      externalId: true,
    });
    expect((await p.app.inject({ method: 'GET', url: '/api/version' })).json()).toEqual({ version: '3.5.3' });
    const metrics = await p.app.inject({ method: 'GET', url: '/api/metrics' });
    expect(metrics.headers['content-type']).toContain('text/plain');
    expect(metrics.body).toMatch(/projection_lag_events\{projection="users",generation="\d+"\} \d+/);
    expect(metrics.body).toMatch(/projection_last_error_timestamp_seconds\{projection="organisation"/);
    const docs = await p.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(docs.statusCode).toBe(200);
    expect(Object.keys((docs.json() as { paths: object }).paths)).toEqual(
      expect.arrayContaining(['/api/auth/login', '/api/users/me', '/api/auth/token/{userId}']),
    );
    expect((await p.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBeLessThan(400);
  });

  it('answers an unknown API path with 404 in the error shape', async () => {
    const response = await p.app.inject({ method: 'GET', url: '/api/no/such/thing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ errors: [{ code: '404', message: 'Vir ne obstaja.', field: null }] });
  });

  it('lets a read wait for the write it follows (X-Min-Position), and says when it had to give up', async () => {
    const userId = await p.createUser('beroca');
    const { token } = await p.login('beroca');
    const granted = await handleCommand(p.store, {
      streamName: userStream(userId),
      decider: userDecider,
      command: { type: 'GrantRole', role: { roleId: ROLE.manager, unitId: 7, companyId: 3 } },
      metadata: {},
    });
    const fresh = await p.app.inject({
      method: 'GET',
      url: '/api/users/me',
      headers: { authorization: `JWT ${token}`, 'x-min-position': formatPosition(granted.position!) },
    });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers['x-read-stale']).toBeUndefined();
    expect((fresh.json() as { userRoles: unknown[] }).userRoles).toEqual([expect.objectContaining({ role_id: 2, unit_id: 7, company_id: 3 })]);
    const future = { commit: granted.position!.commit + 1_000_000n, prepare: 1n };
    const stale = await p.app.inject({
      method: 'GET',
      url: '/api/users/me',
      headers: { authorization: `JWT ${token}`, 'x-min-position': formatPosition(future) },
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.headers['x-read-stale']).toBe('true');
  });

  it('loses no update when many commands hit one stream at once', async () => {
    const userId = await p.createUser('mnogovlog');
    await Promise.all(
      Array.from({ length: 25 }, (_, unitId) =>
        handleCommand(p.store, {
          streamName: userStream(userId),
          decider: userDecider,
          command: { type: 'GrantRole', role: { roleId: ROLE.participant, unitId: unitId + 1, companyId: 1 } },
          metadata: {},
        }),
      ),
    );
    const stream = await p.store.readStream(userStream(userId));
    const granted = stream.events.filter((e) => e.type === 'UserRoleGranted').map((e) => (e.data as { unitId: number }).unitId);
    expect(granted.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it('lets exactly one of many concurrent registrations take a username or an e-mail', async () => {
    const attempt = (i: number) =>
      registerUser(p, { username: 'Enkratna', email: `enkratna${i}@test.si`, firstName: 'E', lastName: 'N', password: 'Geslo1234!' }, [], {}).then(
        () => 'ok',
        (error: unknown) => (error instanceof DomainError ? error.code : String(error)),
      );
    const byUsername = await Promise.all(Array.from({ length: 10 }, (_, i) => attempt(i)));
    expect(byUsername.filter((r) => r === 'ok')).toHaveLength(1);
    expect(byUsername.filter((r) => r === '422013')).toHaveLength(9);

    const byEmail = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        registerUser(p, { username: `drug${i}`, email: 'SKUPNA@test.si', firstName: 'E', lastName: 'N', password: 'Geslo1234!' }, [], {}).then(
          () => 'ok',
          (error: unknown) => (error instanceof DomainError ? error.code : String(error)),
        ),
      ),
    );
    expect(byEmail.filter((r) => r === 'ok')).toHaveLength(1);
    expect(byEmail.filter((r) => r === '422005')).toHaveLength(9);
    // The losers' usernames were released again and can be registered.
    const later = await registerUser(p, { username: 'drug3', email: 'drug3@test.si', firstName: 'E', lastName: 'N', password: 'Geslo1234!' }, [], {}).catch(
      (e) => e,
    );
    const winner = byEmail.indexOf('ok');
    if (winner === 3) expect(later).toBeInstanceOf(DomainError);
    else expect(later).toMatchObject({ userId: expect.any(Number) });
  });

  it('lets a user registered a moment ago log in at once (login reads the claim and user streams, not a read model)', async () => {
    await p.runner.stop();
    try {
      await registerUser(p, { username: 'takoj', email: 'takoj@test.si', firstName: 'T', lastName: 'K', password: 'Geslo1234!' }, [], {});
      const response = await p.app.inject({ method: 'POST', url: '/api/auth/login', payload: { usernameOrEmail: 'takoj', password: 'Geslo1234!' } });
      expect(response.statusCode).toBe(200);
    } finally {
      await p.runner.start();
    }
  });
});
