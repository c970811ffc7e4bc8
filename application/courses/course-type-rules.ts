import type { CourseCommand } from '../../domain/courses/course.ts';
import { courseDecider } from '../../domain/courses/course.ts';
import { withCourseTypeRules } from '../../domain/courses/course-types.ts';
import { professionFacts } from '../../projections/courses/course-audience.queries.ts';
import type { CoursesDeps } from './courses.deps.ts';

/** Commands the rules of a course's type look at (domain/courses/course-types.ts); others need no read. */
const CHECKED = new Set<CourseCommand['type']>([
  'CreateCourse',
  'UpdateCourse',
  'PublishCourse',
  'RestoreCourse',
  'AddBlock',
  'UpdateBlock',
  'SubmitCourseApproval',
]);

/**
 * The course decider every authoring command goes through (issue 36 item 1, decision 0062): with the
 * rules of the course's type, given the professions' "may prescribe or supply" flags as the read
 * model has them now. One place, so no save or publish route skips the rules.
 */
export const courseDeciderFor = async (deps: Pick<CoursesDeps, 'db'>, command: CourseCommand['type']) =>
  CHECKED.has(command) ? withCourseTypeRules(courseDecider, { professions: await professionFacts(deps.db) }) : courseDecider;
