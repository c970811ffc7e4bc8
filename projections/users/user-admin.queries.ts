import { type DatabasePool, type FragmentSqlToken, sql } from 'slonik';
import { z } from 'zod';
import { systemAbilities } from '../../domain/permissions/can.ts';
import { isRoleId, type RoleId } from '../../domain/permissions/roles.ts';
import { likePattern } from '../../infrastructure/postgres/search.port.ts';

/**
 * The admins' and managers' view of users (issue 14): a server-paginated list with search and
 * filters, one user's page, and managers' change requests. A manager's `reach` limits everything
 * to users holding a role in a unit (or company) the manager manages; a user outside it does not exist.
 */
export type UserReach = { readonly all: true } | { readonly all: false; readonly unitIds: readonly number[]; readonly companyIds: readonly number[] };

export const USER_STATUSES = ['active', 'inactive', 'deleted'] as const;
export const USER_SORTS = ['name', 'username', 'email', 'registeredAt', 'lastLoginAt', 'id'] as const;

export type UserListParams = {
  readonly search?: string | undefined;
  readonly roleId?: number | undefined;
  readonly companyId?: number | undefined;
  readonly unitId?: number | undefined;
  readonly groupId?: number | undefined;
  readonly professionId?: number | undefined;
  /** Deleted users show only when asked for. */
  readonly status?: (typeof USER_STATUSES)[number] | undefined;
  readonly sort?: (typeof USER_SORTS)[number] | undefined;
  readonly order?: 'asc' | 'desc' | undefined;
  readonly page?: number | undefined;
  readonly pageSize?: number | undefined;
};

const roleSummary = z.object({
  roleId: z.number(),
  unitId: z.number(),
  unitName: z.string().nullable(),
  companyId: z.number().nullable(),
  companyName: z.string().nullable(),
});

export const userListItem = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string(),
  fullName: z.string(),
  professionName: z.string().nullable(),
  licenceNumber: z.string().nullable(),
  chamberMembershipNumber: z.string().nullable(),
  status: z.enum(USER_STATUSES),
  roles: z.array(roleSummary),
  registeredAt: z.string(),
  lastLoginAt: z.string().nullable(),
  deletionRequested: z.boolean(),
  openChangeRequests: z.number(),
});

/**
 * Role filters read the users row's `role_keys` (GIN-indexed; kept by the projection): a page walks
 * the sort's index checking an array in the row, a count takes the matches from the index, and
 * neither joins 50,000 users to their roles.
 */
const keys = (values: readonly string[]) => sql.array([...values], 'text');

const reachFilter = (reach: UserReach) =>
  reach.all ? sql.fragment`true` : sql.fragment`u.role_keys && ${keys([...reach.unitIds.map((id) => `u${id}`), ...reach.companyIds.map((id) => `c${id}`)])}`;

const filters = (params: UserListParams, reach: UserReach) => {
  const parts: FragmentSqlToken[] = [reachFilter(reach)];
  parts.push(params.status ? sql.fragment`u.status = ${params.status}` : sql.fragment`u.status <> 'deleted'`);
  if (params.search?.trim()) parts.push(sql.fragment`u.search like ${likePattern(params.search).toLowerCase()}`);
  if (params.professionId !== undefined) parts.push(sql.fragment`u.profession_id = ${params.professionId}`);
  // One role must carry a combination: role=participant with company=B finds B's participants, not a manager of B who takes courses elsewhere.
  const role = params.roleId === undefined ? '' : `r${params.roleId}`;
  if (params.unitId !== undefined) parts.push(sql.fragment`u.role_keys @> ${keys([`${role}u${params.unitId}`])}`);
  if (params.companyId !== undefined) parts.push(sql.fragment`u.role_keys @> ${keys([`${params.unitId === undefined ? role : ''}c${params.companyId}`])}`);
  if (params.roleId !== undefined && params.unitId === undefined && params.companyId === undefined) parts.push(sql.fragment`u.role_keys @> ${keys([role])}`);
  if (params.groupId !== undefined) {
    parts.push(sql.fragment`exists (select 1 from rm.user_roles r join rm.community_group_units g on g.unit_id = r.unit_id
                                     where r.user_id = u.id and g.group_id = ${params.groupId}${params.roleId === undefined ? sql.fragment`` : sql.fragment` and r.role_id = ${params.roleId}`})`);
  }
  return sql.join(parts, sql.fragment` and `);
};

