import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';

export type PushReadDb = DatabasePool;

const device = z.object({ subscriptionId: z.string(), endpoint: z.string(), p256dh: z.string(), auth: z.string() });
export type StoredPushDevice = z.infer<typeof device>;

/** A person's browsers that receive push notifications, oldest first. */
export const pushDevicesOf = (db: DatabasePool, userId: number) =>
  db.any(sql.type(device)`
    select id as "subscriptionId", endpoint, p256dh, auth from rm.push_subscriptions where user_id = ${userId} order by created_at, id`);

/** The other people whose subscription is this browser's (an account switched on a shared browser). */
export const holdersOfEndpoint = (db: DatabasePool, endpoint: string, exceptUserId: number) =>
  db.anyFirst(sql.type(z.object({ userId: z.number() }))`
    select distinct user_id as "userId" from rm.push_subscriptions where endpoint = ${endpoint} and user_id <> ${exceptUserId}`);

const recipient = z.object({ status: z.string(), onesignalEnabled: z.number() });

/** Whether a person may get a push now as far as their account says: its status and the push preference (spec §3 onesignalEnabled; 0 off). */
export const pushRecipient = (db: DatabasePool, userId: number) =>
  db.maybeOne(sql.type(recipient)`select status, onesignal_enabled as "onesignalEnabled" from rm.users where id = ${userId}`);

/** Of these people, those with push on and at least one browser subscribed: a push job is queued for them. */
export const reachableByPush = async (db: DatabasePool, userIds: readonly number[]) =>
  userIds.length === 0
    ? []
    : db.anyFirst(sql.type(z.object({ id: z.number() }))`
        select u.id from rm.users u
         where u.id = any(${sql.array([...userIds], 'int4')}) and u.onesignal_enabled > 0
           and exists (select 1 from rm.push_subscriptions s where s.user_id = u.id)
         order by u.id`);

/** Whether the person was pushed a message of this kind since `since`, other than `exceptTriggeredBy` (spec §9: new-course notices once in 5 days). */
export const pushedSince = async (db: DatabasePool, userId: number, kind: string, since: Date, exceptTriggeredBy: string) =>
  (await db.maybeOneFirst(sql.type(z.object({ id: z.string() }))`
    select id from rm.push_log
     where user_id = ${userId} and kind = ${kind} and status = 'sent' and updated_at > ${since.toISOString()} and triggered_by <> ${exceptTriggeredBy}
     limit 1`)) !== null;
