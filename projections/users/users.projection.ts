import { sql } from 'slonik';
import { ERASED_PERSON } from '../../domain/shared/event.ts';
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port.ts';
import { defineProjection, type Projection, type ProjectionContext } from '../../infrastructure/projections/projection.port.ts';

type Data<T> = { data: T };

/** `user-42` -> 42 */
const userIdOf = (event: RecordedEvent) => Number(event.streamName.slice('user-'.length));

/** Usernames are unique in the table: an erased person's (decision 0019) reads as the placeholder with their id. */
const usernameFor = (username: string, userId: number) => (username === ERASED_PERSON ? `${ERASED_PERSON} ${userId}` : username);

/**
 * Users as the API shows them: profile, roles and revoked sessions. Password hashes stay in the
 * user's stream; login reads them there.
 */
const perEvent = defineProjection({
  name: 'users',
  // 2: the profile fields of issue 12 (other job, licence and chamber numbers) and deletion requests.
  // 3: issue 13 (secondary e-mail, push, second factor, confirmed e-mail, social identities, e-mail changes).
  // 4: the reason of a deletion request, for the admins' list of requests.
  // 5: issue 14: lifecycle in `status` (active, inactive, deleted), the admin label, change requests,
  //    and the indexes of the admins' list (search by name, username, e-mail, numbers).
  // 6: users counted by status (the list's unfiltered total without a scan), indexes for every sort.
  // 7: erasure (decision 0019): UserErased blanks the person's row and requests; users counted per role key
  //    and status, so a filter on one role, company or unit has its total without counting the matches.
  version: 7,
  tables: ['users', 'user_roles', 'user_revoked_sessions', 'user_change_requests', 'user_status_counts', 'user_key_counts'],
  setup: (table) => [
    sql.unsafe`create table ${table('users')} (
      id integer primary key,
      username text not null,
      email text not null,
      first_name text not null,
      middle_name text,
      last_name text not null,
      phone text,
      profession_id integer,
      other_job text,
      licence_number text,
      chamber_membership_number text,
      deletion_requested_at timestamptz,
      deletion_reason text,
      -- Decision 0019: the person's key is destroyed; the row keeps only the placeholder.
      erased boolean not null default false,
      secondary_email text,
      onesignal_enabled integer not null default 0,
      second_factor boolean not null default false,
      email_confirmed boolean not null default true,
      social jsonb not null default '[]'::jsonb,
      origin text not null default 'seed',
      notes text,
      -- The user's roles as keys the list filters on without a join: r<role>, c<company>, u<unit>,
      -- r<role>c<company>, r<role>u<unit> (one role must carry a combination).
      role_keys text[] not null default '{}',
      status text not null,
      registered_at timestamptz not null,
      last_login_at timestamptz,
      -- What the admins' search looks in, lowercased once (a trigram index serves "contains").
      search text generated always as (lower(first_name || ' ' || coalesce(middle_name || ' ', '') || last_name || ' ' || username || ' ' || email || ' ' ||
        coalesce(licence_number, '') || ' ' || coalesce(chamber_membership_number, ''))) stored
    )`,
    sql.unsafe`create index on ${table('users')} using gin (search public.gin_trgm_ops)`,
    sql.unsafe`create index on ${table('users')} (last_name collate public.slovenian, first_name collate public.slovenian, id)`,
    sql.unsafe`create index on ${table('users')} (profession_id)`,
    sql.unsafe`create index on ${table('users')} using gin (role_keys)`,
    sql.unsafe`create index on ${table('users')} (lower(username), id)`,
    sql.unsafe`create index on ${table('users')} (email, id)`,
    sql.unsafe`create index on ${table('users')} (registered_at, id)`,
    sql.unsafe`create index on ${table('users')} (last_login_at desc nulls last, id desc)`,
    // How many users each status has: a count of 50,000 rows is a scan on every page of the list.
    sql.unsafe`create table ${table('user_status_counts')} (status text primary key, n integer not null)`,
    sql.unsafe`create table ${table('user_key_counts')} (key text not null, status text not null, n integer not null, primary key (key, status))`,
    sql.unsafe`create unique index on ${table('users')} (lower(username))`,
    sql.unsafe`create index on ${table('users')} (lower(email))`,
    sql.unsafe`create table ${table('user_roles')} (
      user_id integer not null,
      role_id integer not null,
      unit_id integer not null,
      company_id integer,
      unique nulls not distinct (user_id, role_id, unit_id, company_id)
    )`,
    sql.unsafe`create index on ${table('user_roles')} (unit_id)`,
    sql.unsafe`create index on ${table('user_roles')} (user_id)`,
    sql.unsafe`create index on ${table('user_roles')} (role_id)`,
    sql.unsafe`create index on ${table('user_roles')} (company_id)`,
    sql.unsafe`create table ${table('user_revoked_sessions')} (
      session_id uuid primary key,
      user_id integer not null,
      revoked_at timestamptz not null
    )`,
    sql.unsafe`create table ${table('user_change_requests')} (
      id uuid primary key,
      user_id integer not null,
      requested_by integer not null,
      kind text not null,
      description text not null,
      unit_id integer,
      status text not null default 'open',
      reason text,
      resolved_by integer,
      requested_at timestamptz not null,
      resolved_at timestamptz
    )`,
    sql.unsafe`create index on ${table('user_change_requests')} (user_id)`,
    sql.unsafe`create index on ${table('user_change_requests')} (status, requested_at)`,
  ],
  handlers: {
    UserRegistered: async ({ tx, table }: ProjectionContext, event) => {
      const d = (
        event as Data<{
          userId: number;
          username: string;
          email: string;
          firstName: string;
          middleName: string | null;
          lastName: string;
          phone: string | null;
          professionId: number | null;
          origin?: string;
          emailConfirmed?: boolean;
          otherJob?: string | null;
          licenceNumber?: string | null;
          chamberMembershipNumber?: string | null;
        }>
      ).data;
      // A row new to the table (xmax = 0: inserted, not updated) adds one to the active users.
      await tx.query(sql.unsafe`
        with registered as (
        insert into ${table('users')} (id, username, email, first_name, middle_name, last_name, phone, profession_id, other_job, licence_number,
                                       chamber_membership_number, origin, email_confirmed, status, registered_at)
        values (${d.userId}, ${usernameFor(d.username, d.userId)}, ${d.email}, ${d.firstName}, ${d.middleName}, ${d.lastName}, ${d.phone}, ${d.professionId}, ${d.otherJob ?? null},
                ${d.licenceNumber ?? null}, ${d.chamberMembershipNumber ?? null}, ${d.origin ?? 'seed'}, ${d.emailConfirmed ?? true}, 'active',
                ${event.createdAt.toISOString()})
        on conflict (id) do update set username = excluded.username, email = excluded.email, first_name = excluded.first_name,
          middle_name = excluded.middle_name, last_name = excluded.last_name, phone = excluded.phone, profession_id = excluded.profession_id,
          other_job = excluded.other_job, licence_number = excluded.licence_number, chamber_membership_number = excluded.chamber_membership_number,
          origin = excluded.origin, email_confirmed = excluded.email_confirmed
        returning (xmax = 0) as inserted)
        insert into ${table('user_status_counts')} as c (status, n) select 'active', 1 from registered where inserted
        on conflict (status) do update set n = c.n + 1`);
    },
    UserRoleGranted: async ({ tx, table }, event) => {
      const d = (event as Data<{ roleId: number; unitId: number; companyId: number | null }>).data;
      await tx.query(sql.unsafe`
        insert into ${table('user_roles')} (user_id, role_id, unit_id, company_id) values (${userIdOf(event)}, ${d.roleId}, ${d.unitId}, ${d.companyId})
        on conflict do nothing`);
      await refreshRoleKeys({ tx, table }, userIdOf(event));
    },
    UserRoleRevoked: async ({ tx, table }, event) => {
      const d = (event as Data<{ roleId: number; unitId: number; companyId: number | null }>).data;
      await tx.query(sql.unsafe`
        delete from ${table('user_roles')}
         where user_id = ${userIdOf(event)} and role_id = ${d.roleId} and unit_id = ${d.unitId} and company_id is not distinct from ${d.companyId}`);
      await refreshRoleKeys({ tx, table }, userIdOf(event));
    },
    UserProfileUpdated: async ({ tx, table }, event) => {
      const d = (
        event as Data<{
          firstName: string;
          middleName: string | null;
          lastName: string;
          phone: string;
          professionId: number | null;
          otherJob: string | null;
          licenceNumber: string | null;
          chamberMembershipNumber: string | null;
        }>
      ).data;
      await tx.query(sql.unsafe`
        update ${table('users')} set first_name = ${d.firstName}, middle_name = ${d.middleName}, last_name = ${d.lastName}, phone = ${d.phone},
          profession_id = ${d.professionId}, other_job = ${d.otherJob}, licence_number = ${d.licenceNumber},
          chamber_membership_number = ${d.chamberMembershipNumber}
         where id = ${userIdOf(event)}`);
    },
    UserDeletionRequested: async ({ tx, table }, event) => {
      const { reason } = (event as RecordedEvent & Data<{ reason: string | null }>).data;
      await tx.query(sql.unsafe`
        update ${table('users')} set deletion_requested_at = coalesce(deletion_requested_at, ${event.createdAt.toISOString()}),
               deletion_reason = coalesce(deletion_reason, ${reason})
         where id = ${userIdOf(event)}`);
    },
    UserEmailConfirmed: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`update ${table('users')} set email_confirmed = true where id = ${userIdOf(event)}`);
    },
    UserPasswordResetCompleted: async ({ tx, table }, event) => {
      // A reset link proves the mailbox too.
      await tx.query(sql.unsafe`update ${table('users')} set email_confirmed = true where id = ${userIdOf(event)}`);
    },
    UserEmailChanged: async ({ tx, table }, event) => {
      const d = (event as Data<{ newEmail: string }>).data;
      await tx.query(sql.unsafe`update ${table('users')} set email = ${d.newEmail}, email_confirmed = true where id = ${userIdOf(event)}`);
    },
    UserSecondaryEmailChanged: async ({ tx, table }, event) => {
      const d = (event as Data<{ secondaryEmail: string | null }>).data;
      await tx.query(sql.unsafe`update ${table('users')} set secondary_email = ${d.secondaryEmail} where id = ${userIdOf(event)}`);
    },
    UserPushPreferenceChanged: async ({ tx, table }, event) => {
      const d = (event as Data<{ onesignalEnabled: number }>).data;
      await tx.query(sql.unsafe`update ${table('users')} set onesignal_enabled = ${d.onesignalEnabled} where id = ${userIdOf(event)}`);
    },
    UserSecondFactorEnabled: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`update ${table('users')} set second_factor = true where id = ${userIdOf(event)}`);
    },
    UserSecondFactorDisabled: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`update ${table('users')} set second_factor = false where id = ${userIdOf(event)}`);
    },
    UserSocialIdentityBound: async ({ tx, table }, event) => {
      const d = (event as Data<{ platform: string; subject: string; email: string | null }>).data;
      const entry = sql.jsonb({ platform: d.platform, subject: d.subject, email: d.email });
      await tx.query(sql.unsafe`
        update ${table('users')} set social = (select coalesce(jsonb_agg(s), '[]'::jsonb) from jsonb_array_elements(social) s
                                                 where not (s->>'platform' = ${d.platform} and s->>'subject' = ${d.subject})) || jsonb_build_array(${entry}::jsonb)
         where id = ${userIdOf(event)}`);
    },
    UserSocialIdentityUnbound: async ({ tx, table }, event) => {
      const d = (event as Data<{ platform: string; subject: string }>).data;
      await tx.query(sql.unsafe`
        update ${table('users')} set social = (select coalesce(jsonb_agg(s), '[]'::jsonb) from jsonb_array_elements(social) s
                                                 where not (s->>'platform' = ${d.platform} and s->>'subject' = ${d.subject}))
         where id = ${userIdOf(event)}`);
    },
    UserDeactivated: async (context, event) => setStatus(context, event, 'inactive'),
    UserActivated: async (context, event) => setStatus(context, event, 'active'),
    UserDeleted: async (context, event) => setStatus(context, event, 'deleted'),
    UserReactivated: async (context, event) => setStatus(context, event, 'active'),
    UserNotesChanged: async ({ tx, table }, event) => {
      const d = (event as Data<{ notes: string | null }>).data;
      await tx.query(sql.unsafe`update ${table('users')} set notes = ${d.notes} where id = ${userIdOf(event)}`);
    },
    UserUsernameChanged: async ({ tx, table }, event) => {
      const d = (event as Data<{ newUsername: string }>).data;
      await tx.query(sql.unsafe`update ${table('users')} set username = ${usernameFor(d.newUsername, userIdOf(event))} where id = ${userIdOf(event)}`);
    },
    // Decision 0019: the person's key is gone; what this table holds of them goes at once (a rebuild reads placeholders anyway).
    UserErased: async ({ tx, table }, event) => {
      const userId = userIdOf(event);
      await tx.query(sql.unsafe`
        update ${table('users')} set username = ${usernameFor(ERASED_PERSON, userId)}, email = ${ERASED_PERSON}, first_name = ${ERASED_PERSON},
          middle_name = null, last_name = '', phone = null, other_job = null, licence_number = null, chamber_membership_number = null,
          deletion_reason = null, secondary_email = null, social = '[]'::jsonb, notes = null, erased = true
        where id = ${userId}`);
      await tx.query(sql.unsafe`
        update ${table('user_change_requests')} set description = ${ERASED_PERSON}, reason = case when reason is null then null else ${ERASED_PERSON} end
        where user_id = ${userId}`);
    },
    UserEmailReplaced: async ({ tx, table }, event) => {
      const d = (event as Data<{ newEmail: string }>).data;
      await tx.query(sql.unsafe`update ${table('users')} set email = ${d.newEmail}, email_confirmed = true where id = ${userIdOf(event)}`);
    },
    UserChangeRequested: async ({ tx, table }, event) => {
      const d = (event as Data<{ requestId: string; requestedBy: number; kind: string; description: string; unitId: number | null }>).data;
      await tx.query(sql.unsafe`
        insert into ${table('user_change_requests')} (id, user_id, requested_by, kind, description, unit_id, requested_at)
        values (${d.requestId}, ${userIdOf(event)}, ${d.requestedBy}, ${d.kind}, ${d.description}, ${d.unitId}, ${event.createdAt.toISOString()})
        on conflict (id) do nothing`);
    },
    UserChangeRequestResolved: async ({ tx, table }, event) => {
      const d = (event as Data<{ requestId: string; outcome: string; reason: string | null; resolvedBy: number }>).data;
      await tx.query(sql.unsafe`
        update ${table('user_change_requests')} set status = ${d.outcome}, reason = ${d.reason}, resolved_by = ${d.resolvedBy},
               resolved_at = ${event.createdAt.toISOString()}
         where id = ${d.requestId}`);
    },
    UserLoggedIn: async (context, event) => applyLogins(context, [event]),
    UserLoggedOut: async ({ tx, table }, event) => {
      const d = (event as Data<{ sessionId: string }>).data;
      await tx.query(sql.unsafe`
        insert into ${table('user_revoked_sessions')} (session_id, user_id, revoked_at) values (${d.sessionId}, ${userIdOf(event)}, ${event.createdAt.toISOString()})
        on conflict do nothing`);
    },
  },
});

