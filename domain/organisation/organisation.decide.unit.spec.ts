import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../tests/support/decider-spec.ts';
import { fold } from '../shared/decider.ts';
import { communityGroupDecider, communityGroupNameClaim } from './community-group.ts';
import { type CompanyEvent, companyDecider } from './company.ts';
import { communityGroupRule, companyRule, professionGroupRule, professionRule, tagRule, unitRule } from './organisation.rules.ts';
import { professionDecider } from './profession.ts';
import { professionGroupDecider } from './profession-group.ts';
import { tagDecider, tagNameClaim } from './tag.ts';
import { unitDecider } from './unit.ts';

const fields = companyRule.parse({ name: 'Lekarne d.o.o.', address: 'Cesta 1', zip: '1000' });

const NO_ADDRESS = { address: null, city: null, zip: null, region: null, vat: null, externalId: null, syncDestination: null };

describe('organisation field rules (spec §5)', () => {
  const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
    Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

  it('company: name and address required, post code digits only, a chamber 1 to 3, no unknown fields', () => {
    expect(messages(companyRule.safeParse({ name: ' ', address: '' }))).toEqual({ name: 'Vnos je obvezen', address: 'Vnos je obvezen' });
    expect(messages(companyRule.safeParse({ name: 'A', address: 'B', zip: '10a0' }))).toEqual({ zip: 'Poštna številka lahko vsebuje le števke' });
    expect(companyRule.safeParse({ name: 'A', address: 'B', syncDestination: 4 }).success).toBe(false);
    expect(companyRule.safeParse({ name: 'A', address: 'B', owner: 'x' }).success).toBe(false);
    expect(companyRule.parse({ name: ' A ', address: 'B', city: '', zip: '' })).toMatchObject({ name: 'A', city: null, zip: null, financial: { iban: null } });
  });

  it('unit: name and company required', () => {
    expect(messages(unitRule.safeParse({ name: '' }))).toEqual({ name: 'Vnos je obvezen', companyId: 'Vnos je obvezen' });
  });

  it('group, profession, profession group and tag names', () => {
    expect(messages(communityGroupRule.safeParse({ name: '' }))).toEqual({ name: 'Vnos je obvezen' });
    expect(messages(professionRule.safeParse({ name: '' }))).toEqual({ name: 'Vnos je obvezen' });
    expect(messages(professionGroupRule.safeParse({ name: 'ab' }))).toEqual({ name: 'Ime skupine mora imeti najmanj 3 znake' });
    expect(professionGroupRule.safeParse({ name: 'abc' }).success).toBe(true);
    expect(messages(tagRule.safeParse({ name: '   ' }))).toEqual({ name: 'Vnos je obvezen' });
  });
});

describe('company decider', () => {
  const spec = deciderSpec(companyDecider);
  const createdEvent: CompanyEvent = { type: 'CompanyCreated', data: { companyId: 3, ...fields } };
  it('creates once, updates only on change, and refuses itself as parent', () => {
    spec.given([]).when({ type: 'CreateCompany', companyId: 3, fields }).thenExpect([createdEvent]);
    spec.given([createdEvent]).when({ type: 'CreateCompany', companyId: 3, fields }).thenFails('409');
    spec.given([createdEvent]).when({ type: 'UpdateCompany', fields }).thenExpect([]);
    spec
      .given([createdEvent])
      .when({ type: 'UpdateCompany', fields: { ...fields, city: 'Kranj' } })
      .thenExpect([{ type: 'CompanyUpdated', data: { ...fields, city: 'Kranj' } }]);
    spec
      .given([createdEvent])
      .when({ type: 'UpdateCompany', fields: { ...fields, parentCompanyId: 3 } })
      .thenFails('400');
    spec.given([]).when({ type: 'UpdateCompany', fields }).thenFails('404');
    spec
      .given([createdEvent])
      .when({ type: 'ChangeSignature', signature: { name: 'Ana', role: 'Direktorica', imageFileId: null } })
      .thenExpect([{ type: 'CompanySignatureChanged', data: { name: 'Ana', role: 'Direktorica', imageFileId: null } }]);
  });
});

