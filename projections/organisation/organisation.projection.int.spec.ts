import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenProjected, recorded } from '../../tests/support/projection-spec.ts';
import { createTestDatabase } from '../../tests/support/test-database.ts';
import { organisationProjection } from './organisation.projection.ts';

describe('organisation projection', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => db.drop());

  it('holds companies, units, groups with their units and professions once each, however often a batch is applied', async () => {
    const { rows } = await givenProjected(db, organisationProjection, [
      recorded('company-1', 'CompanyCreated', { companyId: 1, name: 'Lekarne d.o.o.', address: 'Cesta 1', city: 'Ljubljana', zip: '1000' }),
      recorded('unit-1', 'UnitCreated', { unitId: 1, companyId: 1, name: 'Center' }),
      recorded('unit-2', 'UnitCreated', { unitId: 2, companyId: 1, name: 'Bežigrad' }),
      recorded('communitygroup-1', 'CommunityGroupCreated', { groupId: 1, name: 'Ljubljana', unitIds: [1, 2] }),
      recorded('profession-1', 'ProfessionCreated', { professionId: 1, name: 'Farmacevt', needsLicenceNumber: true }),
    ]);
    expect(await rows('companies')).toEqual([expect.objectContaining({ id: 1, name: 'Lekarne d.o.o.', zip: '1000' })]);
    expect((await rows('units')).map((u) => [u.id, u.company_id, u.name])).toEqual([
      [1, 1, 'Center'],
      [2, 1, 'Bežigrad'],
    ]);
    expect(await rows('community_group_units', 'unit_id')).toEqual([
      { group_id: 1, unit_id: 1 },
      { group_id: 1, unit_id: 2 },
    ]);
    expect(await rows('professions')).toEqual([{ id: 1, name: 'Farmacevt', needs_licence_number: true }]);
  });
});
