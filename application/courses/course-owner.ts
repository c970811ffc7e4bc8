import { type CourseOwner, courseStream } from '../../domain/courses/course.ts';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import { courseKnown, courseOwner } from '../../projections/courses/courses.queries.ts';
import type { CoursesDeps } from './courses.deps.ts';

/** Who owns a course as its log says (the CourseCreated event): null for the platform's and for an unknown course. */
export const courseOwnerFromLog = async (store: Pick<EventStore, 'readStream'>, courseId: number): Promise<CourseOwner | null> => {
  const first = (await store.readStream(courseStream(courseId))).events[0];
  return first?.type === 'CourseCreated' ? ((first.data as { owner?: CourseOwner }).owner ?? null) : null;
};

/**
 * The owner a scoped permission (a client's unit authors its own courses) is decided by. The read
 * model answers; a course it does not know yet (created a moment ago by a caller that did not send
 * X-Min-Position) is looked up in the log, so "create, then add a block" never answers 404.
 */
export const courseOwnerForAccess = async (deps: Pick<CoursesDeps, 'db' | 'store'>, courseId: number): Promise<CourseOwner | null> => {
  const owned = await courseOwner(deps.db, courseId);
  if (owned || (await courseKnown(deps.db, courseId))) return owned;
  return courseOwnerFromLog(deps.store, courseId);
};
