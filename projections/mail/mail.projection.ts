import { sql } from 'slonik';
import { ERASED_PERSON } from '../../domain/shared/event.ts';
import { defineProjection } from '../../infrastructure/projections/projection.port.ts';

type Data = { kind: string; recipient: string; triggeredBy: string; userId?: number | null; error?: string; attempt?: number; reason?: string };

/** What became of each message (mail events, DESIGN §10): the admin's delivery log. */
export const mailProjection = defineProjection({
  name: 'mail',
  // 2: whose address it is (user_id), so an erasure (decision 0019) blanks it at once.
  // 3: what asked for it (triggered_by: an event, or a course notification's id), for the notifications' history (issue 16).
  version: 3,
  tables: ['mail_log'],
  setup: (table) => [
    sql.unsafe`create table ${table('mail_log')} (
      id text primary key, kind text not null, recipient text not null, user_id integer, status text not null, attempts integer not null default 0,
      last_error text, updated_at timestamptz not null, triggered_by text)`,
    sql.unsafe`create index on ${table('mail_log')} (user_id)`,
    sql.unsafe`create index on ${table('mail_log')} (triggered_by)`,
    sql.unsafe`create index on ${table('mail_log')} (updated_at desc)`,
  ],
  handlers: {
    MailSent: async ({ tx, table }, event) => {
      const d = event.data as Data;
      await tx.query(sql.unsafe`
        insert into ${table('mail_log')} (id, kind, recipient, user_id, status, attempts, updated_at, triggered_by)
        values (${event.streamName.slice('mail-'.length)}, ${d.kind}, ${d.recipient}, ${d.userId ?? null}, 'sent', 1, ${event.createdAt.toISOString()}, ${d.triggeredBy})
        on conflict (id) do update set status = 'sent', attempts = ${table('mail_log')}.attempts + 1, updated_at = excluded.updated_at`);
    },
    MailFailed: async ({ tx, table }, event) => {
      const d = event.data as Data;
      await tx.query(sql.unsafe`
        insert into ${table('mail_log')} (id, kind, recipient, user_id, status, attempts, last_error, updated_at, triggered_by)
        values (${event.streamName.slice('mail-'.length)}, ${d.kind}, ${d.recipient}, ${d.userId ?? null}, 'failed', 1, ${d.error ?? null}, ${event.createdAt.toISOString()}, ${d.triggeredBy})
        on conflict (id) do update set status = 'failed', attempts = ${table('mail_log')}.attempts + 1, last_error = excluded.last_error,
          updated_at = excluded.updated_at`);
    },
    MailSkipped: async ({ tx, table }, event) => {
      const d = event.data as Data;
      await tx.query(sql.unsafe`
        insert into ${table('mail_log')} (id, kind, recipient, user_id, status, last_error, updated_at, triggered_by)
        values (${event.streamName.slice('mail-'.length)}, ${d.kind}, ${d.recipient}, ${d.userId ?? null}, 'skipped', ${d.reason ?? null}, ${event.createdAt.toISOString()}, ${d.triggeredBy})
        on conflict (id) do update set status = 'skipped', last_error = excluded.last_error, updated_at = excluded.updated_at`);
    },
    // Decision 0019: the erased person's addresses (and errors that may quote them) go at once.
    UserErased: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`
        update ${table('mail_log')} set recipient = ${ERASED_PERSON}, last_error = null where user_id = ${Number(event.streamName.slice('user-'.length))}`);
    },
  },
});
