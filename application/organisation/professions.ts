import { type ProfessionFields, professionDecider, professionStream } from '../../domain/organisation/profession.ts';
import { professionGroupDecider, professionGroupStream } from '../../domain/organisation/profession-group.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
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
