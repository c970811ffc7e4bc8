import { randomUUID } from 'node:crypto';
import { type Course, type CourseEvent, courseDecider, courseStream } from '../../domain/courses/course.ts';
import { fold } from '../../domain/shared/decider.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { messageIdFor } from '../shared/deliver-mail.ts';
import { changeCourse } from './author-courses.ts';
import type { CoursesDeps } from './courses.deps.ts';

export const NOTIFICATION_KINDS = ['manual', 'reminder', 'new-course'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The kind a notification's mail is logged under (the admin's mail log names each in Slovenian: identity.outbox.kinds). */
export const notificationMailKind = (kind: NotificationKind) => `course-${kind}`;

/** A manual notification to the course's audience (issue 16): refused within 10 minutes of the last one (spec §8, §9). */
export const sendManualNotification = (deps: CoursesDeps, courseId: number, input: { subject: string; message: string }, metadata: EventMetadata) =>
  changeCourse(deps, courseId, { type: 'RequestNotification', notificationId: randomUUID(), kind: 'manual', ...input, now: deps.now() }, metadata);

/** Quiet hours (issue 16 item 6): no automatic sends between 21:00 and 7:00 in Ljubljana. */
export const QUIET_FROM_HOUR = 21;
export const QUIET_UNTIL_HOUR = 7;

const ljubljana = (at: Date) => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Ljubljana',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      weekday: 'short',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(parts.weekday as string) + 1;
  return { date: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour), weekday };
};

export const isQuietHour = (at: Date) => {
  const { hour } = ljubljana(at);
  return hour >= QUIET_FROM_HOUR || hour < QUIET_UNTIL_HOUR;
};

/** Weeks since 1970-01-05 (a Monday), so "every 2, 3 or 4 weeks" falls on the same weeks for everyone. */
const weekNumber = (date: string) => Math.floor((Date.parse(`${date}T00:00:00Z`) - Date.UTC(1970, 0, 5)) / (7 * 24 * 3600 * 1000));

/**
 * Whether a course's reminder falls on this day (spec §9: every 1, 2, 3 or 4 weeks on the chosen days
 * of the week, 1 Monday ... 7 Sunday).
 */
export const reminderDue = (reminder: { everyWeeks: number; days: readonly number[] } | null, at: Date) => {
  if (!reminder) return false;
  const { date, weekday } = ljubljana(at);
  return reminder.days.includes(weekday) && weekNumber(date) % reminder.everyWeeks === 0;
};

const loadCourse = async (deps: CoursesDeps, courseId: number) => {
  const events = (await deps.store.readStream(courseStream(courseId))).events.map((e) => ({ type: e.type, data: e.data }) as CourseEvent);
  return fold(courseDecider, events);
};

const isOpen = (course: Course, at: Date) =>
  course.published &&
  course.status === 'published' &&
  (course.fields.intervals.length === 0 || course.fields.intervals.some((i) => new Date(i.startsAt) <= at && at < new Date(i.stopsAt)));

/**
 * The automatic notifications of one hour (a pg-boss schedule runs it every hour): outside quiet
 * hours, each published course that has notifications on announces itself once ("new course"), and
 * sends its reminder on the days its schedule names, once a day. Ids are made from the course and
 * the day, so a tick run twice (or by two processes) asks for nothing twice.
 */
export const runNotificationTick = async (deps: CoursesDeps, courseIds: readonly number[]) => {
  const now = deps.now();
  if (isQuietHour(now)) return { requested: 0 };
  let requested = 0;
  const { date } = ljubljana(now);
  for (const courseId of courseIds) {
    const course = await loadCourse(deps, courseId);
    if (course.status === 'none' || !isOpen(course, now) || !course.fields.notificationsEnabled) continue;
    const ask = async (key: string, kind: NotificationKind, subject: string, message: string) => {
      const notificationId = messageIdFor(`course-${courseId}`, key);
      if (course.notificationIds.includes(notificationId)) return false;
      const result = await changeCourse(deps, courseId, { type: 'RequestNotification', notificationId, kind, subject, message, now }, { actorId: null });
      if (result.position) requested += 1;
      return result.position !== null;
    };
    const title = course.fields.title;
    const announced = await ask(
      'new-course',
      'new-course',
      `Novo izobraževanje: ${title}`.slice(0, 200),
      `Na voljo je novo izobraževanje »${title}«. ${course.fields.description}`.slice(0, 5000),
    );
    // Not in the hour the course announced itself (issue 33 item 8): its mails are not out yet, so the
    // reminder's own rule (nobody told within its interval) could not see them; a later hour asks it.
    if (!announced && reminderDue(course.fields.reminder ?? null, now))
      await ask(
        `reminder:${date}`,
        'reminder',
        `Opomnik: ${title}`.slice(0, 200),
        `Izobraževanja »${title}« še niste zaključili. Nadaljujete lahko tam, kjer ste ostali.`.slice(0, 5000),
      );
  }
  return { requested };
};