/** The role keys of a user, from their roles as they stand (unit 0 of a company-wide role is no unit key). */
const refreshRoleKeys = async ({ tx, table }: Pick<ProjectionContext, 'tx' | 'table'>, userId: number) => {
  // Both CTEs see the row as it was: the keys that went count one less, the keys that came one more.
  await tx.query(sql.unsafe`
    with previous as (select role_keys, status from ${table('users')} where id = ${userId}),
         changed as (
           update ${table('users')} u set role_keys = coalesce((
             select array_agg(distinct k order by k)
               from ${table('user_roles')} r,
                    lateral (values ('r' || r.role_id), ('c' || r.company_id), ('r' || r.role_id || 'c' || r.company_id),
                                    (case when r.unit_id > 0 then 'u' || r.unit_id end), (case when r.unit_id > 0 then 'r' || r.role_id || 'u' || r.unit_id end)) keys(k)
              where r.user_id = u.id and k is not null), '{}')
            where u.id = ${userId}
           returning u.role_keys as keys, u.status),
         moves as (
           select k as key, p.status, -1 as d from previous p, unnest(p.role_keys) k where not array[k] <@ (select keys from changed)
           union all
           select k, c.status, 1 from changed c, unnest(c.keys) k where not array[k] <@ (select role_keys from previous))
    insert into ${table('user_key_counts')} as c (key, status, n) select key, status, sum(d)::int from moves group by key, status
    on conflict (key, status) do update set n = c.n + excluded.n`);
};

