import type { CourseFields } from './course.rules.ts';

/**
 * What the status reads of a course and of the participant's enrollment, stated here rather than
 * imported: course.ts (costs are locked while a course is active) and the enrollment's readers both
 * use this module, so it imports neither back (issue 34: the circle course -> status -> enrollment).
 */
export type CourseStatusInput = {
  /** The course's lifecycle, as Course['status'] in course.ts. */
  readonly status: 'draft' | 'published' | 'archived' | 'deleted';
  readonly fields: Pick<CourseFields, 'intervals'>;
};
/** The participant's enrollment as EnrollmentState['status'] in enrollment.ts: 'none' before they start. */
export type EnrollmentStatusInput = { readonly status: 'none' | 'started' | 'completed' };

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

export const courseStatus = (course: CourseStatusInput, enrollment: EnrollmentStatusInput, now: Date): CourseStatus => {
  if (course.status === 'deleted') return 'deleted';
  if (enrollment.status === 'completed') return 'completed';
  if (course.status === 'archived') return 'archived';
  const intervals = course.fields.intervals.map((i) => ({ start: new Date(i.startsAt).getTime(), stop: new Date(i.stopsAt).getTime() }));
  if (intervals.length === 0) return 'active';
  const t = now.getTime();
  if (intervals.some((i) => i.start <= t && t < i.stop)) return 'active';
  return intervals.some((i) => i.start > t) ? 'reserved' : 'expired';
};
