import type { AcademyFields } from '../../domain/courses/academy.rules.ts';
import { type AcademyCommand, academyDecider, academyStream } from '../../domain/courses/academy.ts';
import type { EventMetadata, EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { IdAllocator } from '../../infrastructure/ids/id-allocator.port.ts';
import type { AcademyReadDb } from '../../projections/courses/academies.queries.ts';
import { handleCommand } from '../shared/handle-command.ts';

export type AcademiesDeps = { readonly store: EventStore; readonly ids: IdAllocator; readonly db: AcademyReadDb };

export const createAcademy = async (deps: AcademiesDeps, fields: AcademyFields, metadata: EventMetadata) => {
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
  const result = await handleCommand(deps.store, { streamName: academyStream(academyId), decider: academyDecider, command, metadata });
  return { id: academyId, position: result.position };
};
