import type { CurrentUser } from './api/me.ts';

/** Role ids of spec §6. */
export const ROLE_ID = { admin: 1, manager: 2, accountant: 3, client: 4, director: 5, editor: 6, auditor: 7, participant: 10 } as const;

export const hasRole = (user: CurrentUser, roleId: number) => user.roles.some((role) => role.id === roleId);

export const hasSystemPermission = (user: CurrentUser, permission: number) => user.systemAbilities.some((a) => a.systemPermission === permission);

/** The user's location for the user menu: the first unit (or company) of their roles, cut at 32 characters (spec §9). */
export const locationOf = (user: CurrentUser): string | null => {
  const role = user.roles.find((r) => r.unit_name || r.company_name);
  const text = role ? (role.unit_name ?? role.company_name) : null;
  if (!text) return null;
  return text.length > 32 ? `${text.slice(0, 32)}…` : text;
};

/**
 * Courses are read with a participant's, a community role's or a system role's permission
 * (2003, 2004, 1017; decision 0016): an auditor, who holds none, is not offered them. A person with
 * no role at all (registered, in no unit yet) is a participant of no unit (domain/permissions/can.ts).
 */
export const readsCourses = (user: { readonly roles: readonly { readonly id: number }[] }) =>
  user.roles.length === 0 || user.roles.some((role) => role.id !== ROLE_ID.auditor);
