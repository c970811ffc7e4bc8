import type pg from 'pg';
import { z } from 'zod';
import type { RoleAssignment, Subject } from '../../domain/permissions/can.ts';
import { systemAbilities } from '../../domain/permissions/can.ts';
import { isRoleId, roleName } from '../../domain/permissions/roles.ts';

const roleRow = z.object({
  role_id: z.number(),
  unit_id: z.number(),
  unit_name: z.string().nullable(),
  company_id: z.number().nullable(),
  company_name: z.string().nullable(),
});

const toAssignments = (rows: readonly { role_id: number; unit_id: number; company_id: number | null }[]): RoleAssignment[] =>
  rows.flatMap((r) => (isRoleId(r.role_id) ? [{ roleId: r.role_id, unitId: r.unit_id, companyId: r.company_id }] : []));

const authSubjectRow = z.object({
  status: z.string(),
  revoked: z.boolean(),
  roles: z.array(z.object({ role_id: z.number(), unit_id: z.number(), company_id: z.number().nullable() })),
});

/**
 * The acting user of a request: null when the account is not active or the session was ended.
 * This and the current user run on every request, so they are named prepared statements on the
 * plain pg pool (measured about 3x faster here than through slonik: docs/benchmarks.md).
 */
export const findAuthSubject = async (db: pg.Pool, userId: number, sessionId: string): Promise<Subject | null> => {
  const result = await db.query({
    name: 'users_auth_subject',
    text: `select u.status,
                  exists (select 1 from rm.user_revoked_sessions s where s.session_id = $2) as revoked,
                  coalesce((select json_agg(json_build_object('role_id', r.role_id, 'unit_id', r.unit_id, 'company_id', r.company_id))
                              from rm.user_roles r where r.user_id = u.id), '[]'::json) as roles
             from rm.users u where u.id = $1`,
    values: [userId, sessionId],
  });
  if (result.rows.length === 0) return null;
  const row = authSubjectRow.parse(result.rows[0]);
  if (row.status !== 'active' || row.revoked) return null;
  return { userId, roles: toAssignments(row.roles) };
};

export const currentUserSchema = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string(),
  firstName: z.string(),
  middleName: z.string().nullable(),
  lastName: z.string(),
  fullName: z.string(),
  phone: z.string().nullable(),
  profession: z.object({ id: z.number(), name: z.string() }).nullable(),
  userRoles: z.array(roleRow),
  systemAbilities: z.array(z.object({ systemPermission: z.number() })),
  roles: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      unit_id: z.number(),
      unit_name: z.string().nullable(),
      company_id: z.number().nullable(),
      company_name: z.string().nullable(),
    }),
  ),
});

export type CurrentUser = z.infer<typeof currentUserSchema>;

/** `GET /api/users/me`: the user with userRoles, systemAbilities and the derived roles of spec §3. */
const currentUserRow = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string(),
  first_name: z.string(),
  middle_name: z.string().nullable(),
  last_name: z.string(),
  phone: z.string().nullable(),
  profession_id: z.number().nullable(),
  profession_name: z.string().nullable(),
  roles: z.array(roleRow),
});

export const findCurrentUser = async (db: pg.Pool, userId: number): Promise<CurrentUser | null> => {
  const result = await db.query({
    name: 'users_current_user',
    text: `select u.id, u.username, u.email, u.first_name, u.middle_name, u.last_name, u.phone, u.profession_id, p.name as profession_name,
                  coalesce((
                    select json_agg(json_build_object('role_id', r.role_id, 'unit_id', r.unit_id, 'unit_name', un.name,
                                                      'company_id', coalesce(r.company_id, un.company_id), 'company_name', c.name)
                                    order by r.role_id, r.unit_id)
                      from rm.user_roles r
                      left join rm.units un on un.id = r.unit_id
                      left join rm.companies c on c.id = coalesce(r.company_id, un.company_id)
                     where r.user_id = u.id), '[]'::json) as roles
             from rm.users u left join rm.professions p on p.id = u.profession_id
            where u.id = $1 and u.status = 'active'`,
    values: [userId],
  });
  const user = result.rows.length === 0 ? null : currentUserRow.parse(result.rows[0]);
  if (!user) return null;
  const roles = user.roles;
  const subject: Subject = { userId, roles: toAssignments(roles) };
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    firstName: user.first_name,
    middleName: user.middle_name,
    lastName: user.last_name,
    fullName: [user.first_name, user.middle_name, user.last_name].filter(Boolean).join(' '),
    phone: user.phone,
    profession: user.profession_id !== null && user.profession_name !== null ? { id: user.profession_id, name: user.profession_name } : null,
    userRoles: [...roles],
    systemAbilities: systemAbilities(subject).map((systemPermission) => ({ systemPermission })),
    roles: roles.flatMap((r) =>
      isRoleId(r.role_id)
        ? [{ id: r.role_id, name: roleName(r.role_id), unit_id: r.unit_id, unit_name: r.unit_name, company_id: r.company_id, company_name: r.company_name }]
        : [],
    ),
  };
};
