import { z } from 'zod';
import { courseStatus } from '../../domain/courses/course-status.ts';
import { type UserCourseItem, userCourseItem } from './user-courses.queries.ts';

/** A participant's course with the badge state of spec §4 for them now. */
export const withStatus = (item: UserCourseItem, now: Date) => ({
  ...item,
  status: courseStatus({ status: item.archived ? 'archived' : 'published', fields: { intervals: item.intervals } }, { status: item.enrollment }, now),
});

export type UserCourseWithStatus = ReturnType<typeof withStatus>;

const STATUSES = ['active', 'archived', 'completed', 'deleted', 'expired', 'reserved'] as const;

/** The response shape of a participant's course. */
export const userCourse = userCourseItem.extend({ status: z.enum(STATUSES) });
