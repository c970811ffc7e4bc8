import { type UnitCommand, type UnitFields, unitDecider, unitStream } from '../../domain/organisation/unit.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { handleCommand } from '../shared/handle-command.ts';
import type { OrganisationDeps } from './organisation.deps.ts';
import { requireReference } from './references.ts';

const checkReferences = async (deps: OrganisationDeps, fields: UnitFields) => {
  await requireReference(deps, 'company', fields.companyId, 'companyId');
  await requireReference(deps, { tagKind: 'unit' }, fields.tagId, 'tagId');
};

/** Creates an unpublished unit; the admin goes on editing it (spec §4). */
export const createUnit = async (deps: OrganisationDeps, fields: UnitFields, metadata: EventMetadata) => {
  await checkReferences(deps, fields);
  const unitId = await deps.ids.next('unit');
  const result = await handleCommand(deps.store, {
    streamName: unitStream(unitId),
    decider: unitDecider,
    command: { type: 'CreateUnit', unitId, fields },
    metadata,
  });
  return { id: unitId, position: result.position };
};

export const changeUnit = async (deps: OrganisationDeps, unitId: number, command: Exclude<UnitCommand, { type: 'CreateUnit' }>, metadata: EventMetadata) => {
  if (command.type === 'UpdateUnit') await checkReferences(deps, command.fields);
  const result = await handleCommand(deps.store, { streamName: unitStream(unitId), decider: unitDecider, command, metadata });
  return { id: unitId, position: result.position };
};
