import type { Course } from './course.ts';
import type { EnrollmentState } from './enrollment.ts';

/**
 * The statuses of spec §4 as a participant sees a course (badge states), first match wins:
 * - deleted: the course was deleted;
 * - completed: the participant completed it;
 * - archived: the course is archived;
 * - expired: it has intervals and the last one ended;
 * - reserved: it has intervals and none is open yet, but one starts later (announced: the
 *   participant sees it and may not start it yet; docs/decisions/0010-course-statuses.md);
 * - active: otherwise.
 */
export type CourseStatus = 'active' | 'archived' | 'completed' | 'deleted' | 'expired' | 'reserved';

export const courseStatus = (course: Pick<Course, 'status' | 'fields'>, enrollment: EnrollmentState, now: Date): CourseStatus => {
  if (course.status === 'deleted') return 'deleted';
  if (enrollment.status === 'completed') return 'completed';
  if (course.status === 'archived') return 'archived';
  const intervals = course.fields.intervals.map((i) => ({ start: new Date(i.startsAt).getTime(), stop: new Date(i.stopsAt).getTime() }));
  if (intervals.length === 0) return 'active';
  const t = now.getTime();
  if (intervals.some((i) => i.start <= t && t < i.stop)) return 'active';
  return intervals.some((i) => i.start > t) ? 'reserved' : 'expired';
};
