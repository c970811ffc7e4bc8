import type { AcademyFields } from '../../domain/courses/academy.rules.ts';
import { type AcademyCommand, academyDecider, academyStream } from '../../domain/courses/academy.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { EventMetadata, EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { IdAllocator } from '../../infrastructure/ids/id-allocator.port.ts';
import { type AcademyReadDb, missingCourseIds } from '../../projections/courses/academies.queries.ts';
import { handleCommand } from '../shared/handle-command.ts';

export type AcademiesDeps = { readonly store: EventStore; readonly ids: IdAllocator; readonly db: AcademyReadDb };

/** Every course of the series must exist and not be deleted. */
const checkCourses = async (deps: AcademiesDeps, fields: AcademyFields) => {
  const missing = await missingCourseIds(deps.db, fields.courseIds);
  if (missing.length > 0) throw new DomainError('400', `Izobraževanje ne obstaja: ${missing.join(', ')}`, { status: 400, field: 'courseIds' });
};

export const createAcademy = async (deps: AcademiesDeps, fields: AcademyFields, metadata: EventMetadata) => {
  await checkCourses(deps, fields);
  const academyId = await deps.ids.next('academy');
  const result = await handleCommand(deps.store, {
    streamName: academyStream(academyId),
    decider: academyDecider,
    command: { type: 'CreateAcademy', academyId, fields },
    metadata,
  });
  return { id: academyId, position: result.position };
};

export const changeAcademy = async (
  deps: AcademiesDeps,
  academyId: number,
  command: Exclude<AcademyCommand, { type: 'CreateAcademy' }>,
  metadata: EventMetadata,
) => {
  if (command.type === 'UpdateAcademy') await checkCourses(deps, command.fields);
  const result = await handleCommand(deps.store, { streamName: academyStream(academyId), decider: academyDecider, command, metadata });
  return { id: academyId, position: result.position };
};
