import { PROFILE_PERMISSION_IDS } from './permissions.ts';
import { COMMUNITY_ROLE_PERMISSIONS, MEMBERSHIP_ROLE_PERMISSIONS, systemPermissionsOf } from './role-permissions.ts';
import { COMPANY_WIDE_ROLES, ROLE, type RoleId } from './roles.ts';

export type RoleAssignment = { readonly roleId: RoleId; readonly unitId: number; readonly companyId: number | null };

/** What `can` needs to know about the acting user. */
export type Subject = { readonly userId: number; readonly roles: readonly RoleAssignment[] };

/**
 * Where a permission is asked for:
 * - `system`: anywhere (admin and editor abilities);
 * - `community`: in one unit of one company;
 * - `membership`: as a member of a unit (omit unitId for "in some unit");
 * - `profile`: on the account of `userId` (only one's own).
 * A community scope without a unit (`unitId: undefined`) asks "anywhere in this company".
 */
export type Scope =
  | { readonly kind: 'system' }
  | { readonly kind: 'community'; readonly companyId: number | null; readonly unitId?: number | undefined }
  | { readonly kind: 'membership'; readonly unitId?: number | undefined }
  | { readonly kind: 'profile'; readonly userId: number };

const coversUnit = (role: RoleAssignment, scope: { companyId: number | null; unitId?: number | undefined }) => {
  if (scope.unitId === undefined) return role.companyId !== null && role.companyId === scope.companyId;
  if (role.unitId === scope.unitId) return true;
  // spec §6: a manager or director with unit_id 0 and a company applies to every unit of that company.
  return role.unitId === 0 && COMPANY_WIDE_ROLES.has(role.roleId) && role.companyId !== null && role.companyId === scope.companyId;
};

export const systemAbilities = (subject: Subject): number[] => systemPermissionsOf(subject.roles.map((r) => r.roleId));

export const can = (subject: Subject, permissionId: number, scope: Scope): boolean => {
  switch (scope.kind) {
    case 'system':
      return systemAbilities(subject).includes(permissionId);
    case 'profile':
      return scope.userId === subject.userId && PROFILE_PERMISSION_IDS.includes(permissionId);
    case 'community':
      return subject.roles.some((role) => (COMMUNITY_ROLE_PERMISSIONS[role.roleId] ?? []).includes(permissionId) && coversUnit(role, scope));
    case 'membership':
      // A signed-in person who holds no role at all (a professional who registered and has joined no
      // unit yet) is a participant of no unit: spec §1 participants take courses, §2 every signed-in
      // user has courses and academies. What they may see is then the audience rule: public courses
      // and those for their profession (course-audience.ts).
      if (subject.roles.length === 0) return scope.unitId === undefined && (MEMBERSHIP_ROLE_PERMISSIONS[ROLE.participant] ?? []).includes(permissionId);
      return subject.roles.some(
        (role) => (MEMBERSHIP_ROLE_PERMISSIONS[role.roleId] ?? []).includes(permissionId) && (scope.unitId === undefined || role.unitId === scope.unitId),
      );
    default: {
      const unreachable: never = scope;
      return unreachable;
    }
  }
};

/** True when some role of the subject grants the community permission in some unit (menus, list filters). */
export const canSomewhere = (subject: Subject, permissionId: number): boolean =>
  subject.roles.some((role) => (COMMUNITY_ROLE_PERMISSIONS[role.roleId] ?? []).includes(permissionId));

/**
 * Where a community permission reaches for list filters: the units named by the subject's roles that
 * grant it, and the companies of manager or director roles with unit_id 0.
 */
export const communityReach = (subject: Subject, permissionId: number): { unitIds: number[]; companyIds: number[] } => {
  const unitIds = new Set<number>();
  const companyIds = new Set<number>();
  for (const role of subject.roles) {
    if (!(COMMUNITY_ROLE_PERMISSIONS[role.roleId] ?? []).includes(permissionId)) continue;
    if (role.unitId === 0) {
      if (COMPANY_WIDE_ROLES.has(role.roleId) && role.companyId !== null) companyIds.add(role.companyId);
    } else {
      unitIds.add(role.unitId);
    }
  }
  return { unitIds: [...unitIds], companyIds: [...companyIds] };
};

/** The companies in which some role of the subject grants the community permission: an author's or a viewer's reach. */
export const companiesWith = (subject: Subject, permissionId: number): number[] => [
  ...new Set(
    subject.roles.flatMap((role) =>
      role.companyId !== null && (COMMUNITY_ROLE_PERMISSIONS[role.roleId] ?? []).includes(permissionId) ? [role.companyId] : [],
    ),
  ),
];

/** The companies the subject belongs to through any role (a unit's member included): where a person may join units (decision 0009). */
export const companiesOf = (subject: Subject): number[] => [...new Set(subject.roles.flatMap((role) => (role.companyId === null ? [] : [role.companyId])))];
