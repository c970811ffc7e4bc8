import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENT_TEXTS } from '../../domain/consents/consent.rules.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

describe('the required-consent gate does not trust a lagging read model', () => {
  let p: TestPlatform;
  let token: string;

  beforeAll(async () => {
    p = await startTestPlatform();
    await p.createUser('hitri', [{ roleId: ROLE.participant, unitId: 1, companyId: null }], undefined, { consents: false });
    token = (await p.login('hitri')).token;
  });

  afterAll(async () => p.close());

  it('lets a user in on the very next request after giving consents, even before the read model has them', async () => {
    const get = () => p.app.inject({ method: 'GET', url: '/api/user-courses', headers: { authorization: `JWT ${token}` } });
    expect((await get()).statusCode).toBe(403);
    // No projection runs from here on: the consents read model stays without them.
    await p.platform.runner.stop();
    const given = await p.app.inject({
      method: 'POST',
      url: '/api/users/me/consents',
      headers: { authorization: `JWT ${token}` },
      payload: { consents: CONSENT_TEXTS.map((t) => ({ type: t.type, textVersion: t.version })) },
    });
    expect(given.statusCode).toBe(200);
    const next = await get();
    expect(next.statusCode, next.body).toBe(200);
  });
});
