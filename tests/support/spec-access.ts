/**
 * Who may do what, restated from the words of spec §6 and decisions 0003, 0013 and 0016 for the
 * authorization matrix, independently of domain/permissions: a mistake in the catalogue or in a
 * route's access shows up as a difference between the two.
 *
 * The fixture gives each principal one role: the manager, accountant and client in unit A1 of
 * company A, the director with unit_id 0 in company A (every unit of A), the participant a member
 * of A1, admin and editor their system roles, the auditor role 7 (decision 0013).
 */
export const PRINCIPALS = ['anonymous', 'admin', 'editor', 'manager', 'director', 'accountant', 'client', 'participant', 'auditor'] as const;
export type Principal = (typeof PRINCIPALS)[number];
export type SignedIn = Exclude<Principal, 'anonymous'>;

/** Units and companies of the fixture. */
export type Place = 'A1' | 'A2' | 'B1' | 'companyA' | 'companyB';
const COMPANY_OF: Record<'A1' | 'A2' | 'B1', 'companyA' | 'companyB'> = { A1: 'companyA', A2: 'companyA', B1: 'companyB' };

// spec §6 "Role to community permissions", word by word.
const MANAGER = [2011, 2000, 2001, 2004, 1027, 1035, 1049, 1050, 1051, 1059, 1060, 1061];
const COMMUNITY: Partial<Record<SignedIn, readonly number[]>> = {
  manager: MANAGER,
  // "like manager with is-director"
  director: [2012, ...MANAGER.filter((id) => id !== 2011)],
  // "read-only on the same, plus cost overview; no update or member changes"
  accountant: [2000, 2004, 1027, 1035, 1051, 1059, 1060, 1061, 2009],
  // "is-client, read, update, course, block and post read/create/update, members add/delete/read, block views"
  client: [2010, 2000, 2001, 2004, 2005, 2006, 1027, 1028, 1029, 1035, 1042, 1036, 1049, 1050, 1051, 1059, 1060, 1061],
};
// "participant: block read, course read, post create/read, record create"
const MEMBERSHIP: Partial<Record<SignedIn, readonly number[]>> = { participant: [2004, 2003, 1040, 2008, 1045] };

// Decision 0003 (admin every system permission; editor content, not users, money or login tokens) and 0013 (1070).
const ALL_SYSTEM = [
  1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011, 1012, 1017, 1018, 1019, 1020, 1023, 1024, 1025, 1026, 1031, 1041, 1033, 1039, 1052, 1053, 1054, 1055, 1056,
  1057, 1058, 1062, 1063, 1064, 1065, 1066, 1070,
  // Issue 36 (decisions 0063, 0064): sign approval steps, read and export approval trails, change approval settings (admins only).
  1071, 1072, 1073,
];
const SYSTEM: Partial<Record<SignedIn, readonly number[]>> = {
  admin: ALL_SYSTEM,
  editor: ALL_SYSTEM.filter((id) => ![1005, 1006, 1007, 1008, 1052, 1053, 1054, 1055, 1066, 1070, 1071, 1072, 1073].includes(id)),
  auditor: [1070, 1072],
};
// Every signed-in user on their own account.
const PROFILE = [1001, 1002, 1003, 1021, 1022, 1043, 1044, 1046, 1047, 1048];

/** Where each community principal's role sits: a unit (or 0 with the company). */
const ROLE_PLACE: Partial<Record<SignedIn, { unit: 'A1' | 0; company: 'companyA' }>> = {
  manager: { unit: 'A1', company: 'companyA' },
  director: { unit: 0, company: 'companyA' },
  accountant: { unit: 'A1', company: 'companyA' },
  client: { unit: 'A1', company: 'companyA' },
  participant: { unit: 'A1', company: 'companyA' },
};

export type Rule =
  | { readonly public: true }
  | { readonly signedIn: true }
  | { readonly system: number }
  | { readonly profile: number }
  | { readonly membership: number }
  /** A community permission in a place, or anywhere when `in` is left out. */
  | { readonly community: number; readonly in?: Place }
  /** A course targeted at a unit (a role in that very unit sees it) or public. */
  | { readonly audience: 'A1' | 'B1' | 'public' }
  /** Data that belongs to certain principals only (their own enrollment, their completed course). */
  | { readonly only: readonly SignedIn[] }
  /** A role in a unit of this company (decision 0009: a person joins only units of a company they belong to). */
  | { readonly belongsTo: 'companyA' | 'companyB' }
  | { readonly any: readonly Rule[] }
  | { readonly all: readonly Rule[] }
  | { readonly not: Rule };

/** A role covers a place: its own unit; a manager or director with unit 0 every unit of its company; any role its company. */
const covers = (principal: SignedIn, place: Place): boolean => {
  const role = ROLE_PLACE[principal];
  if (!role) return false;
  if (place === 'companyA' || place === 'companyB') return role.company === place;
  if (role.unit === place) return true;
  return role.unit === 0 && (principal === 'manager' || principal === 'director') && COMPANY_OF[place] === role.company;
};

export const allows = (principal: Principal, rule: Rule): boolean => {
  if ('public' in rule) return true;
  if (principal === 'anonymous') return false;
  if ('signedIn' in rule) return true;
  if ('system' in rule) return (SYSTEM[principal] ?? []).includes(rule.system);
  if ('profile' in rule) return PROFILE.includes(rule.profile);
  if ('membership' in rule) return (MEMBERSHIP[principal] ?? []).includes(rule.membership);
  if ('community' in rule) return (COMMUNITY[principal] ?? []).includes(rule.community) && (rule.in === undefined || covers(principal, rule.in));
  if ('audience' in rule) return rule.audience === 'public' || ROLE_PLACE[principal]?.unit === rule.audience;
  if ('only' in rule) return rule.only.includes(principal);
  if ('belongsTo' in rule) return ROLE_PLACE[principal]?.company === rule.belongsTo;
  if ('any' in rule) return rule.any.some((r) => allows(principal, r));
  if ('not' in rule) return !allows(principal, rule.not);
  return rule.all.every((r) => allows(principal, r));
};

// Shorthands for the matrix.
export const system = (id: number): Rule => ({ system: id });
export const any = (...rules: Rule[]): Rule => ({ any: rules });
export const all = (...rules: Rule[]): Rule => ({ all: rules });
export const community = (id: number, place?: Place): Rule => (place ? { community: id, in: place } : { community: id });
export const membership = (id: number): Rule => ({ membership: id });
export const profile = (id: number): Rule => ({ profile: id });
export const PUBLIC: Rule = { public: true };
export const SIGNED_IN: Rule = { signedIn: true };
