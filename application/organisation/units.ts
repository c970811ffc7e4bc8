import { type UnitCommand, type UnitFields, unitDecider, unitStream } from '../../domain/organisation/unit.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { organisationDependents } from '../../projections/organisation/organisation.queries.ts';
import { handleCommand } from '../shared/handle-command.ts';
import type { OrganisationDeps } from './organisation.deps.ts';

/** Creates an unpublished unit; the admin goes on editing it (spec §4). */
export const createUnit = async (deps: OrganisationDeps, fields: UnitFields, metadata: EventMetadata) => {
  const unitId = await deps.ids.next('unit');
  const result = await handleCommand(deps.store, {
    streamName: unitStream(unitId),
    decider: unitDecider,
    command: { type: 'CreateUnit', unitId, fields },
    metadata,
  });
  return { id: unitId, position: result.position };
};

export const changeUnit = async (
  deps: OrganisationDeps,
  unitId: number,
  command: Exclude<UnitCommand, { type: 'CreateUnit' | 'DeleteUnit' }>,
  metadata: EventMetadata,
) => {
  const result = await handleCommand(deps.store, { streamName: unitStream(unitId), decider: unitDecider, command, metadata });
  return { id: unitId, position: result.position };
};

/**
 * Deletes a unit (1012, or 2002 in the unit). A unit that people still belong to or manage is not
 * deleted: their roles would point at nothing. Groups naming the unit stop naming it.
 */
export const deleteUnit = async (deps: OrganisationDeps, unitId: number, metadata: EventMetadata) => {
  const dependents = await organisationDependents(deps.db, 'unit', unitId);
  if (dependents.people > 0) {
    throw new DomainError(
      '422',
      `Enote ni mogoče izbrisati, dokler ima kdo v njej vlogo (uporabnikov z vlogo: ${dependents.people}). Najprej jih odstranite.`,
      {
        status: 422,
      },
    );
  }
  const result = await handleCommand(deps.store, { streamName: unitStream(unitId), decider: unitDecider, command: { type: 'DeleteUnit' }, metadata });
  return { id: unitId, position: result.position };
};
