import { z } from 'zod';
import { type ConsentEvent, consentStream } from '../../domain/consents/consent.ts';
import { mayContact } from '../../domain/consents/contact.ts';
import type { JobHandler, Jobs } from '../../infrastructure/jobs/jobs.port.ts';
import type { Projection } from '../../infrastructure/projections/projection.port.ts';
import { notificationRecipients } from '../../projections/courses/course-audience.queries.ts';
import { coursesWithNotifications, newCourseNoticeSince, notificationRecipient } from '../../projections/courses/course-notifications.queries.ts';
import type { CourseReadDb } from '../../projections/courses/courses.queries.ts';
import { alreadySent, deliverMail, type MailDeps, messageIdFor, skipMail } from '../shared/deliver-mail.ts';
import { courseNotificationMail } from './course-notifications.templates.ts';

export const NOTIFICATION_EXPAND_QUEUE = 'course.notification.expand';
export const NOTIFICATION_MAIL_QUEUE = 'course.notification.mail';
export const NOTIFICATION_TICK_QUEUE = 'course.notification.tick';

/** spec §9: automatic new-course notices at most once per 5 days per user. */
export const NEW_COURSE_NOTICE_GAP_MS = 5 * 24 * 3600 * 1000;

type Requested = { notificationId: string; kind: 'manual' | 'reminder' | 'new-course'; subject: string; message: string };
export type NotificationDeps = MailDeps & {
  readonly db: CourseReadDb;
  readonly jobs: Pick<Jobs, 'send'>;
  readonly publicUrl: string;
  readonly now: () => Date;
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
  };

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
    const kind = `course-${request.kind}`;
    const skip = (reason: string) => skipMail(deps, messageId, { kind, recipient: person.email, triggeredBy: request.notificationId, reason, userId });
    if (person.status !== 'active') return void (await skip('inactive'));
    const consents = (await deps.store.readStream(consentStream(userId))).events.map((e) => ({ type: e.type, data: e.data }) as ConsentEvent);
    if (!mayContact(consents, 'email', deps.now()).allowed) return void (await skip('no-consent'));
    if (request.kind === 'new-course' && (await newCourseNoticeSince(deps.db, userId, new Date(deps.now().getTime() - NEW_COURSE_NOTICE_GAP_MS))))
      return void (await skip('recently-notified'));
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

/** The hourly schedule's job: the courses that may send automatic notifications, handed to the tick. */
export const openCoursesWithNotifications = (db: CourseReadDb) => coursesWithNotifications(db);
