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

  const company = {
    name: 'Lekarne d.o.o.',
    address: 'Cesta 1',
    city: 'Ljubljana',
    zip: '1000',
    region: null,
    tagId: 1,
    vat: 'SI1',
    parentCompanyId: null,
    externalId: null,
    syncDestination: 2,
    financial: { iban: null, swift: null, billingEmail: null },
  };

  it('holds each record once with its latest state, however often a batch is applied', async () => {
    const { rows } = await givenProjected(db, organisationProjection, [
      recorded('tag-1', 'TagCreated', { tagId: 1, kind: 'company', name: 'Lekarna', internalUse: false }),
      recorded('tag-2', 'TagCreated', { tagId: 2, kind: 'unit', name: 'Stara', internalUse: true }),
      recorded('tag-2', 'TagUpdated', { name: 'Nova', internalUse: false }),
      recorded('tag-3', 'TagCreated', { tagId: 3, kind: 'unit', name: 'Izbrisana', internalUse: false }),
      recorded('tag-3', 'TagDeleted', {}),
      recorded('company-1', 'CompanyCreated', { companyId: 1, ...company }),
      recorded('company-1', 'CompanyUpdated', { ...company, city: 'Maribor', zip: '2000' }),
      recorded('company-1', 'CompanySignatureChanged', { name: 'Ana Novak', role: 'Direktorica', imageFileId: null }),
      recorded('unit-1', 'UnitCreated', { unitId: 1, companyId: 1, name: 'Center', tagId: 2 }),
      recorded('unit-2', 'UnitCreated', { unitId: 2, companyId: 1, name: 'Bežigrad', tagId: null }),
      recorded('unit-2', 'UnitUpdated', { companyId: 1, name: 'Bežigrad 2', tagId: null }),
      recorded('unit-1', 'UnitPublished', {}),
      // Issue 18: a unit's own certificate signature; unit 2's is set and removed again.
      recorded('unit-1', 'UnitSignatureChanged', { signature: { name: 'Maja Kos', role: 'Vodja lekarne', imageFileId: 5 } }),
      recorded('unit-2', 'UnitSignatureChanged', { signature: { name: 'Jure Bele', role: 'Vodja', imageFileId: null } }),
      recorded('unit-2', 'UnitSignatureChanged', { signature: null }),
      recorded('communitygroup-1', 'CommunityGroupCreated', { groupId: 1, name: 'Ljubljana', unitIds: [1, 2] }),
      recorded('communitygroup-1', 'CommunityGroupUpdated', { name: 'Ljubljana in okolica', unitIds: [2] }),
      recorded('professiongroup-1', 'ProfessionGroupCreated', { groupId: 1, name: 'Farm' }),
      recorded('professiongroup-1', 'ProfessionGroupRenamed', { name: 'Farmacija' }),
      recorded('profession-1', 'ProfessionCreated', { professionId: 1, name: 'Farmacevt', groupId: 1, needsLicenceNumber: true }),
      recorded('profession-1', 'ProfessionUpdated', { name: 'Magister farmacije', groupId: 1, needsLicenceNumber: true }),
    ]);
    expect(await rows('companies')).toEqual([
      expect.objectContaining({
        id: 1,
        name: 'Lekarne d.o.o.',
        city: 'Maribor',
        zip: '2000',
        sync_destination: 2,
        signature: { name: 'Ana Novak', role: 'Direktorica', imageFileId: null },
      }),
    ]);
    expect((await rows('units')).map((u) => [u.id, u.name, u.published, u.tag_id, u.signature])).toEqual([
      [1, 'Center', true, 2, { name: 'Maja Kos', role: 'Vodja lekarne', imageFileId: 5 }],
      [2, 'Bežigrad 2', false, null, null],
    ]);
    expect(await rows('community_groups')).toEqual([expect.objectContaining({ id: 1, name: 'Ljubljana in okolica' })]);
    expect(await rows('community_group_units')).toEqual([{ group_id: 1, unit_id: 2 }]);
    expect(await rows('profession_groups')).toEqual([{ id: 1, name: 'Farmacija' }]);
    expect(await rows('professions')).toEqual([
      { id: 1, name: 'Magister farmacije', group_id: 1, needs_licence_number: true, needs_chamber_number: false, chamber: null, may_prescribe: false },
    ]);
    expect((await rows('tags')).map((t) => [t.id, t.kind, t.name, t.internal_use, t.deleted])).toEqual([
      [1, 'company', 'Lekarna', false, false],
      [2, 'unit', 'Nova', false, false],
      [3, 'unit', 'Izbrisana', false, true],
    ]);
  });

  it('drops deleted units, companies and groups (and the group links of a deleted unit), however often applied', async () => {
    const { rows } = await givenProjected(db, organisationProjection, [
      recorded('company-7', 'CompanyCreated', { companyId: 7, ...company }),
      recorded('company-8', 'CompanyCreated', { companyId: 8, ...company, name: 'Ostane' }),
      recorded('unit-7', 'UnitCreated', { unitId: 7, companyId: 7, name: 'Gre', tagId: null }),
      recorded('unit-8', 'UnitCreated', { unitId: 8, companyId: 8, name: 'Ostane', tagId: null }),
      recorded('communitygroup-7', 'CommunityGroupCreated', { groupId: 7, name: 'Skupina', unitIds: [7, 8] }),
      recorded('communitygroup-9', 'CommunityGroupCreated', { groupId: 9, name: 'Gre tudi', unitIds: [8] }),
      recorded('unit-7', 'UnitDeleted', {}),
      recorded('company-7', 'CompanyDeleted', {}),
      recorded('communitygroup-9', 'CommunityGroupDeleted', {}),
    ]);
    expect((await rows('companies')).map((c) => c.id)).toEqual([8]);
    expect((await rows('units')).map((u) => u.id)).toEqual([8]);
    expect((await rows('community_groups')).map((g) => g.id)).toEqual([7]);
    expect(await rows('community_group_units')).toEqual([{ group_id: 7, unit_id: 8 }]);
  });
});