/** A status change moves the user from one count to the other (nothing when the status is already that). */
const setStatus = async ({ tx, table }: ProjectionContext, event: RecordedEvent, status: 'active' | 'inactive' | 'deleted') => {
  await tx.query(sql.unsafe`
    with previous as (select id, status from ${table('users')} where id = ${userIdOf(event)}),
         changed as (update ${table('users')} u set status = ${status} from previous p where u.id = p.id and p.status <> ${status} returning p.status as old, u.role_keys as keys),
         keyed as (
           insert into ${table('user_key_counts')} as c (key, status, n)
           select k, old, -1 from changed, unnest(keys) k union all select k, ${status}, 1 from changed, unnest(keys) k
           on conflict (key, status) do update set n = c.n + excluded.n)
    insert into ${table('user_status_counts')} as c (status, n)
    select old, -1 from changed union all select ${status}, 1 from changed
    on conflict (status) do update set n = c.n + excluded.n`);
};

/**
 * Logins are most of a user's events. They only ever move last_login_at forward, so the logins
 * of a batch are applied together after its other events (which create the rows they update):
 * one statement per batch instead of one per login, which is what makes a rebuild fast.
 */
const applyLogins = async ({ tx, table }: ProjectionContext, events: readonly RecordedEvent[]) => {
  const latest = new Map<number, number>();
  for (const event of events) {
    const id = userIdOf(event);
    latest.set(id, Math.max(latest.get(id) ?? 0, event.createdAt.getTime()));
  }
  if (latest.size === 0) return;
  await tx.query(sql.unsafe`
    update ${table('users')} u set last_login_at = greatest(u.last_login_at, l.at)
      from (select id, to_timestamp(ms / 1000.0) as at
              from unnest(${sql.array([...latest.keys()], 'int4')}::int4[], ${sql.array([...latest.values()], 'float8')}::float8[]) as t(id, ms)) l
     where u.id = l.id`);
};