describe('unit decider', () => {
  const spec = deciderSpec(unitDecider);
  const created = { type: 'UnitCreated' as const, data: { unitId: 4, companyId: 1, name: 'Center', tagId: null, ...NO_ADDRESS } };
  it('is created unpublished, publishes and unpublishes once each', () => {
    spec
      .given([])
      .when({ type: 'CreateUnit', unitId: 4, fields: { companyId: 1, name: 'Center', tagId: null, ...NO_ADDRESS } })
      .thenExpect([created]);
    spec
      .given([created])
      .when({ type: 'PublishUnit' })
      .thenExpect([{ type: 'UnitPublished', data: {} }]);
    spec
      .given([created, { type: 'UnitPublished', data: {} }])
      .when({ type: 'PublishUnit' })
      .thenExpect([]);
    spec.given([created]).when({ type: 'UnpublishUnit' }).thenExpect([]);
    spec
      .given([created, { type: 'UnitPublished', data: {} }])
      .when({ type: 'UnpublishUnit' })
      .thenExpect([{ type: 'UnitUnpublished', data: {} }]);
    spec.given([]).when({ type: 'PublishUnit' }).thenFails('404');
    spec
      .given([created])
      .when({ type: 'UpdateUnit', fields: { companyId: 1, name: 'Center', tagId: null, ...NO_ADDRESS } })
      .thenExpect([]);
  });

  it('signs certificates with a signature of its own, changed only when it differs, and removed again (issue 18)', () => {
    const signature = { name: 'mag. Maja Kos', role: 'Vodja lekarne', imageFileId: 7 };
    const signed = { type: 'UnitSignatureChanged' as const, data: { signature } };
    spec.given([created]).when({ type: 'ChangeUnitSignature', signature }).thenExpect([signed]);
    spec
      .given([created, signed])
      .when({ type: 'ChangeUnitSignature', signature: { ...signature } })
      .thenExpect([]);
    spec
      .given([created, signed])
      .when({ type: 'ChangeUnitSignature', signature: null })
      .thenExpect([{ type: 'UnitSignatureChanged', data: { signature: null } }]);
    spec.given([created]).when({ type: 'ChangeUnitSignature', signature: null }).thenExpect([]);
    spec.given([]).when({ type: 'ChangeUnitSignature', signature }).thenFails('404');
  });
});

describe('community group, profession, profession group and tag deciders', () => {
  it("keeps a group's units without duplicates and in order", () => {
    deciderSpec(communityGroupDecider)
      .given([])
      .when({ type: 'CreateCommunityGroup', groupId: 1, fields: { name: 'LJ', unitIds: [3, 1, 3] } })
      .thenExpect([{ type: 'CommunityGroupCreated', data: { groupId: 1, name: 'LJ', unitIds: [1, 3] } }]);
  });

  it('refuses a taken group name with 42276 and a taken tag name of the same kind', () => {
    deciderSpec(communityGroupNameClaim.decider)
      .given([{ type: 'UniqueValueClaimed', data: { ownerId: 1 } }])
      .when({ type: 'Claim', ownerId: 2 })
      .thenFails('42276');
    deciderSpec(tagNameClaim.decider)
      .given([{ type: 'UniqueValueClaimed', data: { ownerId: 1 } }])
      .when({ type: 'Claim', ownerId: 2 })
      .thenFails('409');
    expect(tagNameClaim.stream('unit', 'Lekarna')).not.toBe(tagNameClaim.stream('company', 'Lekarna'));
    expect(communityGroupNameClaim.stream(' LJ ')).toBe(communityGroupNameClaim.stream('lj'));
  });

  it('profession groups need 3 characters in the domain too', () => {
    deciderSpec(professionGroupDecider).given([]).when({ type: 'CreateProfessionGroup', groupId: 1, name: 'ab' }).thenFails('400');
  });

  it('updates a profession only on change', () => {
    const created = {
      type: 'ProfessionCreated' as const,
      data: { professionId: 1, name: 'Farmacevt', groupId: null, needsLicenceNumber: true, needsChamberNumber: false, chamber: null, mayPrescribe: false },
    };
    deciderSpec(professionDecider)
      .given([created])
      .when({
        type: 'UpdateProfession',
        fields: { name: 'Farmacevt', groupId: null, needsLicenceNumber: true, needsChamberNumber: false, chamber: null, mayPrescribe: false },
      })
      .thenExpect([]);
  });

  it('deletes a tag once and cannot change a deleted one', () => {
    const created = { type: 'TagCreated' as const, data: { tagId: 1, kind: 'unit' as const, name: 'A', internalUse: false } };
    deciderSpec(tagDecider)
      .given([created])
      .when({ type: 'DeleteTag' })
      .thenExpect([{ type: 'TagDeleted', data: {} }]);
    deciderSpec(tagDecider)
      .given([created, { type: 'TagDeleted', data: {} }])
      .when({ type: 'UpdateTag', name: 'B', internalUse: false })
      .thenFails('404');
  });
});

