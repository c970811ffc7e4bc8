import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import type { CourseCommand, CourseEvent, CourseState } from './course.ts';
import { type CourseTypeContext, type CourseTypeProblem, courseTypeProblems } from './course-types.rules.ts';

type CourseDecider = Decider<CourseCommand, CourseEvent, CourseState>;

/** Commands that save or publish a course: after them, every rule of its type must hold (decision 0062). */
const SAVES = new Set<CourseCommand['type']>(['CreateCourse', 'UpdateCourse', 'PublishCourse', 'RestoreCourse']);
/** Block changes: they may not bring in a problem (a points block into informative content); older ones are the course's to fix. */
const BLOCK_CHANGES = new Set<CourseCommand['type']>(['AddBlock', 'UpdateBlock']);
/**
 * Commands that ask for the course to go out as it is (publishing, submitting it for approval,
 * restoring a published course from the archive): its publish rules are checked first, so the author
 * hears what the type requires before anything else (an approval still missing) refuses it.
 */
const goesOut = (command: CourseCommand, state: CourseState) =>
  command.type === 'PublishCourse' ||
  command.type === 'SubmitCourseApproval' ||
  (command.type === 'RestoreCourse' && state.status === 'archived' && state.published);

const refusal = (problem: CourseTypeProblem) => new DomainError('422', problem.message, { status: 422, field: problem.field });

const problemsOf = (state: CourseState, context: CourseTypeContext): CourseTypeProblem[] => {
  if (state.status === 'none' || state.status === 'deleted') return [];
  const course = { fields: state.fields, blockKinds: state.blocks.map((b) => b.fields.kind) };
  return courseTypeProblems(course, state.published ? 'publish' : 'save', context);
};

/**
 * The course decider with the rules of its type (course-types.rules.ts) checked on the state the
 * decided events lead to: a save, a publish or a restore is refused (422, the first problem's field
 * and Slovenian message) while any rule is broken, a block change when it breaks one; a publish, a
 * submission for approval or a restore is checked before the course's own decision too. Unpublishing,
 * archiving, deleting and the rest always go through, so a course that breaks a rule (one made
 * before the rules, or whose professions lost their flag) can still be taken down. The professions
 * are read state, so the caller passes them in.
 */
export const withCourseTypeRules = (decider: CourseDecider, context: CourseTypeContext): CourseDecider => ({
  ...decider,
  decide: (command, state) => {
    if (goesOut(command, state) && state.status !== 'none') {
      const problem = problemsOf({ ...state, published: true }, context)[0];
      if (problem) throw refusal(problem);
    }
    const events = decider.decide(command, state);
    const saves = SAVES.has(command.type);
    if (events.length === 0 || (!saves && !BLOCK_CHANGES.has(command.type))) return events;
    const after = problemsOf(events.reduce(decider.evolve, state), context);
    const before = saves ? [] : problemsOf(state, context).map((p) => p.message);
    const problem = after.find((p) => !before.includes(p.message));
    if (problem) throw refusal(problem);
    return events;
  },
});