/**
 * Logouts only ever add a revoked session (the first one of a session id stays): those of a batch
 * are one statement too, not one round trip each, which kept the read model behind its writes under
 * steady load (docs/benchmarks.md, lag).
 */
const applyLogouts = async ({ tx, table }: ProjectionContext, events: readonly RecordedEvent[]) => {
  if (events.length === 0) return;
  await tx.query(sql.unsafe`
    insert into ${table('user_revoked_sessions')} (session_id, user_id, revoked_at)
    select session_id, user_id, to_timestamp(ms / 1000.0)
      from unnest(${sql.array(
        events.map((e) => (e as Data<{ sessionId: string }>).data.sessionId),
        'uuid',
      )}::uuid[], ${sql.array(events.map(userIdOf), 'int4')}::int4[], ${sql.array(
        events.map((e) => e.createdAt.getTime()),
        'float8',
      )}::float8[]) with ordinality as t(session_id, user_id, ms, n)
     order by n
    on conflict do nothing`);
};

const BATCHED = new Set(['UserLoggedIn', 'UserLoggedOut']);

export const usersProjection: Projection = {
  ...perEvent,
  apply: async (context, events) => {
    const logins = events.filter((e) => e.type === 'UserLoggedIn');
    const logouts = events.filter((e) => e.type === 'UserLoggedOut');
    await perEvent.apply(context, logins.length + logouts.length === 0 ? events : events.filter((e) => !BATCHED.has(e.type)));
    await applyLogins(context, logins);
    await applyLogouts(context, logouts);
  },
};
