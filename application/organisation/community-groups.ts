import { type CommunityGroupFields, communityGroupDecider, communityGroupNameClaim, communityGroupStream } from '../../domain/organisation/community-group.ts';
import { fold } from '../../domain/shared/decider.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { handleCommand } from '../shared/handle-command.ts';
import { changeNameClaim } from '../shared/name-claims.ts';
import type { OrganisationDeps } from './organisation.deps.ts';

const nameClaim = (deps: OrganisationDeps, name: string, ownerId: number, metadata: EventMetadata, type: 'Claim' | 'Release') =>
  changeNameClaim(deps.store, communityGroupNameClaim, name, ownerId, metadata, type);

/** The name is claimed first (unique; 42276 when taken) and released again if the group is not created. */
export const createCommunityGroup = async (deps: OrganisationDeps, fields: CommunityGroupFields, metadata: EventMetadata) => {
  const groupId = await deps.ids.next('community_group');
  await nameClaim(deps, fields.name, groupId, metadata, 'Claim');
  try {
    const result = await handleCommand(deps.store, {
      streamName: communityGroupStream(groupId),
      decider: communityGroupDecider,
      command: { type: 'CreateCommunityGroup', groupId, fields },
      metadata,
    });
    return { id: groupId, position: result.position };
  } catch (error) {
    await nameClaim(deps, fields.name, groupId, metadata, 'Release').catch(() => undefined);
    throw error;
  }
};

/** A rename claims the new name before the change and releases the old one after it. */
export const updateCommunityGroup = async (deps: OrganisationDeps, groupId: number, fields: CommunityGroupFields, metadata: EventMetadata) => {
  const events = (await deps.store.readStream(communityGroupStream(groupId))).events;
  const current = fold(
    communityGroupDecider,
    events.map((e) => ({ type: e.type, data: e.data }) as Parameters<typeof communityGroupDecider.evolve>[1]),
  );
  const oldName = current.status === 'active' ? current.fields.name : null;
  const renamed = oldName !== null && oldName.trim().toLowerCase() !== fields.name.trim().toLowerCase();
  if (renamed) await nameClaim(deps, fields.name, groupId, metadata, 'Claim');
  try {
    const result = await handleCommand(deps.store, {
      streamName: communityGroupStream(groupId),
      decider: communityGroupDecider,
      command: { type: 'UpdateCommunityGroup', fields },
      metadata,
    });
    if (renamed && oldName) await nameClaim(deps, oldName, groupId, metadata, 'Release');
    return { id: groupId, position: result.position };
  } catch (error) {
    if (renamed) await nameClaim(deps, fields.name, groupId, metadata, 'Release').catch(() => undefined);
    throw error;
  }
};

/** Deletes a community group and frees its name for a new group. */
export const deleteCommunityGroup = async (deps: OrganisationDeps, groupId: number, metadata: EventMetadata) => {
  const result = await handleCommand(deps.store, {
    streamName: communityGroupStream(groupId),
    decider: communityGroupDecider,
    command: { type: 'DeleteCommunityGroup' },
    metadata,
  });
  const state = result.state;
  if (state.status === 'deleted') await nameClaim(deps, state.name, groupId, metadata, 'Release');
  return { id: groupId, position: result.position };
};