const SORTS: Record<(typeof USER_SORTS)[number], (dir: FragmentSqlToken) => FragmentSqlToken> = {
  name: (dir) => sql.fragment`u.last_name collate public.slovenian ${dir}, u.first_name collate public.slovenian ${dir}, u.id ${dir}`,
  username: (dir) => sql.fragment`lower(u.username) ${dir}, u.id ${dir}`,
  email: (dir) => sql.fragment`u.email ${dir}, u.id ${dir}`,
  registeredAt: (dir) => sql.fragment`u.registered_at ${dir}, u.id ${dir}`,
  lastLoginAt: (dir) => sql.fragment`u.last_login_at ${dir} nulls last, u.id ${dir}`,
  id: (dir) => sql.fragment`u.id ${dir}`,
};

// Trimmed: an erased person (decision 0019) has the placeholder as first name and no last name.
const FULL_NAME = sql.fragment`trim(u.first_name || coalesce(' ' || u.middle_name, '') || ' ' || u.last_name)`;

// Each role's unit and company named by their keys: joined, the planner hashed every unit and
// company once per user of the page (a thousand units twenty times).
const ROLES_OF = sql.fragment`coalesce((
  select json_agg(json_build_object('roleId', r.role_id, 'unitId', r.unit_id, 'unitName', r.unit_name, 'companyId', r.company_id, 'companyName', r.company_name)
                  order by r.role_id, r.company_name, r.unit_name)
    from (select r.role_id, r.unit_id, r.company_id, (select un.name from rm.units un where un.id = r.unit_id) as unit_name,
                 (select c.name from rm.companies c where c.id = r.company_id) as company_name
            from rm.user_roles r where r.user_id = u.id) r), '[]'::json)`;

export const listUsers = async (db: DatabasePool, params: UserListParams, reach: UserReach) => {
  const where = filters(params, reach);
  const size = Math.min(Math.max(params.pageSize ?? 20, 1), 100);
  const offset = (Math.max(params.page ?? 1, 1) - 1) * size;
  const order = SORTS[params.sort ?? 'name'](params.order === 'desc' ? sql.fragment`desc` : sql.fragment`asc`);
  // The page is read off the index of the sort, except for a search: its matches are found first
  // (trigram index) and sorted after, because walking the sort's index for them is a walk through
  // tens of thousands when they cluster (every "Novak" sits in one stretch of the alphabet).
  // `offset 0` keeps the planner from merging the two. Then the page's roles: 20 subqueries, not 50,000.
  const matches = params.search?.trim() ? sql.fragment`(select * from rm.users u where ${where} offset 0)` : sql.fragment`rm.users`;
  // The page and its total are independent: two connections, in parallel.
  const [items, total] = await Promise.all([
    db.any(sql.type(userListItem)`
    select u.id, u.username, u.email, ${FULL_NAME} as "fullName", p.name as "professionName", u.licence_number as "licenceNumber",
           u.chamber_membership_number as "chamberMembershipNumber", u.status, ${ROLES_OF} as roles,
           to_char(u.registered_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "registeredAt",
           to_char(u.last_login_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "lastLoginAt",
           u.deletion_requested_at is not null as "deletionRequested",
           (select count(*) from rm.user_change_requests q where q.user_id = u.id and q.status = 'open')::int as "openChangeRequests"
      from (select u.* from ${matches} u where ${where} order by ${order} limit ${size} offset ${offset}) u
      left join rm.professions p on p.id = u.profession_id
     order by ${order}`),
    countUsers(db, params, reach),
  ]);
  return { items: [...items], total };
};

const isUnfiltered = (params: UserListParams, reach: UserReach) =>
  reach.all && !params.search?.trim() && [params.roleId, params.companyId, params.unitId, params.groupId, params.professionId].every((v) => v === undefined);

/**
 * The one role key a list's filters come down to (one role, company or unit, or a role in one of
 * them, or a manager's single unit or company), when nothing else filters it; otherwise null.
 */
const singleKeyOf = (params: UserListParams, reach: UserReach): string | null => {
  if (params.search?.trim() || params.groupId !== undefined || params.professionId !== undefined) return null;
  const role = params.roleId === undefined ? '' : `r${params.roleId}`;
  const reachKeys = reach.all ? [] : [...reach.unitIds.map((id) => `u${id}`), ...reach.companyIds.map((id) => `c${id}`)];
  const filterKeys =
    params.unitId !== undefined && params.companyId !== undefined
      ? null
      : params.unitId !== undefined
        ? [`${role}u${params.unitId}`]
        : params.companyId !== undefined
          ? [`${role}c${params.companyId}`]
          : params.roleId !== undefined
            ? [role]
            : [];
  if (filterKeys === null) return null;
  const all = [...filterKeys, ...reachKeys];
  return all.length === 1 ? (all[0] as string) : null;
};

