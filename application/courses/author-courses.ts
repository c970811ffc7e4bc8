import type { BlockFields, CourseFields } from '../../domain/courses/course.rules.ts';
import type { CourseCommand, CourseOwner } from '../../domain/courses/course.ts';
import { courseStream } from '../../domain/courses/course.ts';
import type { ApprovalCommand } from '../../domain/courses/course-approval.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { FEATURE_OFF_MESSAGE } from '../../domain/shared/features.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { prerequisiteCycle } from '../../projections/courses/courses.queries.ts';
import { handleCommand } from '../shared/handle-command.ts';
import { approvalContextFor } from './course-approval.ts';
import { courseFieldsFor } from './course-features.ts';
import { courseDeciderFor } from './course-type-rules.ts';
import type { CoursesDeps } from './courses.deps.ts';
import { sanitizeBlock } from './sanitize-block.ts';

/**
 * A package block names its package; what the package holds (its standard and items) is taken from
 * the stored package, never from the request (issue 35), so progress is decided on the real package.
 */
const withPackage = async (deps: CoursesDeps, block: BlockFields): Promise<BlockFields> => {
  if (block.kind !== 'package') return block;
  const stored = await deps.packages?.describe(block.packageId);
  if (!stored) throw new DomainError('400', 'Izbrani paket ne obstaja ali ni na voljo', { status: 400, field: 'packageId' });
  const { standard, items } = stored.structure;
  return { ...block, standard, items: items.map((i) => ({ id: i.id, title: i.title, masteryScore: i.masteryScore, moveOn: i.moveOn })) };
};

/** A block as stored: its HTML sanitised; an Interactr block only while that feature is on, and only with an Interactr iframe left. */
const checkedBlock = async (deps: CoursesDeps, given: BlockFields): Promise<BlockFields> => {
  const block = await withPackage(deps, given);
  if (block.kind === 'interactr' && !deps.features.interactr) throw new DomainError('400', FEATURE_OFF_MESSAGE.interactr, { status: 400, field: 'kind' });
  const clean = sanitizeBlock(block);
  if (clean.kind === 'interactr' && clean.html === '')
    throw new DomainError('400', 'Vnesite kodo za vdelavo Interactr (iframe z naslova interactr.io).', { status: 400, field: 'html' });
  return clean;
};

/**
 * Prerequisites must not lead back to this course: a cycle leaves courses nobody can start. That
 * every id the course names exists and is the author's to name is decided before (decision 0047).
 */
const checkPrerequisites = async (deps: CoursesDeps, courseId: number | null, fields: CourseFields) => {
  if (courseId !== null && (await prerequisiteCycle(deps.db, courseId, fields.prerequisites)))
    throw new DomainError('400', 'Pogoji se ne smejo vrteti v krogu: to izobraževanje je že pogoj za izbrano.', { status: 400, field: 'prerequisites' });
};

/** Course authoring through the admin API: fields of a feature that is off are refused, references checked. */
export const createCourse = async (deps: CoursesDeps, fields: CourseFields, metadata: EventMetadata, owner: CourseOwner | null = null) => {
  await checkPrerequisites(deps, null, fields);
  const courseId = await deps.ids.next('course');
  const result = await handleCommand(deps.store, {
    streamName: courseStream(courseId),
    decider: await courseDeciderFor(deps, 'CreateCourse'),
    command: { type: 'CreateCourse', courseId, fields: courseFieldsFor(fields, deps.features), owner },
    metadata,
  });
  return { id: courseId, position: result.position };
};

/** A command of the course stream as a route gives it: the approval context (decision 0063) is always added here, never taken from a caller. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type CourseChange = DistributiveOmit<Exclude<CourseCommand, { type: 'CreateCourse' | 'AddBlock' } | ApprovalCommand>, 'approval'>;

export const changeCourse = async (deps: CoursesDeps, courseId: number, change: CourseChange, metadata: EventMetadata) => {
  // Every change is decided with the steps the course's scope requires now: nothing publishes unapproved content (issue 36).
  const command = { ...change, approval: await approvalContextFor(deps, courseId, metadata) } as Exclude<CourseCommand, { type: 'CreateCourse' | 'AddBlock' }>;
  // Fields of a feature that is off are refused; article HTML and embeds are sanitised however they arrive.
  if (command.type === 'UpdateCourse') await checkPrerequisites(deps, courseId, command.fields);
  const checked =
    command.type === 'UpdateCourse'
      ? { ...command, fields: courseFieldsFor(command.fields, deps.features) }
      : command.type === 'UpdateBlock'
        ? { ...command, block: await checkedBlock(deps, command.block) }
        : command;
  const decider = await courseDeciderFor(deps, checked.type);
  const result = await handleCommand(deps.store, { streamName: courseStream(courseId), decider, command: checked, metadata });
  return { id: courseId, position: result.position };
};

export const addBlock = async (deps: CoursesDeps, courseId: number, block: BlockFields, position: number | undefined, metadata: EventMetadata) => {
  const blockId = await deps.ids.next('block');
  const result = await handleCommand(deps.store, {
    streamName: courseStream(courseId),
    decider: await courseDeciderFor(deps, 'AddBlock'),
    command: {
      type: 'AddBlock',
      blockId,
      block: await checkedBlock(deps, block),
      ...(position === undefined ? {} : { position }),
      approval: await approvalContextFor(deps, courseId, metadata),
    },
    metadata,
  });
  return { id: blockId, position: result.position };
};
