import { sql } from 'slonik';
import { isPushEndpoint } from '../../domain/push/push.rules.ts';
import { defineProjection } from '../../infrastructure/projections/projection.port.ts';

type Subscribed = { userId: number; subscriptionId: string; endpoint: string; p256dh: string; auth: string; userAgent: string | null };
type Delivery = { userId: number; kind: string; triggeredBy: string; subscriptionId?: string; error?: string; gone?: boolean; reason?: string };

/**
 * Push notifications (issue 16 item 4): each person's browsers that receive them (the delivery job
 * reads their endpoints and keys here), and what became of each push message to a person (sent to at
 * least one browser, failed, or skipped and why), which the course notifications' history counts.
 */
export const pushProjection = defineProjection({
  name: 'push',
  version: 1,
  tables: ['push_subscriptions', 'push_log'],
  setup: (table) => [
    sql.unsafe`create table ${table('push_subscriptions')} (
      id text primary key, user_id integer not null, endpoint text not null, p256dh text not null, auth text not null, user_agent text,
      created_at timestamptz not null)`,
    sql.unsafe`create index on ${table('push_subscriptions')} (user_id)`,
    sql.unsafe`create index on ${table('push_subscriptions')} using hash (endpoint)`,
    sql.unsafe`create table ${table('push_log')} (
      id text primary key, user_id integer not null, kind text not null, triggered_by text not null, status text not null,
      devices integer not null default 0, attempts integer not null default 0, last_error text, updated_at timestamptz not null)`,
    sql.unsafe`create index on ${table('push_log')} (triggered_by)`,
    sql.unsafe`create index on ${table('push_log')} (user_id, kind, updated_at desc)`,
  ],
  handlers: {
    PushSubscribed: async ({ tx, table }, event) => {
      const d = event.data as Subscribed;
      // After an erasure (decision 0019) a rebuild reads placeholders, not an address: nothing to keep.
      if (!isPushEndpoint(d.endpoint)) return;
      await tx.query(sql.unsafe`
        insert into ${table('push_subscriptions')} (id, user_id, endpoint, p256dh, auth, user_agent, created_at)
        values (${d.subscriptionId}, ${d.userId}, ${d.endpoint}, ${d.p256dh}, ${d.auth}, ${d.userAgent}, ${event.createdAt.toISOString()})
        on conflict (id) do nothing`);
    },
    PushUnsubscribed: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`delete from ${table('push_subscriptions')} where id = ${(event.data as { subscriptionId: string }).subscriptionId}`);
    },
    UserErased: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`delete from ${table('push_subscriptions')} where user_id = ${Number(event.streamName.slice('user-'.length))}`);
    },
    PushDelivered: async ({ tx, table }, event) => {
      const d = event.data as Delivery;
      await tx.query(sql.unsafe`
        insert into ${table('push_log')} (id, user_id, kind, triggered_by, status, devices, attempts, updated_at)
        values (${event.streamName.slice('pushdelivery-'.length)}, ${d.userId}, ${d.kind}, ${d.triggeredBy}, 'sent', 1, 1, ${event.createdAt.toISOString()})
        on conflict (id) do update set status = 'sent', devices = ${table('push_log')}.devices + 1, attempts = ${table('push_log')}.attempts + 1,
          updated_at = excluded.updated_at`);
    },
    PushFailed: async ({ tx, table }, event) => {
      const d = event.data as Delivery;
      const error = d.gone ? 'gone' : (d.error ?? 'unknown');
      // A browser that failed does not undo one that was reached: the person was sent the message.
      await tx.query(sql.unsafe`
        insert into ${table('push_log')} (id, user_id, kind, triggered_by, status, attempts, last_error, updated_at)
        values (${event.streamName.slice('pushdelivery-'.length)}, ${d.userId}, ${d.kind}, ${d.triggeredBy}, 'failed', 1, ${error}, ${event.createdAt.toISOString()})
        on conflict (id) do update set status = case when ${table('push_log')}.status = 'sent' then 'sent' else 'failed' end,
          attempts = ${table('push_log')}.attempts + 1, last_error = excluded.last_error, updated_at = excluded.updated_at`);
    },
    PushSkipped: async ({ tx, table }, event) => {
      const d = event.data as Delivery;
      await tx.query(sql.unsafe`
        insert into ${table('push_log')} (id, user_id, kind, triggered_by, status, last_error, updated_at)
        values (${event.streamName.slice('pushdelivery-'.length)}, ${d.userId}, ${d.kind}, ${d.triggeredBy}, 'skipped', ${d.reason ?? null}, ${event.createdAt.toISOString()})
        on conflict (id) do update set status = 'skipped', last_error = excluded.last_error, updated_at = excluded.updated_at`);
    },
  },
});
