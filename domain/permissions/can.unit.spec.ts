import { describe, expect, it } from 'vitest';
import { can, canSomewhere, type Subject, systemAbilities } from './can.ts';
import { PERMISSIONS } from './permissions.ts';
import { ROLE, type RoleId } from './roles.ts';

/**
 * Every role-to-permission row of spec §6, written out again here from the spec's words, so a
 * mistake in the catalogue shows up as a difference between the two.
 */
const SPEC_COMMUNITY_ROWS: Record<string, { role: RoleId; grants: number[] }> = {
  // "manager: is-manager, read, update, course/block/post read, members add/delete/read, block overview/community/comment read"
  manager: { role: ROLE.manager, grants: [2011, 2000, 2001, 2004, 1027, 1035, 1049, 1050, 1051, 1059, 1060, 1061] },
  // "accountant: read-only on the same, plus cost overview; no update or member changes"
  accountant: { role: ROLE.accountant, grants: [2000, 2004, 1027, 1035, 1051, 1059, 1060, 1061, 2009] },
  // "client: is-client, read, update, course, block and post read/create/update, members add/delete/read, block views"
  client: { role: ROLE.client, grants: [2010, 2000, 2001, 2004, 2005, 2006, 1027, 1028, 1029, 1035, 1042, 1036, 1049, 1050, 1051, 1059, 1060, 1061] },
  // "director: like manager with is-director"
  director: { role: ROLE.director, grants: [2012, 2000, 2001, 2004, 1027, 1035, 1049, 1050, 1051, 1059, 1060, 1061] },
};
// "participant: block read, course read, post create/read, record create"
const SPEC_PARTICIPANT = [2004, 2003, 1040, 2008, 1045];

const COMMUNITY_IDS = PERMISSIONS.filter((p) => p.scope === 'community').map((p) => p.id);
const SYSTEM_IDS = PERMISSIONS.filter((p) => p.scope === 'system').map((p) => p.id);

const subject = (roleId: RoleId, unitId: number, companyId: number | null): Subject => ({ userId: 9, roles: [{ roleId, unitId, companyId }] });
const inUnit = (unitId: number, companyId = 2) => ({ kind: 'community' as const, unitId, companyId });

