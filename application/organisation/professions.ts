import { type ProfessionFields, professionDecider, professionStream } from '../../domain/organisation/profession.ts';
import {
  type ProfessionGroupEvent,
  professionGroupDecider,
  professionGroupNameClaim,
  professionGroupNameTaken,
  professionGroupStream,
} from '../../domain/organisation/profession-group.ts';
import { fold } from '../../domain/shared/decider.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { professionDependents, professionGroupNamed } from '../../projections/organisation/organisation.queries.ts';
import { handleCommand } from '../shared/handle-command.ts';
import { changeNameClaim } from '../shared/name-claims.ts';
import type { OrganisationDeps } from './organisation.deps.ts';

export const createProfession = async (deps: OrganisationDeps, fields: ProfessionFields, metadata: EventMetadata) => {
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

const groupNameClaim = (deps: OrganisationDeps, name: string, ownerId: number, metadata: EventMetadata, type: 'Claim' | 'Release') =>
  changeNameClaim(deps.store, professionGroupNameClaim, name, ownerId, metadata, type);

/**
 * The name is claimed first (unique, 42276 when taken) and released again if the group is not
 * created. Groups made before names were claimed hold no claim: the read model answers for them.
 */
export const createProfessionGroup = async (deps: OrganisationDeps, name: string, metadata: EventMetadata) => {
  const groupId = await deps.ids.next('profession_group');
  if (await professionGroupNamed(deps.db, name, groupId)) throw professionGroupNameTaken();
  await groupNameClaim(deps, name, groupId, metadata, 'Claim');
  try {
    const result = await handleCommand(deps.store, {
      streamName: professionGroupStream(groupId),
      decider: professionGroupDecider,
      command: { type: 'CreateProfessionGroup', groupId, name },
      metadata,
    });
    return { id: groupId, position: result.position };
  } catch (error) {
    await groupNameClaim(deps, name, groupId, metadata, 'Release').catch(() => undefined);
    throw error;
  }
};

/** A rename claims the new name before the change and releases the old one after it. */
export const renameProfessionGroup = async (deps: OrganisationDeps, groupId: number, name: string, metadata: EventMetadata) => {
  const current = fold(
    professionGroupDecider,
    (await deps.store.readStream(professionGroupStream(groupId))).events.map((e) => ({ type: e.type, data: e.data }) as ProfessionGroupEvent),
  );
  const oldName = current.status === 'active' ? current.name : null;
  const renamed = oldName !== null && oldName.trim().toLowerCase() !== name.trim().toLowerCase();
  if (renamed) {
    if (await professionGroupNamed(deps.db, name, groupId)) throw professionGroupNameTaken();
    await groupNameClaim(deps, name, groupId, metadata, 'Claim');
  }
  try {
    const result = await handleCommand(deps.store, {
      streamName: professionGroupStream(groupId),
      decider: professionGroupDecider,
      command: { type: 'RenameProfessionGroup', name },
      metadata,
    });
    if (renamed && oldName) await groupNameClaim(deps, oldName, groupId, metadata, 'Release');
    return { id: groupId, position: result.position };
  } catch (error) {
    if (renamed) await groupNameClaim(deps, name, groupId, metadata, 'Release').catch(() => undefined);
    throw error;
  }
};
