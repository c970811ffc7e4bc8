import { type ProfessionFields, professionDecider, professionStream } from '../../domain/organisation/profession.ts';
import { professionGroupDecider, professionGroupStream } from '../../domain/organisation/profession-group.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { professionDependents } from '../../projections/organisation/organisation.queries.ts';
import { handleCommand } from '../shared/handle-command.ts';
import type { OrganisationDeps } from './organisation.deps.ts';
import { requireReference } from './references.ts';

export const createProfession = async (deps: OrganisationDeps, fields: ProfessionFields, metadata: EventMetadata) => {
  await requireReference(deps, 'professionGroup', fields.groupId, 'groupId');
  const professionId = await deps.ids.next('profession');
  const result = await handleCommand(deps.store, {
    streamName: professionStream(professionId),
    decider: professionDecider,
    command: { type: 'CreateProfession', professionId, fields },
    metadata,
  });
  return { id: professionId, position: result.position };
};

export const updateProfession = async (deps: OrganisationDeps, professionId: number, fields: ProfessionFields, metadata: EventMetadata) => {
  await requireReference(deps, 'professionGroup', fields.groupId, 'groupId');
  const result = await handleCommand(deps.store, {
    streamName: professionStream(professionId),
    decider: professionDecider,
    command: { type: 'UpdateProfession', fields },
    metadata,
  });
  return { id: professionId, position: result.position };
};

/** 1012: a profession nobody holds and no course targets; otherwise refused with the counts, so nothing is orphaned. */
export const deleteProfession = async (deps: OrganisationDeps, professionId: number, metadata: EventMetadata) => {
  const dependents = await professionDependents(deps.db, professionId);
  if (dependents.people > 0 || dependents.courses > 0) {
    throw new DomainError(
      '422',
      `Poklica ni mogoče izbrisati, dokler ga ima kdo ali ga izbira izobraževanje (uporabnikov: ${dependents.people}, izobraževanj: ${dependents.courses}).`,
      { status: 422 },
    );
  }
  const result = await handleCommand(deps.store, {
    streamName: professionStream(professionId),
    decider: professionDecider,
    command: { type: 'DeleteProfession' },
    metadata,
  });
  return { id: professionId, position: result.position };
};

export const createProfessionGroup = async (deps: OrganisationDeps, name: string, metadata: EventMetadata) => {
  const groupId = await deps.ids.next('profession_group');
  const result = await handleCommand(deps.store, {
    streamName: professionGroupStream(groupId),
    decider: professionGroupDecider,
    command: { type: 'CreateProfessionGroup', groupId, name },
    metadata,
  });
  return { id: groupId, position: result.position };
};

export const renameProfessionGroup = async (deps: OrganisationDeps, groupId: number, name: string, metadata: EventMetadata) => {
  const result = await handleCommand(deps.store, {
    streamName: professionGroupStream(groupId),
    decider: professionGroupDecider,
    command: { type: 'RenameProfessionGroup', name },
    metadata,
  });
  return { id: groupId, position: result.position };
};
