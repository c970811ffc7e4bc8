import { z } from 'zod';
import { COMPANY_WIDE_ROLES, isRoleId, ROLE_SCOPE, type RoleId } from '../permissions/roles.ts';
import { notAReference, reference } from '../shared/id.rules.ts';
import { emailRule, personNameRule, phoneRule, profileRule, REQUIRED, usernameRule } from './user.rules.ts';
import { CHANGE_REQUEST_KINDS } from './user.ts';

/**
 * The admin's user form (issue 14, spec §3 and §5) and a manager's change request. Pure zod, no
 * I/O: the UI imports this file. Uniqueness of username and e-mail is decided by their claims.
 */
const MAX_ID = 2_147_483_647;

/** One role entry (spec §3 userRoles): role x company x unit; unit 0 = every unit of the company, for manager and director only. */
export const roleAssignmentRule = z
  .object({
    roleId: notAReference(
      z
        .number({ error: REQUIRED })
        .int()
        .refine((v) => isRoleId(v), { error: 'Neznana vloga' }),
      'one of the fixed roles of spec §6',
    ),
    companyId: reference('company', z.number().int().positive().max(MAX_ID)).nullable(),
    /** 0: every unit of the company (never looked up). */
    unitId: reference('unit', z.number().int().nonnegative().max(MAX_ID)),
  })
  .strict()
  .superRefine((role, context) => {
    if (!isRoleId(role.roleId)) return;
    const scope = ROLE_SCOPE[role.roleId as RoleId];
    if (scope === 'admin') {
      if (role.companyId !== null || role.unitId !== 0)
        context.addIssue({ code: 'custom', message: 'Sistemska vloga ne velja za podjetje ali enoto.', path: ['companyId'] });
      return;
    }
    if (role.companyId === null) context.addIssue({ code: 'custom', message: 'Izberite podjetje.', path: ['companyId'] });
    if (role.unitId === 0 && !COMPANY_WIDE_ROLES.has(role.roleId as RoleId)) {
      context.addIssue({ code: 'custom', message: 'Vse enote podjetja lahko zajema le vloga vodje ali direktorja.', path: ['unitId'] });
    }
  });

export type RoleAssignmentInput = z.output<typeof roleAssignmentRule>;

const notesRule = z
  .string()
  .trim()
  .max(200, { error: 'Vnos je predolg' })
  .nullish()
  .transform((v) => v || null);

/** Every §3 field an admin edits; the profession may stay empty for staff accounts (an editor needs none). */
export const adminUserRule = profileRule
  .extend({
    username: usernameRule,
    email: emailRule,
    firstName: personNameRule,
    lastName: personNameRule,
    phone: phoneRule,
    professionId: reference('profession', z.number().int().positive().max(MAX_ID)).nullable(),
    notes: notesRule,
    roles: z.array(roleAssignmentRule).max(200),
  })
  .strict();

export type AdminUserFields = z.output<typeof adminUserRule>;

export const createUserRule = adminUserRule.extend({ sendWelcome: z.boolean().default(true) }).strict();

/** Bulk activate or deactivate (issue 14 item 1). */
export const bulkLifecycleRule = z
  .object({
    userIds: z
      .array(reference('user', z.number().int().positive().max(MAX_ID)))
      .min(1, { error: 'Izberite vsaj enega uporabnika.' })
      .max(1000),
    active: z.boolean(),
  })
  .strict();

/** spec §4 and §5: a manager's request (change of unit, deletion, other) needs a description. */
export const changeRequestRule = z
  .object({
    kind: z.enum(CHANGE_REQUEST_KINDS, { error: REQUIRED }),
    description: z.string({ error: REQUIRED }).trim().min(1, { error: REQUIRED }).max(1000, { error: 'Vnos je predolg' }),
    unitId: reference('unit', z.number().int().positive().max(MAX_ID))
      .nullish()
      .transform((v) => v ?? null),
  })
  .strict()
  .refine((v) => v.kind !== 'unit' || v.unitId !== null, { error: 'Izberite novo enoto.', path: ['unitId'] });

export const resolveChangeRequestRule = z
  .object({
    outcome: z.enum(['accepted', 'rejected'], { error: REQUIRED }),
    reason: z
      .string()
      .trim()
      .max(1000, { error: 'Vnos je predolg' })
      .nullish()
      .transform((v) => v || null),
  })
  .strict()
  .refine((v) => v.outcome === 'accepted' || v.reason !== null, { error: 'Ob zavrnitvi navedite razlog.', path: ['reason'] });