describe('permission catalogue (spec §6)', () => {
  for (const [name, row] of Object.entries(SPEC_COMMUNITY_ROWS)) {
    it(`${name}: grants exactly its row in its own unit, and nothing in another unit`, () => {
      const user = subject(row.role, 3, 2);
      const granted = COMMUNITY_IDS.filter((id) => can(user, id, inUnit(3)));
      expect(granted.sort()).toEqual([...row.grants].sort());
      expect(COMMUNITY_IDS.filter((id) => can(user, id, inUnit(4)))).toEqual([]);
      expect(SYSTEM_IDS.filter((id) => can(user, id, { kind: 'system' }))).toEqual([]);
    });
  }

  it('participant: grants exactly the membership row, in its units only, and no community permission', () => {
    const user = subject(ROLE.participant, 3, 2);
    const membership = PERMISSIONS.filter((p) => p.scope === 'membership').map((p) => p.id);
    expect(membership.filter((id) => can(user, id, { kind: 'membership', unitId: 3 })).sort()).toEqual([...SPEC_PARTICIPANT].sort());
    expect(membership.filter((id) => can(user, id, { kind: 'membership', unitId: 4 }))).toEqual([]);
    expect(COMMUNITY_IDS.filter((id) => can(user, id, inUnit(3)))).toEqual([]);
  });

  it('keeps 2004 apart by scope: community course read for a manager, membership block read for a participant', () => {
    expect(can(subject(ROLE.manager, 3, 2), 2004, inUnit(3))).toBe(true);
    expect(can(subject(ROLE.manager, 3, 2), 2004, { kind: 'membership', unitId: 3 })).toBe(false);
    expect(can(subject(ROLE.participant, 3, 2), 2004, { kind: 'membership', unitId: 3 })).toBe(true);
    expect(can(subject(ROLE.participant, 3, 2), 2004, inUnit(3))).toBe(false);
  });

  it('lets a manager or director with unit_id 0 act in every unit of their company, and only there', () => {
    for (const role of [ROLE.manager, ROLE.director]) {
      const user = subject(role, 0, 2);
      expect(can(user, 2001, inUnit(3, 2))).toBe(true);
      expect(can(user, 2001, inUnit(44, 2))).toBe(true);
      expect(can(user, 2001, { kind: 'community', companyId: 2 })).toBe(true);
      expect(can(user, 2001, inUnit(3, 5))).toBe(false);
    }
    // The rule is the manager's and director's: an accountant with unit 0 gains nothing by it.
    expect(can(subject(ROLE.accountant, 0, 2), 2000, inUnit(3, 2))).toBe(false);
    expect(can(subject(ROLE.client, 0, 2), 2000, inUnit(3, 2))).toBe(false);
  });

  it('gives the admin every system permission, and the editor content but not user auth, money or login tokens', () => {
    const admin = subject(ROLE.admin, 0, null);
    expect(systemAbilities(admin)).toEqual([...SYSTEM_IDS].sort((a, b) => a - b));
    const editor = subject(ROLE.editor, 0, null);
    for (const id of [
      1004, 1009, 1010, 1011, 1012, 1017, 1018, 1019, 1020, 1023, 1024, 1025, 1026, 1031, 1033, 1039, 1041, 1056, 1057, 1058, 1062, 1063, 1064, 1065,
    ]) {
      expect(can(editor, id, { kind: 'system' }), String(id)).toBe(true);
    }
    for (const id of [1005, 1006, 1007, 1008, 1052, 1053, 1054, 1055, 1066]) expect(can(editor, id, { kind: 'system' }), String(id)).toBe(false);
    // System abilities do not stand in for community roles (routes list both where either may do).
    expect(can(admin, 2001, inUnit(3))).toBe(false);
  });

  it("gives profile permissions on one's own account only", () => {
    const user = subject(ROLE.participant, 3, 2);
    for (const id of [1001, 1002, 1003, 1021, 1022, 1043, 1044, 1046, 1047, 1048]) {
      expect(can(user, id, { kind: 'profile', userId: 9 })).toBe(true);
      expect(can(user, id, { kind: 'profile', userId: 10 })).toBe(false);
    }
  });

  it('answers "somewhere" for menus and list filters', () => {
    expect(canSomewhere(subject(ROLE.manager, 3, 2), 1049)).toBe(true);
    expect(canSomewhere(subject(ROLE.accountant, 3, 2), 1049)).toBe(false);
    expect(canSomewhere({ userId: 1, roles: [] }, 2000)).toBe(false);
  });

  it('lists every permission id of spec §6 once per scope', () => {
    const keys = PERMISSIONS.map((p) => `${p.scope}:${p.id}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(
      PERMISSIONS.filter((p) => p.id === 2004)
        .map((p) => p.scope)
        .sort(),
    ).toEqual(['community', 'membership']);
    // 10 profile + 33 system + 25 community + 5 membership, plus 1070 (consent audit, decision 0013), 1071, 1072 and 1073 (approval, decision 0063).
    expect(PERMISSIONS).toHaveLength(77);
  });

  it('gives the auditor only the consent audit (1070) and approval trails (1072), which admins hold too and editors do not', () => {
    expect(systemAbilities(subject(ROLE.auditor, 0, null))).toEqual([1070, 1072]);
    // The approver signs approval steps (1071) and holds nothing else (decision 0063).
    expect(systemAbilities(subject(ROLE.approver, 0, null))).toEqual([1071]);
    expect(can(subject(ROLE.admin, 0, null), 1071, { kind: 'system' })).toBe(true);
    expect(can(subject(ROLE.editor, 0, null), 1071, { kind: 'system' })).toBe(false);
    // Approval settings are changed by admins only (1073): an editor's 1011 does not switch approval off.
    expect(can(subject(ROLE.admin, 0, null), 1073, { kind: 'system' })).toBe(true);
    expect(can(subject(ROLE.editor, 0, null), 1011, { kind: 'system' })).toBe(true);
    expect(can(subject(ROLE.editor, 0, null), 1073, { kind: 'system' })).toBe(false);
    expect(can(subject(ROLE.admin, 0, null), 1070, { kind: 'system' })).toBe(true);
    expect(can(subject(ROLE.editor, 0, null), 1070, { kind: 'system' })).toBe(false);
  });
});
