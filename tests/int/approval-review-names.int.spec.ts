import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

/**
 * Issue 36 item 2: an approver sees the content as participants will, so the review names the
 * audience (professions with whether they may prescribe, units with their companies, companies,
 * groups), the prerequisites and the tags of the version submitted, for an approver who holds only
 * 1071 and reads no organisation lists; nobody else learns them through it.
 */
describe('the names of what a version under approval names', () => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};

  const call = async (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const response = await p.app.inject({ method, url, headers: { authorization: `JWT ${tokens[who]}` }, ...(payload ? { payload } : {}) });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(parsePosition(position));
    return response;
  };
  const made = async (url: string, payload: object) => {
    const response = await call('admin', 'POST', url, payload);
    expect(response.statusCode, response.body).toBe(201);
    return (response.json() as { id: number }).id;
  };

  beforeAll(async () => {
    p = await startTestPlatform();
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    for (const name of ['medic', 'tujec']) {
      ids[name] = await p.createUser(name, [{ roleId: ROLE.approver, unitId: 0, companyId: null }]);
      tokens[name] = (await p.login(name)).token;
    }
    ids.company = await made('/api/companies', { name: 'Lekarne Center', address: 'Cesta 1' });
    ids.unit = await made('/api/units', { name: 'Lekarna Bežigrad', companyId: ids.company });
    ids.group = await made('/api/community-groups', { name: 'Ljubljanske lekarne', unitIds: [ids.unit] });
    ids.doctor = await made('/api/professions', { name: 'Zdravnik', needsLicenceNumber: false, mayPrescribe: true });
    ids.nurse = await made('/api/professions', { name: 'Medicinska sestra', needsLicenceNumber: false, mayPrescribe: false });
    ids.tag = await made('/api/tags', { kind: 'course', name: 'Kardiologija' });
    const base = { description: 'Izobraževanje, ki ga pregledajo odobritelji pred objavo.', cover: '/c.svg', creditPoints: 1 };
    ids.before = await made('/api/courses', { ...base, type: 3, title: 'Osnove antikoagulacije' });
    ids.course = await made('/api/courses', {
      ...base,
      type: 3,
      title: 'Antikoagulanti v lekarni',
      audience: { byProfession: true, professionIds: [ids.doctor, ids.nurse], unitIds: [ids.unit], companyIds: [ids.company], groupIds: [ids.group] },
      prerequisites: [ids.before],
      tagIds: [ids.tag],
    });
    await made(`/api/courses/${ids.course}/blocks`, { block: { kind: 'article', name: 'Besedilo', html: '<p>Vsebina</p>' } });
    const settings = await call('admin', 'PUT', '/api/approval-settings/platform', {
      enabled: true,
      codePrefix: 'MEDI',
      steps: [{ key: 'medical', label: 'Medicinski pregled', approverIds: [ids.medic] }],
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const { contentHash } = (await call('admin', 'GET', `/api/courses/${ids.course}/approval`)).json() as { contentHash: string };
    const submitted = await call('admin', 'POST', `/api/courses/${ids.course}/approval/submit`, { contentHash });
    expect(submitted.statusCode, submitted.body).toBe(200);
  }, 120_000);

  afterAll(async () => p?.close());

  it('names the audience, the prerequisites and the tags for the named approver', async () => {
    // The approver reads no organisation lists of their own.
    expect((await call('medic', 'GET', '/api/companies')).statusCode).toBe(403);
    const response = await call('medic', 'GET', `/api/courses/${ids.course}/approval/versions/1/names`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      professions: [
        { id: ids.nurse, name: 'Medicinska sestra', mayPrescribe: false },
        { id: ids.doctor, name: 'Zdravnik', mayPrescribe: true },
      ],
      units: [{ id: ids.unit, name: 'Lekarna Bežigrad', companyName: 'Lekarne Center' }],
      companies: [{ id: ids.company, name: 'Lekarne Center' }],
      groups: [{ id: ids.group, name: 'Ljubljanske lekarne' }],
      professionGroups: [],
      courses: [{ id: ids.before, name: 'Osnove antikoagulacije' }],
      tags: [{ id: ids.tag, name: 'Kardiologija' }],
    });
  });

  it('answers 404 to an approver the scope does not name, and for a version never submitted', async () => {
    expect((await call('tujec', 'GET', `/api/courses/${ids.course}/approval/versions/1/names`)).statusCode).toBe(404);
    expect((await call('medic', 'GET', `/api/courses/${ids.course}/approval/versions/2/names`)).statusCode).toBe(404);
  });
});
