import type pg from 'pg';
import { likePattern } from '../postgres/search.port.ts';
import type { Mailer, Outbox, OutboxMessage } from './mailer.port.ts';

/** Mail kept in PostgreSQL (`public.mail_outbox`) instead of sent: the demo's mail, read by an admin in the UI. */
export const createOutboxMailer = (pool: pg.Pool): Mailer => ({
  send: async (message) => {
    // A retried job stores its message once.
    await pool.query(
      `insert into public.mail_outbox (id, recipient, subject, text_body, html_body) values ($1, $2, $3, $4, $5)
       on conflict (id) do nothing`,
      [message.id, message.to, message.subject, message.text, message.html],
    );
    return { messageId: `outbox:${message.id}` };
  },
});

/** The outbox as the admin's page reads it: newest first, searched by recipient or subject. */
export const createOutbox = (pool: pg.Pool): Outbox => {
  const row = (r: { id: string; recipient: string; subject: string; text_body: string; html_body: string; created_at: Date }): OutboxMessage => ({
    id: r.id,
    to: r.recipient,
    subject: r.subject,
    text: r.text_body,
    html: r.html_body,
    createdAt: r.created_at.toISOString(),
  });
  return {
    list: async ({ search, limit }) => {
      const pattern = search?.trim() ? likePattern(search) : null;
      const { rows } = await pool.query(
        `select id, recipient, subject, text_body, html_body, created_at from public.mail_outbox
          where $1::text is null or recipient ilike $1 or subject ilike $1 order by created_at desc limit $2`,
        [pattern, limit],
      );
      return rows.map(row);
    },
    get: async (id) => {
      const { rows } = await pool.query('select id, recipient, subject, text_body, html_body, created_at from public.mail_outbox where id = $1', [id]);
      return rows[0] ? row(rows[0]) : null;
    },
    forget: async (addresses) => {
      const result = await pool.query('delete from public.mail_outbox where lower(recipient) = any($1::text[])', [addresses.map((a) => a.toLowerCase())]);
      return result.rowCount ?? 0;
    },
  };
};
