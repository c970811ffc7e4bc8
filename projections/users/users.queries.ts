import type pg from 'pg';
import { z } from 'zod';
import { CONSENT_TEXTS } from '../../domain/consents/consent.rules.ts';
import type { RoleAssignment, Subject } from '../../domain/permissions/can.ts';
import { systemAbilities } from '../../domain/permissions/can.ts';
import { isRoleId, roleName } from '../../domain/permissions/roles.ts';
import { ERASED_PERSON } from '../../domain/shared/event.ts';
import { likePattern } from '../../infrastructure/postgres/search.port.ts';

/** The users read model's plain pool: the acting user is read on every request without slonik's parsing. */
export type UsersDb = pg.Pool;

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
  consents: z.array(z.string()),
  roles: z.array(z.object({ role_id: z.number(), unit_id: z.number(), company_id: z.number().nullable() })),
  consent_length: z.number(),
  consent_head: z.string().nullable(),
});

/**
 * The acting user of a request: null when the account is not active or the session was ended.
 * This and the current user run on every request, so they are named prepared statements on the
 * plain pg pool (measured about 3x faster here than through slonik: docs/benchmarks.md).
 */
/**
 * The acting user and the required consents (current text versions) they do not hold; with how long
 * their consent stream is, as the read model applied it, and its head hash (decision 0052).
 */
export type AuthSubject = {
  readonly subject: Subject;
  readonly missingConsents: readonly number[];
  readonly consentStream: { readonly length: number; readonly headHash: string | null };
};

export const findAuthSubject = async (db: pg.Pool, userId: number, sessionId: string): Promise<AuthSubject | null> => {
  const result = await db.query({
    name: 'users_auth_subject',
    text: `select u.status,
                  exists (select 1 from rm.user_revoked_sessions s where s.session_id = $2) as revoked,
                  coalesce((select json_agg(json_build_object('role_id', r.role_id, 'unit_id', r.unit_id, 'company_id', r.company_id))
                              from rm.user_roles r where r.user_id = u.id), '[]'::json) as roles,
                  array(select c.consent_type || ':' || c.text_version from rm.user_consents c where c.user_id = u.id and c.given) as consents,
                  coalesce((select max(c.sequence) + 1 from rm.user_consents c where c.user_id = u.id), 0)::int as consent_length,
                  (select c.hash from rm.user_consents c where c.user_id = u.id order by c.sequence desc limit 1) as consent_head
             from rm.users u where u.id = $1`,
    values: [userId, sessionId],
  });
  if (result.rows.length === 0) return null;
  const row = authSubjectRow.parse(result.rows[0]);
  if (row.status !== 'active' || row.revoked) return null;
  const held = new Set(row.consents);
  return {
    subject: { userId, roles: toAssignments(row.roles) },
    missingConsents: CONSENT_TEXTS.filter((t) => t.required && !held.has(`${t.type}:${t.version}`)).map((t) => t.type),
    consentStream: { length: row.consent_length, headHash: row.consent_head },
  };
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
  /** The profession and what it asks of its members (spec §5): the UI sends a user missing a number to the profile. */
  profession: z.object({ id: z.number(), name: z.string(), needsLicenceNumber: z.boolean(), needsChamberNumber: z.boolean() }).nullable(),
  secondaryEmail: z.string().nullable(),
  /** spec §3; the push prompt re-enables notifications when this is 1. */
  onesignalEnabled: z.number(),
  /** spec §3 "rating (display disabled)": kept, never shown. */
  rating: z.number().nullable(),
  secondFactorEnabled: z.boolean(),
  socialIdentities: z.array(z.object({ platform: z.string(), email: z.string().nullable() })),
  otherJob: z.string().nullable(),
  licenceNumber: z.string().nullable(),
  chamberMembershipNumber: z.string().nullable(),
  /** When the user asked for their data to be deleted (spec §8), or null. */
  deletionRequestedAt: z.string().nullable(),
  userRoles: z.array(roleRow),
  systemAbilities: z.array(z.object({ systemPermission: z.number() })),
  /** spec §3 "consents (list with a type; codes 1 to 4)": those the user holds now, with the text version and when. */
  consents: z.array(z.object({ type: z.number(), textVersion: z.string(), givenAt: z.string() })),
  /** Required consent types not held for the current text: the UI sends the user to /pogoji. */
  missingConsents: z.array(z.number()),
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
  /** During "log in as": the admin acting for this user (as Moodle's realuser), so the header can say so. */
  realUser: z.object({ id: z.number(), fullName: z.string() }).nullable(),
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
  needs_licence_number: z.boolean().nullable(),
  needs_chamber_number: z.boolean().nullable(),
  secondary_email: z.string().nullable(),
  onesignal_enabled: z.number(),
  second_factor: z.boolean(),
  social: z.array(z.object({ platform: z.string(), email: z.string().nullable() })),
  other_job: z.string().nullable(),
  licence_number: z.string().nullable(),
  chamber_membership_number: z.string().nullable(),
  deletion_requested_at: z.date().nullable(),
  roles: z.array(roleRow),
  consents: z.array(z.object({ type: z.number(), textVersion: z.string(), givenAt: z.string() })),
});

