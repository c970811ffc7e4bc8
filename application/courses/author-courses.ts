import type { BlockFields, CourseFields } from '../../domain/courses/course.rules.ts';
import type { CourseCommand } from '../../domain/courses/course.ts';
import { courseDecider, courseStream } from '../../domain/courses/course.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { handleCommand } from '../shared/handle-command.ts';
import { courseFieldsFor } from './course-features.ts';
import type { CoursesDeps } from './courses.deps.ts';
import { sanitizeBlock } from './sanitize-block.ts';

/** Course authoring through the admin API (the full authoring screens come later). */
export const createCourse = async (deps: CoursesDeps, fields: CourseFields, metadata: EventMetadata) => {
  const courseId = await deps.ids.next('course');
  const result = await handleCommand(deps.store, {
    streamName: courseStream(courseId),
    decider: courseDecider,
    command: { type: 'CreateCourse', courseId, fields: courseFieldsFor(fields, deps.features) },
    metadata,
  });
  return { id: courseId, position: result.position };
};

export const changeCourse = async (
  deps: CoursesDeps,
  courseId: number,
  command: Exclude<CourseCommand, { type: 'CreateCourse' | 'AddBlock' }>,
  metadata: EventMetadata,
) => {
  // Fields of a feature that is off are refused; article HTML and embeds are sanitised however they arrive.
  const checked =
    command.type === 'UpdateCourse'
      ? { ...command, fields: courseFieldsFor(command.fields, deps.features) }
      : command.type === 'UpdateBlock'
        ? { ...command, block: sanitizeBlock(command.block) }
        : command;
  const result = await handleCommand(deps.store, { streamName: courseStream(courseId), decider: courseDecider, command: checked, metadata });
  return { id: courseId, position: result.position };
};

export const addBlock = async (deps: CoursesDeps, courseId: number, block: BlockFields, position: number | undefined, metadata: EventMetadata) => {
  const blockId = await deps.ids.next('block');
  const result = await handleCommand(deps.store, {
    streamName: courseStream(courseId),
    decider: courseDecider,
    command: { type: 'AddBlock', blockId, block: sanitizeBlock(block), ...(position === undefined ? {} : { position }) },
    metadata,
  });
  return { id: blockId, position: result.position };
};
