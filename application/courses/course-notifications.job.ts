import { z } from 'zod';
import { type ConsentEvent, consentStream } from '../../domain/consents/consent.ts';
import { mayContact } from '../../domain/consents/contact.ts';
import type { JobHandler, Jobs } from '../../infrastructure/jobs/jobs.port.ts';
import type { Projection } from '../../infrastructure/projections/projection.port.ts';
import type { PushSender } from '../../infrastructure/push/push.port.ts';
import { notificationRecipients, prescriptionWithheld } from '../../projections/courses/course-audience.queries.ts';
import {
  coursesWithNotifications,
  newCourseNoticeSince,
  notificationRecipient,
  notifiedWithinReminder,
} from '../../projections/courses/course-notifications.queries.ts';
import type { CourseReadDb } from '../../projections/courses/courses.queries.ts';
import { pushDevicesOf, pushedSince, pushRecipient, reachableByPush } from '../../projections/push/push.queries.ts';
import { alreadySent, deliverMail, type MailDeps, messageIdFor, skipMail } from '../shared/deliver-mail.ts';
import { deliverPush, pushDeliveryState, skipPush } from '../shared/deliver-push.ts';
import { courseNotificationMail } from './course-notifications.templates.ts';
import { notificationMailKind } from './course-notifications.ts';

export const NOTIFICATION_EXPAND_QUEUE = 'course.notification.expand';
export const NOTIFICATION_MAIL_QUEUE = 'course.notification.mail';
export const NOTIFICATION_PUSH_QUEUE = 'course.notification.push';
export const NOTIFICATION_TICK_QUEUE = 'course.notification.tick';

/** spec §9: automatic new-course notices at most once per 5 days per user. */
export const NEW_COURSE_NOTICE_GAP_MS = 5 * 24 * 3600 * 1000;

type Requested = { notificationId: string; kind: 'manual' | 'reminder' | 'new-course'; subject: string; message: string; requestedAt: string };
export type NotificationDeps = MailDeps & {
  readonly db: CourseReadDb;
  readonly jobs: Pick<Jobs, 'send'>;
  readonly publicUrl: string;
  readonly now: () => Date;
  /** Push notifications (issue 16 item 4); without a sender, notifications go by mail only. */
  readonly push?: PushSender;
};

/** A push notification's text fits the push service's 4 KB, and a lock screen. */
const PUSH_TITLE_MAX = 120;
const PUSH_BODY_MAX = 240;
const shorten = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
};

/**
 * Course notifications asked for (issue 16), followed like a read model (DESIGN §10): each queues one
 * job that finds its recipients; the job id is made from the event, so a batch applied again queues nothing new.
 */
export const courseNotificationsReactor = (jobs: Pick<Jobs, 'send'>): Projection => ({
  name: 'course_notification_jobs',
  version: 1,
  tables: [],
  setup: () => [],
  handles: ['CourseNotificationRequested'],
  apply: async (_context, events) => {
    for (const event of events) {
      await jobs.send(NOTIFICATION_EXPAND_QUEUE, { streamName: event.streamName, eventId: event.eventId }, { id: messageIdFor(event.eventId, 'expand') });
    }
  },
});

const triggered = z.object({ streamName: z.string().regex(/^course-\d+$/), eventId: z.string() });

const requestOf = async (deps: NotificationDeps, streamName: string, eventId: string) => {
  const event = (await deps.store.readStream(streamName)).events.find((e) => e.eventId === eventId);
  return event ? { courseId: Number(streamName.slice('course-'.length)), request: event.data as Requested } : null;
};

/**
 * One notification's recipients (its audience now; a reminder's only those who have not finished),
 * each a mail job of its own whose id is made from the notification and the person: a job that dies
 * half way and runs again queues nobody twice, and each mail job sends once (`alreadySent`).
 */
export const expandNotification =
  (deps: NotificationDeps): JobHandler =>
  async (data) => {
    const { streamName, eventId } = triggered.parse(data);
    const found = await requestOf(deps, streamName, eventId);
    if (!found) return;
    const recipients = await notificationRecipients(deps.db, found.courseId, { onlyUnfinished: found.request.kind === 'reminder' });
    for (const userId of recipients) {
      await deps.jobs.send(NOTIFICATION_MAIL_QUEUE, { streamName, eventId, userId }, { id: messageIdFor(found.request.notificationId, `to:${userId}`) });
    }
    // And by push, a job per person and channel, to those who switched push on and have a browser subscribed.
    if (!deps.push) return;
    for (const userId of await reachableByPush(deps.db, recipients)) {
      await deps.jobs.send(NOTIFICATION_PUSH_QUEUE, { streamName, eventId, userId }, { id: pushMessageId(found.request.notificationId, userId) });
    }
  };

/** A reminder is not for someone the course announced itself to, or wrote to by hand, within the reminder's interval before it. */
const remindedTooSoon = (deps: NotificationDeps, userId: number, courseId: number, request: Requested) =>
  notifiedWithinReminder(deps.db, { userId, courseId, notificationId: request.notificationId, requestedAt: request.requestedAt });

/** The id of one person's push of a notification: its job's id and its delivery stream's. */
export const pushMessageId = (notificationId: string, userId: number) => messageIdFor(notificationId, `push:${userId}`);