/**
 * The list's total: with no filter but the status it is the projection's count per status; with one
 * role key its count per key and status (both kept by the projection as users change); otherwise a
 * count of the matches.
 */
const countUsers = async (db: DatabasePool, params: UserListParams, reach: UserReach) => {
  const statuses = sql.array(params.status ? [params.status] : ['active', 'inactive'], 'text');
  const n = sql.type(z.object({ n: z.number() }));
  if (isUnfiltered(params, reach)) return db.oneFirst(n`select coalesce(sum(n), 0)::int as n from rm.user_status_counts where status = any(${statuses})`);
  const key = singleKeyOf(params, reach);
  if (key !== null) return db.oneFirst(n`select coalesce(sum(n), 0)::int as n from rm.user_key_counts where key = ${key} and status = any(${statuses})`);
  return db.oneFirst(n`select count(*)::int as n from rm.users u where ${filters(params, reach)}`);
};

export const changeRequestItem = z.object({
  id: z.string(),
  userId: z.number(),
  userName: z.string(),
  requestedBy: z.number(),
  requestedByName: z.string().nullable(),
  kind: z.enum(['unit', 'deletion', 'other']),
  description: z.string(),
  unitId: z.number().nullable(),
  unitName: z.string().nullable(),
  status: z.enum(['open', 'accepted', 'rejected']),
  reason: z.string().nullable(),
  requestedAt: z.string(),
  resolvedAt: z.string().nullable(),
});

const CHANGE_REQUEST_COLUMNS = sql.fragment`
  q.id::text, q.user_id as "userId", ${FULL_NAME} as "userName", q.requested_by as "requestedBy",
  m.first_name || ' ' || m.last_name as "requestedByName", q.kind, q.description, q.unit_id as "unitId", un.name as "unitName", q.status, q.reason,
  to_char(q.requested_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "requestedAt",
  to_char(q.resolved_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "resolvedAt"`;

/** Change requests: the admins' queue (open first), a user's, or those a manager filed. */
export const listChangeRequests = async (
  db: DatabasePool,
  filter: { readonly status?: 'open' | 'accepted' | 'rejected' | undefined; readonly userId?: number; readonly requestedBy?: number },
) => {
  const parts: FragmentSqlToken[] = [sql.fragment`true`];
  if (filter.status) parts.push(sql.fragment`q.status = ${filter.status}`);
  if (filter.userId !== undefined) parts.push(sql.fragment`q.user_id = ${filter.userId}`);
  if (filter.requestedBy !== undefined) parts.push(sql.fragment`q.requested_by = ${filter.requestedBy}`);
  return db.any(sql.type(changeRequestItem)`
    select ${CHANGE_REQUEST_COLUMNS}
      from rm.user_change_requests q join rm.users u on u.id = q.user_id left join rm.users m on m.id = q.requested_by left join rm.units un on un.id = q.unit_id
     where ${sql.join(parts, sql.fragment` and `)}
     order by (q.status = 'open') desc, q.requested_at desc
     limit 500`);
};

export const findChangeRequest = async (db: DatabasePool, requestId: string) =>
  db.maybeOne(sql.type(z.object({ userId: z.number(), kind: z.string(), unitId: z.number().nullable(), status: z.string() }))`
    select user_id as "userId", kind, unit_id as "unitId", status from rm.user_change_requests where id = ${requestId}`);

export const userDetail = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string(),
  secondaryEmail: z.string().nullable(),
  firstName: z.string(),
  middleName: z.string().nullable(),
  lastName: z.string(),
  fullName: z.string(),
  phone: z.string().nullable(),
  professionId: z.number().nullable(),
  professionName: z.string().nullable(),
  otherJob: z.string().nullable(),
  licenceNumber: z.string().nullable(),
  chamberMembershipNumber: z.string().nullable(),
  notes: z.string().nullable(),
  /** spec §3: shown read-only; rating is kept and not displayed. */
  onesignalEnabled: z.number(),
  status: z.enum(USER_STATUSES),
  origin: z.string(),
  emailConfirmed: z.boolean(),
  secondFactorEnabled: z.boolean(),
  registeredAt: z.string(),
  lastLoginAt: z.string().nullable(),
  deletionRequestedAt: z.string().nullable(),
  erased: z.boolean(),
  deletionReason: z.string().nullable(),
  socialIdentities: z.array(z.object({ platform: z.string(), email: z.string().nullable() })),
  roles: z.array(roleSummary),
  systemAbilities: z.array(z.object({ systemPermission: z.number() })),
  courses: z.array(
    z.object({
      courseId: z.number(),
      title: z.string(),
      status: z.string(),
      startedAt: z.string(),
      completedAt: z.string().nullable(),
      creditPoints: z.number().nullable(),
    }),
  ),
  changeRequests: z.array(changeRequestItem),
});