describe('deleting units, companies and community groups', () => {
  it('deletes a unit once; a deleted unit cannot be changed, published or created again', () => {
    const spec = deciderSpec(unitDecider);
    const created = { type: 'UnitCreated' as const, data: { unitId: 4, companyId: 3, name: 'A1', tagId: null, ...NO_ADDRESS } };
    const deleted = { type: 'UnitDeleted' as const, data: {} };
    spec.given([created]).when({ type: 'DeleteUnit' }).thenExpect([deleted]);
    spec.given([created, deleted]).when({ type: 'DeleteUnit' }).thenFails('404');
    spec.given([created, deleted]).when({ type: 'PublishUnit' }).thenFails('404');
    spec
      .given([created, deleted])
      .when({ type: 'UpdateUnit', fields: { companyId: 3, name: 'B', tagId: null, ...NO_ADDRESS } })
      .thenFails('404');
    spec
      .given([created, deleted])
      .when({ type: 'CreateUnit', unitId: 4, fields: { companyId: 3, name: 'A1', tagId: null, ...NO_ADDRESS } })
      .thenFails('409');
    spec.given([]).when({ type: 'DeleteUnit' }).thenFails('404');
  });

  it('deletes a company once', () => {
    const spec = deciderSpec(companyDecider);
    const created: CompanyEvent = { type: 'CompanyCreated', data: { companyId: 3, ...fields } };
    spec
      .given([created])
      .when({ type: 'DeleteCompany' })
      .thenExpect([{ type: 'CompanyDeleted', data: {} }]);
    spec
      .given([created, { type: 'CompanyDeleted', data: {} }])
      .when({ type: 'DeleteCompany' })
      .thenFails('404');
    spec
      .given([created, { type: 'CompanyDeleted', data: {} }])
      .when({ type: 'UpdateCompany', fields })
      .thenFails('404');
  });

  it('deletes a community group once and remembers its name, to free it', () => {
    const spec = deciderSpec(communityGroupDecider);
    const created = { type: 'CommunityGroupCreated' as const, data: { groupId: 2, name: 'Vse', unitIds: [1] } };
    spec
      .given([created])
      .when({ type: 'DeleteCommunityGroup' })
      .thenExpect([{ type: 'CommunityGroupDeleted', data: {} }]);
    spec
      .given([created, { type: 'CommunityGroupDeleted', data: {} }])
      .when({ type: 'DeleteCommunityGroup' })
      .thenFails('404');
    expect(fold(communityGroupDecider, [created, { type: 'CommunityGroupDeleted', data: {} }])).toEqual({ status: 'deleted', id: 2, name: 'Vse' });
  });
});
