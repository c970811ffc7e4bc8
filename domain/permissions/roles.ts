/**
 * The roles of spec §6. The scope says where a role entry applies: `admin` roles hold system
 * abilities, `community` roles apply to one unit (or, for manager and director with unit_id 0,
 * to every unit of the company), `membership` is the participant's role in the units they belong to.
 */
export const ROLE = {
  admin: 1,
  manager: 2,
  accountant: 3,
  client: 4,
  director: 5,
  editor: 6,
  /** Not in spec §6: reads consent histories for audits and changes nothing (docs/decisions/0013-consents.md). */
  auditor: 7,
  /**
   * Not in spec §6: signs approval steps of courses (permission 1071, issue 36, decision 0063). Which
   * courses is the approval settings' business: a person signs only steps that name them.
   */
  approver: 8,
  participant: 10,
} as const;

export type RoleName = keyof typeof ROLE;
export type RoleId = (typeof ROLE)[RoleName];
export type RoleScope = 'admin' | 'community' | 'membership';

export const ROLE_SCOPE: Readonly<Record<RoleId, RoleScope>> = {
  1: 'admin',
  6: 'admin',
  7: 'admin',
  8: 'admin',
  2: 'community',
  3: 'community',
  4: 'community',
  5: 'community',
  10: 'membership',
};

const NAMES = Object.fromEntries(Object.entries(ROLE).map(([name, id]) => [id, name])) as Record<RoleId, RoleName>;

export const roleName = (id: RoleId): RoleName => NAMES[id];

/** The roles' Slovenian names, as exports and a person's data document print them. */
export const ROLE_LABELS: Readonly<Record<RoleId, string>> = {
  1: 'skrbnik',
  2: 'vodja',
  3: 'računovodja',
  4: 'naročnik',
  5: 'direktor',
  6: 'urednik',
  7: 'revizor',
  8: 'odobritelj',
  10: 'udeleženec',
};

export const isRoleId = (value: number): value is RoleId => value in NAMES;

/** A role's Slovenian name; an id the catalogue does not know is printed as it is. */
export const roleLabel = (id: number): string => (isRoleId(id) ? ROLE_LABELS[id] : String(id));

/** unit_id 0 means "every unit of the company", but only for these roles (spec §6). */
export const COMPANY_WIDE_ROLES: ReadonlySet<RoleId> = new Set([ROLE.manager, ROLE.director]);
