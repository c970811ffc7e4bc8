import { SYSTEM_PERMISSION_IDS } from './permissions.ts';
import { ROLE, type RoleId } from './roles.ts';

/**
 * Which permissions each role grants, as spec §6 lists them ("Role to community permissions").
 * Admin and editor system abilities are not in the spec; docs/decisions/0003-admin-editor-abilities.md
 * records the choice: admin holds every system permission, editor holds content and organisation
 * permissions but not user create/update/delete/auth, deals (money) or login-token export.
 */
export const ADMIN_SYSTEM_PERMISSIONS: readonly number[] = SYSTEM_PERMISSION_IDS;

export const EDITOR_SYSTEM_PERMISSIONS: readonly number[] = [
  1004, // user read: the editor has the users menu
  1009,
  1010,
  1011,
  1012, // communities: units, companies, groups are content the editor maintains
  1017,
  1018,
  1019,
  1020, // courses
  1023,
  1024,
  1025,
  1026, // blocks
  1031,
  1041,
  1033,
  1039, // posts (comments)
  1056,
  1057,
  1058, // block views
  1062, // tags
  1063, // groups
  1064, // course reports
  1065, // news and newsletters
];

const MANAGER_BASE: readonly number[] = [
  2000, // read
  2001, // update
  2004, // course read
  1027, // block read
  1035, // post read
  1049,
  1050,
  1051, // members add, delete, read
  1059,
  1060,
  1061, // block views overview, community, comment
];

export const COMMUNITY_ROLE_PERMISSIONS: Readonly<Partial<Record<RoleId, readonly number[]>>> = {
  [ROLE.manager]: [2011, ...MANAGER_BASE],
  // "like manager with is-director": the manager's permissions with is-director instead of is-manager.
  [ROLE.director]: [2012, ...MANAGER_BASE],
  // "read-only on the same, plus cost overview; no update or member changes".
  [ROLE.accountant]: [2000, 2004, 1027, 1035, 1051, 1059, 1060, 1061, 2009],
  [ROLE.client]: [2010, 2000, 2001, 2004, 2005, 2006, 1027, 1028, 1029, 1035, 1042, 1036, 1049, 1050, 1051, 1059, 1060, 1061],
};

export const MEMBERSHIP_ROLE_PERMISSIONS: Readonly<Partial<Record<RoleId, readonly number[]>>> = {
  [ROLE.participant]: [2003, 2004, 2008, 1040, 1045],
};

/** The auditor (decision 0013) only reads consent histories, verifies their chains and exports them; and courses' approval trails (decision 0063). */
export const AUDITOR_SYSTEM_PERMISSIONS: readonly number[] = [1070, 1072];

/** The approver (decision 0063) signs the approval steps that name them; nothing else. */
export const APPROVER_SYSTEM_PERMISSIONS: readonly number[] = [1071];

export const systemPermissionsOf = (roleIds: Iterable<RoleId>): number[] => {
  const result = new Set<number>();
  for (const roleId of roleIds) {
    if (roleId === ROLE.admin) for (const id of ADMIN_SYSTEM_PERMISSIONS) result.add(id);
    if (roleId === ROLE.editor) for (const id of EDITOR_SYSTEM_PERMISSIONS) result.add(id);
    if (roleId === ROLE.auditor) for (const id of AUDITOR_SYSTEM_PERMISSIONS) result.add(id);
    if (roleId === ROLE.approver) for (const id of APPROVER_SYSTEM_PERMISSIONS) result.add(id);
  }
  return [...result].sort((a, b) => a - b);
};