export const findCurrentUser = async (db: pg.Pool, userId: number, realUserId: number | null = null): Promise<CurrentUser | null> => {
  const result = await db.query({
    name: 'users_current_user',
    text: `select u.id, u.username, u.email, u.first_name, u.middle_name, u.last_name, u.phone, u.profession_id, p.name as profession_name,
                  p.needs_licence_number, p.needs_chamber_number, u.secondary_email, u.onesignal_enabled, u.second_factor, u.social,
                  u.other_job, u.licence_number, u.chamber_membership_number, u.deletion_requested_at,
                  coalesce((
                    select json_agg(json_build_object('role_id', r.role_id, 'unit_id', r.unit_id, 'unit_name', un.name,
                                                      'company_id', coalesce(r.company_id, un.company_id), 'company_name', c.name)
                                    order by r.role_id, r.unit_id)
                      from rm.user_roles r
                      left join rm.units un on un.id = r.unit_id
                      left join rm.companies c on c.id = coalesce(r.company_id, un.company_id)
                     where r.user_id = u.id), '[]'::json) as roles,
                  coalesce((select json_agg(json_build_object('type', c.consent_type, 'textVersion', c.text_version, 'givenAt', c.at) order by c.consent_type)
                              from rm.user_consents c where c.user_id = u.id and c.given), '[]'::json) as consents
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
    profession:
      user.profession_id !== null && user.profession_name !== null
        ? {
            id: user.profession_id,
            name: user.profession_name,
            needsLicenceNumber: user.needs_licence_number ?? false,
            needsChamberNumber: user.needs_chamber_number ?? false,
          }
        : null,
    secondaryEmail: user.secondary_email,
    onesignalEnabled: user.onesignal_enabled,
    rating: null,
    secondFactorEnabled: user.second_factor,
    socialIdentities: user.social.map((s) => ({ platform: s.platform, email: s.email })),
    otherJob: user.other_job,
    licenceNumber: user.licence_number,
    chamberMembershipNumber: user.chamber_membership_number,
    deletionRequestedAt: user.deletion_requested_at?.toISOString() ?? null,
    userRoles: [...roles],
    systemAbilities: systemAbilities(subject).map((systemPermission) => ({ systemPermission })),
    consents: user.consents.map((c) => ({ ...c, givenAt: new Date(c.givenAt).toISOString() })),
    missingConsents: CONSENT_TEXTS.filter((t) => t.required && !user.consents.some((c) => c.type === t.type && c.textVersion === t.version)).map((t) => t.type),
    roles: roles.flatMap((r) =>
      isRoleId(r.role_id)
        ? [{ id: r.role_id, name: roleName(r.role_id), unit_id: r.unit_id, unit_name: r.unit_name, company_id: r.company_id, company_name: r.company_name }]
        : [],
    ),
    realUser: realUserId === null ? null : { id: realUserId, fullName: (await userNames(db, [realUserId])).get(realUserId) ?? '' },
  };
};

/** Display names of users by id (who recorded a consent, for auditors); unknown ids are left out. */
export const userNames = async (db: pg.Pool, ids: readonly number[]): Promise<Map<number, string>> => {
  if (ids.length === 0) return new Map();
  const result = await db.query<{ id: number; name: string }>({
    name: 'users_names',
    text: `select id, concat_ws(' ', first_name, middle_name, last_name) as name from rm.users where id = any($1::int[])`,
    values: [[...ids]],
  });
  return new Map(result.rows.map((r) => [r.id, r.name]));
};

export const auditUserItem = z.object({ id: z.number(), fullName: z.string(), username: z.string(), email: z.string() });

/** Users an auditor looks up by name, username or e-mail (at most 20). */
export const searchUsersForAudit = async (db: pg.Pool, search: string) => {
  const pattern = likePattern(search);
  const result = await db.query({
    name: 'users_audit_search',
    text: `select id, concat_ws(' ', first_name, middle_name, last_name) as "fullName", username, email from rm.users
            where concat_ws(' ', first_name, middle_name, last_name) ilike $1 or username ilike $1 or email ilike $1 or id::text = $2
            order by last_name, first_name, id limit 20`,
    values: [pattern, search.trim()],
  });
  return result.rows.map((row) => auditUserItem.parse(row));
};

export const deletionRequestItem = z.object({
  id: z.number(),
  fullName: z.string(),
  username: z.string(),
  email: z.string(),
  requestedAt: z.string(),
  reason: z.string().nullable(),
});

/** Open requests to delete one's data (spec §8), oldest first: the admins' queue, due within 5 working days. */
export const listDeletionRequests = async (db: pg.Pool) => {
  const result = await db.query({
    name: 'users_deletion_requests',
    text: `select id, concat_ws(' ', first_name, middle_name, last_name) as "fullName", username, email,
                  to_char(deletion_requested_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "requestedAt", deletion_reason as reason
             from rm.users where deletion_requested_at is not null and status = 'active'
            order by deletion_requested_at, id limit 500`,
  });
  return result.rows.map((row) => deletionRequestItem.parse(row));
};

/**
 * Whom an auditor's consent history is of: any account that ever existed, deleted or erased too
 * (issue 32 item 3): the proof of consent is kept on purpose (GDPR art. 17(3)). An erased person is
 * shown as "izbrisan uporabnik #id"; the times, types, addresses and browsers of the history stay.
 */
export const findAuditSubject = async (db: pg.Pool, userId: number) => {
  const result = await db.query<{ id: number; fullName: string; username: string; email: string; erased: boolean }>({
    name: 'users_audit_subject',
    text: `select id, concat_ws(' ', first_name, middle_name, last_name) as "fullName", username, email, erased from rm.users where id = $1`,
    values: [userId],
  });
  const row = result.rows[0];
  if (!row) return null;
  const pseudonym = `${ERASED_PERSON} #${row.id}`;
  return row.erased ? { id: row.id, fullName: pseudonym, username: pseudonym, email: pseudonym } : auditUserItem.parse(row);
};
