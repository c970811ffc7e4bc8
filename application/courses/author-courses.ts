import type { BlockFields, CourseFields } from '../../domain/courses/course.rules.ts';
import type { CourseCommand, CourseOwner } from '../../domain/courses/course.ts';
import { courseDecider, courseStream } from '../../domain/courses/course.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { FEATURE_OFF_MESSAGE } from '../../domain/shared/features.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { type AudienceIds, missingAudience, prerequisiteProblems, storedReferences } from '../../projections/courses/courses.queries.ts';
import { organisationExists } from '../../projections/organisation/organisation.queries.ts';
import { handleCommand } from '../shared/handle-command.ts';
import { courseFieldsFor } from './course-features.ts';
import type { CoursesDeps } from './courses.deps.ts';
import { sanitizeBlock } from './sanitize-block.ts';

/** A block as stored: its HTML sanitised; an Interactr block only while that feature is on, and only with an Interactr iframe left. */
const checkedBlock = (deps: CoursesDeps, block: BlockFields): BlockFields => {
  if (block.kind === 'interactr' && !deps.features.interactr) throw new DomainError('400', FEATURE_OFF_MESSAGE.interactr, { status: 400, field: 'kind' });
  const clean = sanitizeBlock(block);
  if (clean.kind === 'interactr' && clean.html === '')
    throw new DomainError('400', 'Vnesite kodo za vdelavo Interactr (iframe z naslova interactr.io).', { status: 400, field: 'html' });
  return clean;
};

const AUDIENCE_MISSING: Record<keyof AudienceIds, string> = {
  professionIds: 'Izbrani poklic ne obstaja.',
  unitIds: 'Izbrana enota ne obstaja.',
  companyIds: 'Izbrano podjetje ne obstaja.',
  groupIds: 'Izbrana skupnost ne obstaja.',
};

/**
 * A course's references must name what exists: course tags (a tag deleted since stays out of new
 * saves), prerequisites that are courses and do not lead back to this one (a cycle, or a missing
 * course, leaves a published course nobody can start), and audience ids. What the course already
 * names is kept as it is, so a unit or course deleted since does not block saving other fields.
 */
const checkReferences = async (deps: CoursesDeps, courseId: number | null, fields: CourseFields) => {
  for (const tagId of fields.tagIds) {
    if (!(await organisationExists(deps.db, { tagKind: 'course' }, tagId)))
      throw new DomainError('400', 'Izbrana značka ne obstaja.', { status: 400, field: 'tagIds' });
  }
  const stored = await storedReferences(deps.db, courseId);
  const newIds = (field: keyof AudienceIds | 'prerequisites', now: typeof stored) => {
    const ids = field === 'prerequisites' ? fields.prerequisites : fields.audience[field];
    const before = new Set(now?.[field] ?? []);
    return ids.filter((id) => !before.has(id));
  };
  const prerequisites = await prerequisiteProblems(deps.db, courseId, newIds('prerequisites', stored));
  if (prerequisites.missing.length > 0) throw new DomainError('400', 'Izbrano izobraževanje za pogoj ne obstaja.', { status: 400, field: 'prerequisites' });
  if (prerequisites.cycle)
    throw new DomainError('400', 'Pogoji se ne smejo vrteti v krogu: to izobraževanje je že pogoj za izbrano.', { status: 400, field: 'prerequisites' });
  const absent = await missingAudience(deps.db, {
    professionIds: newIds('professionIds', stored),
    unitIds: newIds('unitIds', stored),
    companyIds: newIds('companyIds', stored),
    groupIds: newIds('groupIds', stored),
  });
  const [field] = absent;
  if (field) throw new DomainError('400', AUDIENCE_MISSING[field], { status: 400, field: `audience.${field}` });
};

/** Course authoring through the admin API: fields of a feature that is off are refused, references checked. */
export const createCourse = async (deps: CoursesDeps, fields: CourseFields, metadata: EventMetadata, owner: CourseOwner | null = null) => {
  await checkReferences(deps, null, fields);
  const courseId = await deps.ids.next('course');
  const result = await handleCommand(deps.store, {
    streamName: courseStream(courseId),
    decider: courseDecider,
    command: { type: 'CreateCourse', courseId, fields: courseFieldsFor(fields, deps.features), owner },
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
  if (command.type === 'UpdateCourse') await checkReferences(deps, courseId, command.fields);
  const checked =
    command.type === 'UpdateCourse'
      ? { ...command, fields: courseFieldsFor(command.fields, deps.features) }
      : command.type === 'UpdateBlock'
        ? { ...command, block: checkedBlock(deps, command.block) }
        : command;
  const result = await handleCommand(deps.store, { streamName: courseStream(courseId), decider: courseDecider, command: checked, metadata });
  return { id: courseId, position: result.position };
};

export const addBlock = async (deps: CoursesDeps, courseId: number, block: BlockFields, position: number | undefined, metadata: EventMetadata) => {
  const blockId = await deps.ids.next('block');
  const result = await handleCommand(deps.store, {
    streamName: courseStream(courseId),
    decider: courseDecider,
    command: { type: 'AddBlock', blockId, block: checkedBlock(deps, block), ...(position === undefined ? {} : { position }) },
    metadata,
  });
  return { id: blockId, position: result.position };
};
