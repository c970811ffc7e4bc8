import { sql } from 'slonik';
import { defineProjection } from '../../infrastructure/projections/projection.port.ts';

type Data = { kind: string; recipient: string; triggeredBy: string; error?: string; attempt?: number; reason?: string };

/** What became of each message (mail events, DESIGN §10): the admin's delivery log. */
export const mailProjection = defineProjection({
  name: 'mail',
  version: 1,
  tables: ['mail_log'],
  setup: (table) => [
    sql.unsafe`create table ${table('mail_log')} (
      id text primary key, kind text not null, recipient text not null, status text not null, attempts integer not null default 0,
      last_error text, updated_at timestamptz not null)`,
    sql.unsafe`create index on ${table('mail_log')} (updated_at desc)`,
  ],
  handlers: {
    MailSent: async ({ tx, table }, event) => {
      const d = event.data as Data;
      await tx.query(sql.unsafe`
        insert into ${table('mail_log')} (id, kind, recipient, status, attempts, updated_at)
        values (${event.streamName.slice('mail-'.length)}, ${d.kind}, ${d.recipient}, 'sent', 1, ${event.createdAt.toISOString()})
        on conflict (id) do update set status = 'sent', attempts = ${table('mail_log')}.attempts + 1, updated_at = excluded.updated_at`);
    },
    MailFailed: async ({ tx, table }, event) => {
      const d = event.data as Data;
      await tx.query(sql.unsafe`
        insert into ${table('mail_log')} (id, kind, recipient, status, attempts, last_error, updated_at)
        values (${event.streamName.slice('mail-'.length)}, ${d.kind}, ${d.recipient}, 'failed', 1, ${d.error ?? null}, ${event.createdAt.toISOString()})
        on conflict (id) do update set status = 'failed', attempts = ${table('mail_log')}.attempts + 1, last_error = excluded.last_error,
          updated_at = excluded.updated_at`);
    },
    MailSkipped: async ({ tx, table }, event) => {
      const d = event.data as Data;
      await tx.query(sql.unsafe`
        insert into ${table('mail_log')} (id, kind, recipient, status, last_error, updated_at)
        values (${event.streamName.slice('mail-'.length)}, ${d.kind}, ${d.recipient}, 'skipped', ${d.reason ?? null}, ${event.createdAt.toISOString()})
        on conflict (id) do update set status = 'skipped', last_error = excluded.last_error, updated_at = excluded.updated_at`);
    },
  },
});