const detailRow = userDetail.omit({ systemAbilities: true, changeRequests: true });

export const getUserDetail = async (db: DatabasePool, userId: number, reach: UserReach) => {
  const row = await db.maybeOne(sql.type(detailRow)`
    select u.id, u.username, u.email, u.secondary_email as "secondaryEmail", u.first_name as "firstName", u.middle_name as "middleName",
           u.last_name as "lastName", ${FULL_NAME} as "fullName", u.phone, u.profession_id as "professionId", p.name as "professionName",
           u.other_job as "otherJob", u.licence_number as "licenceNumber", u.chamber_membership_number as "chamberMembershipNumber", u.notes,
           u.onesignal_enabled as "onesignalEnabled", u.status, u.origin, u.email_confirmed as "emailConfirmed", u.second_factor as "secondFactorEnabled",
           to_char(u.registered_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "registeredAt",
           to_char(u.last_login_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "lastLoginAt",
           to_char(u.deletion_requested_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "deletionRequestedAt", u.deletion_reason as "deletionReason", u.erased,
           (select coalesce(json_agg(json_build_object('platform', s->>'platform', 'email', s->>'email')), '[]'::json) from jsonb_array_elements(u.social) s)
             as "socialIdentities",
           ${ROLES_OF} as roles,
           coalesce((select json_agg(json_build_object('courseId', e.course_id, 'title', c.title, 'status', e.status,
                                                       'startedAt', to_char(e.started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                                                       'completedAt', to_char(e.completed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                                                       'creditPoints', e.credit_points::float8) order by e.started_at desc)
                       from rm.enrollments e join rm.courses c on c.id = e.course_id where e.user_id = u.id), '[]'::json) as courses
      from rm.users u left join rm.professions p on p.id = u.profession_id
     where u.id = ${userId} and ${reachFilter(reach)}`);
  if (!row) return null;
  const roleIds = row.roles.flatMap((r) => (isRoleId(r.roleId) ? [{ roleId: r.roleId as RoleId, unitId: r.unitId, companyId: r.companyId }] : []));
  return {
    ...row,
    // The admin label (spec §3 "notes (admin label)") is for admins: a manager's view leaves it out.
    notes: reach.all ? row.notes : null,
    systemAbilities: systemAbilities({ userId, roles: roleIds }).map((systemPermission) => ({ systemPermission })),
    changeRequests: [...(await listChangeRequests(db, { userId }))],
  };
};

/**
 * Where a user sits, for a manager's permission scope: the units and companies of the user's
 * roles; null when they have none (nobody manages them, so nobody but an admin sees them).
 */
export const userPlaces = async (db: DatabasePool, userId: number) => {
  const rows = await db.any(
    sql.type(z.object({ unit_id: z.number(), company_id: z.number() }))`
      select unit_id, company_id from rm.user_roles where user_id = ${userId} and company_id is not null`,
  );
  return rows.length === 0 ? null : rows.map((r) => ({ companyId: r.company_id, unitId: r.unit_id }));
};

/**
 * Named users that exist (decision 0047), with where they sit (units and companies of their
 * community and membership roles) and whether they hold a system role (staff belong to no company).
 */
export const userReferences = async (db: DatabasePool, ids: readonly number[]) =>
  db.any(
    sql.type(z.object({ id: z.number(), places: z.array(z.object({ companyId: z.number(), unitId: z.number() })), staff: z.boolean() }))`
      select u.id,
             coalesce(jsonb_agg(jsonb_build_object('companyId', r.company_id, 'unitId', r.unit_id)) filter (where r.company_id is not null), '[]') as places,
             coalesce(bool_or(r.role_id in (1, 6, 7)), false) as staff
        from rm.users u
        left join rm.user_roles r on r.user_id = u.id
       where u.id = any(${sql.array([...ids], 'int4')})
       group by u.id`,
  );
