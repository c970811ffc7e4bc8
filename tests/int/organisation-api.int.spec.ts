import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleCommand } from '../../application/shared/handle-command.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { userDecider } from '../../domain/users/user.decide.ts';
import { userStream } from '../../domain/users/user.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

/** A PUT replaces the whole unit: its optional fields, sent empty. */
const NO_UNIT_DETAILS = { tagId: null, address: null, city: null, zip: null, region: null, vat: null, externalId: null, syncDestination: null };

describe('organisation API', () => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  let companyA: number;
  let companyB: number;
  let unitA1: number;
  let unitA2: number;
  let unitB1: number;

  /** A request as a user; a command's position is waited for, as the UI's next read would. */
  const call = async (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const response = await p.app.inject({ method, url, headers: { authorization: `JWT ${tokens[who]}` }, ...(payload ? { payload } : {}) });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settle(parsePosition(position));
    return response;
  };
  const id = (response: { json(): unknown }) => (response.json() as { id: number }).id;

  beforeAll(async () => {
    p = await startTestPlatform();
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    await p.createUser('urednica', [{ roleId: ROLE.editor, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    tokens.editor = (await p.login('urednica')).token;
    companyA = id(await call('admin', 'POST', '/api/companies', { name: 'Podjetje A', address: 'Cesta 1', zip: '1000' }));
    companyB = id(await call('admin', 'POST', '/api/companies', { name: 'Podjetje B', address: 'Cesta 2' }));
    unitA1 = id(await call('admin', 'POST', '/api/units', { name: 'A1', companyId: companyA }));
    unitA2 = id(await call('admin', 'POST', '/api/units', { name: 'A2', companyId: companyA }));
    unitB1 = id(await call('admin', 'POST', '/api/units', { name: 'B1', companyId: companyB }));
    const people: [string, number, number, number | null][] = [
      ['vodja', ROLE.manager, unitA1, companyA],
      ['direktor', ROLE.director, 0, companyA],
      ['racunovodja', ROLE.accountant, unitA1, companyA],
      ['udelezenec', ROLE.participant, unitA1, companyA],
    ];
    for (const [name, roleId, unitId, companyId] of people) {
      await p.createUser(name, [{ roleId: roleId as never, unitId, companyId }]);
      tokens[name] = (await p.login(name)).token;
    }
  });

  afterAll(async () => p.close());

  it('lets an admin build the organisation and answers the spec calls: units by company and communities by id', async () => {
    const group = await call('admin', 'POST', '/api/community-groups', { name: 'Vse A', unitIds: [unitA1, unitA2] });
    expect(group.statusCode).toBe(201);
    const units = await call('admin', 'GET', `/api/units?companyIds[]=${companyA}&limit=NO_LIMIT`);
    expect(units.statusCode).toBe(200);
    expect((units.json() as { items: object[] }).items).toEqual([
      expect.objectContaining({ id: unitA1, name: 'A1', company_id: companyA, company_name: 'Podjetje A', groups: ['Vse A'] }),
      expect.objectContaining({ id: unitA2, name: 'A2', company_id: companyA, company_name: 'Podjetje A' }),
    ]);
    const bothStyles = await call('admin', 'GET', `/api/units?companyIds=${companyA}&companyIds=${companyB}&limit=NO_LIMIT`);
    expect((bothStyles.json() as { total: number }).total).toBe(3);
    const communities = await call('admin', 'GET', `/api/communities?filterIds[]=${unitB1}`);
    expect(communities.json()).toEqual({ data: [expect.objectContaining({ id: unitB1, name: 'B1', company_id: companyB, company_name: 'Podjetje B' })] });
    const companies = await call('admin', 'GET', '/api/companies?search=podjetje&sort=name&order=desc&pageSize=1&page=2');
    expect(companies.json()).toEqual({ items: [expect.objectContaining({ name: 'Podjetje A', unitCount: 2 })], total: 2 });
    const detail = await call('admin', 'GET', `/api/companies/${companyA}`);
    expect(detail.json()).toMatchObject({ name: 'Podjetje A', zip: '1000', units: [{ name: 'A1' }, { name: 'A2' }] });
  });

  it('validates as spec §5 says, in Slovenian, and changes nothing on bad input', async () => {
    const zip = await call('admin', 'POST', '/api/companies', { name: 'X', address: 'Y', zip: '10a' });
    expect(zip.statusCode).toBe(400);
    expect(zip.json()).toEqual({ errors: [{ code: '400', message: 'Poštna številka lahko vsebuje le števke', field: 'zip' }] });
    const missing = await call('admin', 'POST', '/api/companies', { name: '', address: '' });
    expect((missing.json() as { errors: { field: string }[] }).errors.map((e) => e.field)).toEqual(['name', 'address']);
    const noCompany = await call('admin', 'POST', '/api/units', { name: 'Z', companyId: 99_999 });
    expect(noCompany.json()).toEqual({ errors: [{ code: '400', message: 'Izbrano podjetje ne obstaja ali ni na voljo (št. 99999).', field: 'companyId' }] });
    const shortGroup = await call('admin', 'POST', '/api/profession-groups', { name: 'ab' });
    expect(shortGroup.json()).toEqual({ errors: [{ code: '400', message: 'Ime skupine mora imeti najmanj 3 znake', field: 'name' }] });
    const companies = await call('admin', 'GET', '/api/companies?pageSize=100');
    expect((companies.json() as { total: number }).total).toBe(2);
  });

  it('refuses a community group name that is taken (42276), also when two creations race', async () => {
    await call('admin', 'POST', '/api/community-groups', { name: 'Zasedeno', unitIds: [] });
    const taken = await call('admin', 'POST', '/api/community-groups', { name: ' zasedeno ', unitIds: [] });
    expect(taken.statusCode).toBe(422);
    expect(taken.json()).toEqual({ errors: [{ code: '42276', message: 'Skupina s tem imenom že obstaja.', field: 'name' }] });
    const raced = await Promise.all(Array.from({ length: 6 }, () => call('admin', 'POST', '/api/community-groups', { name: 'Hkrati', unitIds: [] })));
    expect(raced.map((r) => r.statusCode).sort()).toEqual([201, 422, 422, 422, 422, 422]);
  });

  it('keeps profession group names unique (42276): on creation, on a rename, and when creations race', async () => {
    const first = id(await call('admin', 'POST', '/api/profession-groups', { name: 'Laboratorij' }));
    const taken = await call('admin', 'POST', '/api/profession-groups', { name: ' LABORATORIJ ' });
    expect(taken.json()).toEqual({ errors: [{ code: '42276', message: 'Skupina poklicev s tem imenom že obstaja.', field: 'name' }] });
    const second = id(await call('admin', 'POST', '/api/profession-groups', { name: 'Radiologija' }));
    expect((await call('admin', 'PUT', `/api/profession-groups/${second}`, { name: 'laboratorij' })).statusCode).toBe(422);
    // A group keeps its own name under another case; a rename frees the old name for others.
    expect((await call('admin', 'PUT', `/api/profession-groups/${first}`, { name: 'LABORATORIJ' })).statusCode).toBe(200);
    expect((await call('admin', 'PUT', `/api/profession-groups/${first}`, { name: 'Klinični laboratorij' })).statusCode).toBe(200);
    expect((await call('admin', 'POST', '/api/profession-groups', { name: 'Laboratorij' })).statusCode).toBe(201);
    const raced = await Promise.all(Array.from({ length: 4 }, () => call('admin', 'POST', '/api/profession-groups', { name: 'Hkratna' })));
    expect(raced.map((r) => r.statusCode).sort()).toEqual([201, 422, 422, 422]);
  });

  it('keeps tag names unique per kind and refuses tag management without 1062 with the spec message', async () => {
    expect((await call('admin', 'POST', '/api/tags', { kind: 'unit', name: 'Javna lekarna' })).statusCode).toBe(201);
    expect((await call('admin', 'POST', '/api/tags', { kind: 'unit', name: 'javna LEKARNA' })).statusCode).toBe(409);
    expect((await call('admin', 'POST', '/api/tags', { kind: 'company', name: 'Javna lekarna' })).statusCode).toBe(201);
    const denied = await call('vodja', 'POST', '/api/tags', { kind: 'unit', name: 'Moja' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ errors: [{ code: '403', message: 'Nimate pravic za upravljanje z značkami.', field: null }] });
    expect((await call('editor', 'POST', '/api/tags', { kind: 'course', name: 'Urednikova' })).statusCode).toBe(201);
    const list = await call('admin', 'GET', '/api/tags?kind=unit');
    expect((list.json() as { items: { name: string }[] }).items.map((t) => t.name)).toEqual(['Javna lekarna']);
  });

  it('lets a manager change their own unit but not another, and a director with unit_id 0 every unit of the company', async () => {
    const update = (who: string, unitId: number, name: string, companyId = companyA) =>
      call(who, 'PUT', `/api/units/${unitId}`, { ...NO_UNIT_DETAILS, name, companyId });
    expect((await update('vodja', unitA1, 'A1 prenovljena')).statusCode).toBe(200);
    // A unit outside the manager's reach is answered as missing: its id tells nothing.
    expect((await update('vodja', unitA2, 'ne')).statusCode).toBe(404);
    expect((await update('vodja', unitB1, 'ne', companyB)).statusCode).toBe(404);
    expect((await update('direktor', unitA1, 'A1 direktor')).statusCode).toBe(200);
    expect((await update('direktor', unitA2, 'A2 direktor')).statusCode).toBe(200);
    expect((await update('direktor', unitB1, 'ne', companyB)).statusCode).toBe(404);
    expect((await update('racunovodja', unitA1, 'ne')).statusCode).toBe(403);
    expect((await update('udelezenec', unitA1, 'ne')).statusCode).toBe(403);
    // A manager cannot move their unit to another company: a company outside their reach is refused by name (decision 0047).
    const moved = await update('vodja', unitA1, 'A1', companyB);
    expect(moved.statusCode).toBe(400);
    expect((moved.json() as { errors: { field: string }[] }).errors[0]?.field).toBe('companyId');
    expect((await call('vodja', 'POST', `/api/units/${unitA1}/publish`)).statusCode).toBe(200);
    expect((await call('vodja', 'POST', `/api/units/${unitA2}/publish`)).statusCode).toBe(404);
    expect((await call('admin', 'PUT', '/api/units/999999', { ...NO_UNIT_DETAILS, name: 'x', companyId: companyA })).statusCode).toBe(404);
    const names = (await call('admin', 'GET', `/api/units?companyIds[]=${companyA}&limit=NO_LIMIT`)).json() as {
      items: { id: number; name: string; published: boolean }[];
    };
    expect(names.items.map((u) => [u.name, u.published])).toEqual([
      ['A1 direktor', true],
      ['A2 direktor', false],
    ]);
  });

  it('shows each role the units its community roles reach, plus published ones', async () => {
    const seen = async (who: string) =>
      ((await call(who, 'GET', '/api/units?limit=NO_LIMIT')).json() as { items: { id: number }[] }).items.map((u) => u.id).sort();
    expect(await seen('admin')).toEqual([unitA1, unitA2, unitB1].sort());
    expect(await seen('direktor')).toEqual([unitA1, unitA2].sort());
    expect(await seen('vodja')).toEqual([unitA1]);
    expect(await seen('udelezenec')).toEqual([unitA1]);
    expect((await call('racunovodja', 'GET', `/api/units/${unitA1}`)).statusCode).toBe(200);
    expect((await call('racunovodja', 'GET', `/api/units/${unitA2}`)).statusCode).toBe(404);
    expect((await call('udelezenec', 'GET', '/api/companies')).statusCode).toBe(403);
    expect((await call('vodja', 'GET', '/api/companies')).json()).toMatchObject({ items: [{ id: companyA }], total: 1 });
  });

  it('lets a manager add and remove members of their unit only, and a user join a published unit', async () => {
    const newcomer = await p.createUser('novinec');
    tokens.novinec = (await p.login('novinec')).token;
    expect((await call('vodja', 'POST', `/api/units/${unitA1}/members`, { userId: newcomer })).statusCode).toBe(200);
    let members = (await call('vodja', 'GET', `/api/units/${unitA1}/members`)).json() as { items: { username: string }[] };
    expect(members.items.map((m) => m.username).sort()).toEqual(['novinec', 'udelezenec']);
    expect((await call('vodja', 'POST', `/api/units/${unitA2}/members`, { userId: newcomer })).statusCode).toBe(404);
    expect((await call('vodja', 'DELETE', `/api/units/${unitA1}/members/${newcomer}`)).statusCode).toBe(200);
    members = (await call('vodja', 'GET', `/api/units/${unitA1}/members`)).json() as { items: { username: string }[] };
    expect(members.items.map((m) => m.username)).toEqual(['udelezenec']);
    // Decision 0009 (issue 31 item 3): a person joins only a published unit of a company they already belong to.
    expect((await call('novinec', 'POST', `/api/units/${unitA1}/join`)).statusCode).toBe(403);
    expect((await call('novinec', 'POST', `/api/units/${unitB1}/join`)).statusCode).toBe(403);
    expect((await call('udelezenec', 'POST', `/api/units/${unitB1}/join`)).statusCode).toBe(403);
    expect((await call('udelezenec', 'POST', `/api/units/${unitA2}/join`)).statusCode).toBe(403);
    expect((await call('admin', 'POST', `/api/units/${unitA2}/publish`)).statusCode).toBe(200);
    expect((await call('udelezenec', 'POST', `/api/units/${unitA2}/join`)).statusCode).toBe(200);
    const me = (await call('udelezenec', 'GET', '/api/users/me')).json() as { userRoles: { role_id: number; unit_id: number }[] };
    expect(me.userRoles.map((r) => r.unit_id).sort()).toEqual([unitA1, unitA2].sort());
    expect((await call('udelezenec', 'POST', `/api/units/${unitA2}/leave`)).statusCode).toBe(200);
    expect((await call('admin', 'POST', `/api/units/${unitA2}/unpublish`)).statusCode).toBe(200);
    const unseen = (await call('novinec', 'GET', '/api/users/me')).json() as { userRoles: unknown[] };
    expect(unseen.userRoles).toEqual([]);
  });

  it("does not let a manager take in another company's user or an admin: answered as missing, nothing granted", async () => {
    const outsider = await p.createUser('tujec', [{ roleId: ROLE.participant, unitId: unitB1, companyId: companyB }]);
    const admin = await p.createUser('skrbnica', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    // A user outside the manager's reach is refused by name, as one that does not exist (decision 0047).
    for (const userId of [outsider, admin]) {
      expect((await call('vodja', 'POST', `/api/units/${unitA1}/members`, { userId })).json()).toEqual({
        errors: [{ code: '400', message: `Izbrani uporabnik ne obstaja ali ni na voljo (št. ${userId}).`, field: 'userId' }],
      });
    }
    expect((await call('vodja', 'POST', `/api/units/${unitA1}/members`, { userId: 999_999 })).json()).toEqual({
      errors: [{ code: '400', message: 'Izbrani uporabnik ne obstaja ali ni na voljo (št. 999999).', field: 'userId' }],
    });
    const members = (await call('vodja', 'GET', `/api/units/${unitA1}/members`)).json() as { items: { username: string }[] };
    expect(members.items.map((m) => m.username)).not.toContain('tujec');
    // An admin (1006) still moves anyone.
    expect((await call('admin', 'POST', `/api/units/${unitA1}/members`, { userId: outsider })).statusCode).toBe(200);
    expect((await call('admin', 'DELETE', `/api/units/${unitA1}/members/${outsider}`)).statusCode).toBe(200);
  });

  it('sorts names in the Slovenian alphabet: c, č, d, ... s, š, t, ... z, ž, whatever the case', async () => {
    for (const name of ['Župan', 'Zobar', 'šivilja', 'Sestra', 'Čistilec', 'cvetličar', 'Delavec', 'Tajnik']) {
      expect((await call('admin', 'POST', '/api/professions', { name: `${name} sort` })).statusCode).toBe(201);
    }
    const names = async (order: 'asc' | 'desc') =>
      ((await call('admin', 'GET', `/api/professions?search=sort&sort=name&order=${order}`)).json() as { items: { name: string }[] }).items.map((i) =>
        i.name.replace(' sort', ''),
      );
    const alphabet = ['cvetličar', 'Čistilec', 'Delavec', 'Sestra', 'šivilja', 'Tajnik', 'Zobar', 'Župan'];
    expect(await names('asc')).toEqual(alphabet);
    expect(await names('desc')).toEqual([...alphabet].reverse());
  });

  it('keeps professions and their groups public to read, and admin-only to change', async () => {
    const group = id(await call('admin', 'POST', '/api/profession-groups', { name: 'Farmacija' }));
    const profession = await call('admin', 'POST', '/api/professions', {
      name: 'Magister farmacije',
      groupId: group,
      needsLicenceNumber: true,
      mayPrescribe: true,
    });
    expect(profession.statusCode).toBe(201);
    const list = await p.app.inject({ method: 'GET', url: '/api/professions?search=farm' });
    expect(list.json()).toEqual({
      items: [
        {
          id: id(profession),
          name: 'Magister farmacije',
          groupId: group,
          groupName: 'Farmacija',
          needsLicenceNumber: true,
          needsChamberNumber: false,
          chamber: null,
          mayPrescribe: true,
        },
      ],
      total: 1,
    });
    expect((await call('vodja', 'POST', '/api/professions', { name: 'Ne' })).statusCode).toBe(403);
    const groups = await p.app.inject({ method: 'GET', url: `/api/profession-groups/${group}` });
    expect(groups.json()).toEqual({ id: group, name: 'Farmacija', professions: [{ id: id(profession), name: 'Magister farmacije' }] });
  });

  it('deletes a unit nobody holds a role in, then its company; a manager cannot (no role holds 2002), and the group name is free again', async () => {
    const company = id(await call('admin', 'POST', '/api/companies', { name: 'Začasno d.o.o.', address: 'Pot 3' }));
    const unit = id(await call('admin', 'POST', '/api/units', { name: 'Začasna enota', companyId: company }));
    const group = id(await call('admin', 'POST', '/api/community-groups', { name: 'Začasna skupina', unitIds: [unit] }));
    await p.createUser('zacasna', [{ roleId: ROLE.manager, unitId: unit, companyId: company }]);
    tokens.zacasna = (await p.login('zacasna')).token;

    // The company still has a unit, the unit still has a manager: both refused, nothing changes.
    const companyRefused = await call('admin', 'DELETE', `/api/companies/${company}`);
    expect(companyRefused.statusCode).toBe(422);
    expect(companyRefused.json()).toEqual({ errors: [{ code: '422', field: null, message: expect.stringContaining('dokler ima enote') }] });
    const unitRefused = await call('admin', 'DELETE', `/api/units/${unit}`);
    expect(unitRefused.statusCode).toBe(422);
    expect((unitRefused.json() as { errors: { message: string }[] }).errors[0]?.message).toContain('uporabnikov z vlogo: 1');
    // spec §6 grants 2002 to no community role: the unit's own manager may not delete it.
    expect((await call('zacasna', 'DELETE', `/api/units/${unit}`)).statusCode).toBe(403);
    expect((await call('editor', 'DELETE', `/api/companies/${companyB}`)).statusCode).toBe(422);

    // The manager's role is revoked (the users admin of issue 14 does this from the user's page).
    const manager = (await call('zacasna', 'GET', '/api/users/me').then((r) => r.json())) as { id: number };
    const revoked = await handleCommand(p.store, {
      streamName: userStream(manager.id),
      decider: userDecider,
      command: { type: 'RevokeRole', role: { roleId: ROLE.manager, unitId: unit, companyId: company } },
      metadata: {},
    });
    await p.settle(revoked.position);
    expect((await call('admin', 'DELETE', `/api/units/${unit}`)).statusCode).toBe(200);
    expect((await call('admin', 'GET', `/api/units/${unit}`)).statusCode).toBe(404);
    expect((await call('admin', 'DELETE', `/api/units/${unit}`)).statusCode).toBe(404);
    const groupAfter = (await call('admin', 'GET', `/api/community-groups/${group}`)).json() as { unitIds?: number[]; units?: unknown[] };
    expect(JSON.stringify(groupAfter)).not.toContain('Začasna enota');

    expect((await call('admin', 'DELETE', `/api/companies/${company}`)).statusCode).toBe(200);
    expect((await call('admin', 'GET', `/api/companies/${company}`)).statusCode).toBe(404);

    expect((await call('editor', 'DELETE', `/api/community-groups/${group}`)).statusCode).toBe(200);
    expect((await call('admin', 'POST', '/api/community-groups', { name: 'Začasna skupina', unitIds: [] })).statusCode).toBe(201);
  });

  it('lists the units a manager or director runs (unit 0: the whole company), and tells others they manage none', async () => {
    const ids = async (who: string) =>
      ((await call(who, 'GET', '/api/manager/units')).json() as { items: { id: number }[] }).items.map((u) => u.id).sort((a, b) => a - b);
    expect(await ids('vodja')).toEqual([unitA1]);
    expect(await ids('direktor')).toEqual([unitA1, unitA2].sort((a, b) => a - b));
    for (const who of ['racunovodja', 'udelezenec']) {
      const refused = await call(who, 'GET', '/api/manager/units');
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ errors: [{ code: '403', message: 'Ne upravljate nobene enote ali podjetja.', field: null }] });
    }
  });

  it('keeps a unit’s address and register fields (spec §3): post code digits only, the rest optional', async () => {
    const bad = await call('admin', 'POST', '/api/units', { name: 'Naslovljena', companyId: companyA, zip: '10O0' });
    expect(bad.json()).toEqual({ errors: [{ code: '400', message: 'Poštna številka lahko vsebuje le števke', field: 'zip' }] });
    const unit = id(
      await call('admin', 'POST', '/api/units', {
        name: 'Naslovljena',
        companyId: companyA,
        address: 'Trubarjeva 5',
        city: 'Maribor',
        zip: '2000',
        region: 'Podravska',
        vat: 'SI87654321',
      }),
    );
    expect((await call('admin', 'GET', `/api/units/${unit}`)).json()).toMatchObject({
      name: 'Naslovljena',
      address: 'Trubarjeva 5',
      city: 'Maribor',
      zip: '2000',
      region: 'Podravska',
      vat: 'SI87654321',
      external_id: null,
      sync_destination: null,
    });
    // A PUT replaces the whole record: a body leaving fields out is refused, naming each, and changes nothing.
    const partial = await call('admin', 'PUT', `/api/units/${unit}`, { name: 'Naslovljena', companyId: companyA, city: 'Celje' });
    expect(partial.statusCode).toBe(400);
    expect((partial.json() as { errors: { field: string }[] }).errors.map((e) => e.field).sort()).toEqual(
      ['address', 'externalId', 'region', 'syncDestination', 'tagId', 'vat', 'zip'].sort(),
    );
    expect((partial.json() as { errors: { message: string }[] }).errors[0]?.message).toContain('pošljite vsa polja');
    expect((await call('admin', 'GET', `/api/units/${unit}`)).json()).toMatchObject({ address: 'Trubarjeva 5', city: 'Maribor', zip: '2000' });
    const companyBefore = (await call('admin', 'GET', `/api/companies/${companyA}`)).json();
    expect((await call('admin', 'PUT', `/api/companies/${companyA}`, { name: 'Prepisano', address: 'Cesta 1' })).statusCode).toBe(400);
    expect((await call('admin', 'GET', `/api/companies/${companyA}`)).json()).toEqual(companyBefore);
    expect((await call('admin', 'PUT', `/api/units/${unit}`, { ...NO_UNIT_DETAILS, name: 'Naslovljena', companyId: companyA, city: 'Celje' })).statusCode).toBe(
      200,
    );
    expect((await call('admin', 'GET', `/api/units/${unit}`)).json()).toMatchObject({ address: null, city: 'Celje', zip: null });
  });

  it('takes a unit naming a company made a moment ago, though the caller sends no X-Min-Position and the read model is behind', async () => {
    const raw = (method: 'POST', url: string, payload: object) => p.app.inject({ method, url, headers: { authorization: `JWT ${tokens.admin}` }, payload });
    // Hold the organisation projection back: it cannot write companies until the lock goes, while reads still work.
    const holder = await p.db.pg.connect();
    try {
      await holder.query('begin');
      await holder.query('lock table rm.companies in exclusive mode');
      const company = await raw('POST', '/api/companies', { name: 'Pravkar ustanovljeno', address: 'Cesta 9' });
      expect(company.statusCode).toBe(201);
      const release = setTimeout(() => void holder.query('commit'), 300);
      const unit = await raw('POST', '/api/units', { name: 'Takoj', companyId: id(company) });
      clearTimeout(release);
      expect(unit.statusCode).toBe(201);
    } finally {
      await holder.query('commit').catch(() => undefined);
      holder.release();
    }
  });
});
