import { type CourseEvent, courseDecider, courseStream } from '../../domain/courses/course.ts';
import { fold } from '../../domain/shared/decider.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { type EventMetadata, newEventId } from '../../infrastructure/event-store/event-store.port.ts';
import { courseDeciderFor } from './course-type-rules.ts';
import type { CoursesDeps } from './courses.deps.ts';

/** spec §8 "duplicate course": the failure path's message. */
export const DUPLICATE_FAILED = 'Podvajanje izobraževanja ni uspelo.';
const TITLE_MAX = 200;
const SUFFIX = ' (kopija)';

/**
 * A copy of a course to edit further (issue 15): every field, the audience, every block in order and the attachments,
 * unpublished, titled "<title> (kopija)". The copy is written in one append (its creation and all
 * its blocks), so a failure leaves no half-made course. Participants, costs and comments are the
 * original's and are not copied.
 */
export const duplicateCourse = async (deps: CoursesDeps, sourceId: number, metadata: EventMetadata) => {
  const source = fold(
    courseDecider,
    (await deps.store.readStream(courseStream(sourceId))).events.map((e) => ({ type: e.type, data: e.data }) as CourseEvent),
  );
  if (source.status === 'none' || source.status === 'deleted') throw new DomainError('404', DUPLICATE_FAILED, { status: 404 });
  const courseId = await deps.ids.next('course');
  const title = `${source.fields.title.slice(0, TITLE_MAX - SUFFIX.length)}${SUFFIX}`;
  let state = courseDecider.initialState;
  const events: CourseEvent[] = [];
  // The copy is saved like any course: the rules of its type hold for it (decision 0062).
  const decider = await courseDeciderFor(deps, 'CreateCourse');
  const decide = (command: Parameters<typeof courseDecider.decide>[0]) => {
    const decided = decider.decide(command, state);
    state = decided.reduce(courseDecider.evolve, state);
    events.push(...decided);
  };
  // A community's course stays the community's (spec §6: its client authors it).
  decide({ type: 'CreateCourse', courseId, fields: { ...source.fields, title }, owner: source.owner });
  for (const block of source.blocks) decide({ type: 'AddBlock', blockId: await deps.ids.next('block'), block: block.fields });
  for (const attachment of source.attachments) decide({ type: 'AddAttachment', attachment });
  const result = await deps.store.append(
    courseStream(courseId),
    events.map((event) => ({ eventId: newEventId(), type: event.type, data: event.data, metadata })),
    { expectedRevision: 'no_stream' },
  );
  return { id: courseId, position: result.position };
};