/**
 * One person's mail of a notification: only to an active account whose consents allow being
 * contacted by e-mail now (decision 0013: terms of use and communications), a new-course notice only
 * when the last one is 5 days old or more; who is skipped, and why, is recorded like a sent mail, so
 * the notifications tab counts it.
 */
export const mailNotification =
  (deps: NotificationDeps): JobHandler =>
  async (data, meta) => {
    const { streamName, eventId, userId } = triggered.extend({ userId: z.number().int().positive() }).parse(data);
    const found = await requestOf(deps, streamName, eventId);
    if (!found) return;
    const { request, courseId } = found;
    const messageId = messageIdFor(request.notificationId, `to:${userId}`);
    if (await alreadySent(deps, messageId)) return;
    const person = await notificationRecipient(deps.db, userId, courseId);
    if (!person) return;
    const kind = notificationMailKind(request.kind);
    const skip = (reason: string) => skipMail(deps, messageId, { kind, recipient: person.email, triggeredBy: request.notificationId, reason, userId });
    // An RX course reaches only who may receive it when the mail goes, not only when it was queued (decision 0062).
    if (await prescriptionWithheld(deps.db, courseId, userId)) return void (await skip('not-prescriber'));
    if (person.status !== 'active') return void (await skip('inactive'));
    const consents = (await deps.store.readStream(consentStream(userId))).events.map((e) => ({ type: e.type, data: e.data }) as ConsentEvent);
    if (!mayContact(consents, 'email', deps.now()).allowed) return void (await skip('no-consent'));
    if (request.kind === 'new-course' && (await newCourseNoticeSince(deps.db, userId, new Date(deps.now().getTime() - NEW_COURSE_NOTICE_GAP_MS))))
      return void (await skip('recently-notified'));
    if (request.kind === 'reminder' && (await remindedTooSoon(deps, userId, courseId, request))) return void (await skip('notified-within-reminder'));
    const content = courseNotificationMail({
      name: person.firstName,
      subject: request.subject,
      message: request.message,
      courseTitle: person.courseTitle,
      courseUrl: `${deps.publicUrl}/izobrazevanja/${courseId}`,
      unsubscribeUrl: `${deps.publicUrl}/profil/pogoji`,
    });
    await deliverMail(
      deps,
      { id: messageId, to: person.email, ...content },
      { kind, triggeredBy: request.notificationId, attempt: meta.retryCount + 1, userId },
    );
  };

/**
 * One person's push of a notification (issue 16 items 4 and 5): to each of their subscribed browsers,
 * only while their account is active, push is on for them (spec §3 onesignalEnabled; 0 off) and their
 * consents allow being contacted by push now (decision 0013), and a new-course notice only when the
 * last one pushed is 5 days old or more. Who is skipped, and why, is recorded; a browser reached is
 * never sent it again, and one the push service says is gone is removed. Tapping it opens the course.
 */
export const pushNotification =
  (deps: NotificationDeps): JobHandler =>
  async (data, meta) => {
    const push = deps.push;
    if (!push) return;
    const { streamName, eventId, userId } = triggered.extend({ userId: z.number().int().positive() }).parse(data);
    const found = await requestOf(deps, streamName, eventId);
    if (!found) return;
    const { request, courseId } = found;
    const messageId = pushMessageId(request.notificationId, userId);
    const state = await pushDeliveryState(deps, messageId);
    if (state.status === 'skipped') return;
    const person = await pushRecipient(deps.db, userId);
    if (!person) return;
    const kind = `course-${request.kind}`;
    const about = { userId, kind, triggeredBy: request.notificationId };
    const skip = async (reason: string) => void (await skipPush(deps, messageId, { ...about, reason }));
    if (await prescriptionWithheld(deps.db, courseId, userId)) return skip('not-prescriber');
    if (state.delivered.length === 0) {
      if (person.status !== 'active') return skip('inactive');
      if (person.onesignalEnabled <= 0) return skip('push-off');
      const consents = (await deps.store.readStream(consentStream(userId))).events.map((e) => ({ type: e.type, data: e.data }) as ConsentEvent);
      if (!mayContact(consents, 'push', deps.now()).allowed) return skip('no-consent');
      if (
        request.kind === 'new-course' &&
        (await pushedSince(deps.db, userId, kind, new Date(deps.now().getTime() - NEW_COURSE_NOTICE_GAP_MS), request.notificationId))
      )
        return skip('recently-notified');
      if (request.kind === 'reminder' && (await remindedTooSoon(deps, userId, courseId, request))) return skip('notified-within-reminder');
    }
    const devices = await pushDevicesOf(deps.db, userId);
    if (devices.length === 0 && state.delivered.length === 0) return skip('no-device');
    await deliverPush({ store: deps.store, push, log: deps.log }, messageId, {
      ...about,
      attempt: meta.retryCount + 1,
      devices,
      message: {
        title: shorten(request.subject, PUSH_TITLE_MAX),
        body: shorten(request.message, PUSH_BODY_MAX),
        path: `/izobrazevanja/${courseId}?vir=obvestilo`,
        tag: request.notificationId,
      },
    });
  };

/** The hourly schedule's job: the courses that may send automatic notifications, handed to the tick. */
export const openCoursesWithNotifications = (db: CourseReadDb) => coursesWithNotifications(db);
