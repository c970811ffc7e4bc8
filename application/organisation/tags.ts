import type { TagKind } from '../../domain/organisation/organisation.rules.ts';
import { type TagEvent, tagDecider, tagNameClaim, tagStream } from '../../domain/organisation/tag.ts';
import { fold } from '../../domain/shared/decider.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { handleCommand } from '../shared/handle-command.ts';
import type { OrganisationDeps } from './organisation.deps.ts';

const nameClaim = (deps: OrganisationDeps, kind: TagKind, name: string, ownerId: number, metadata: EventMetadata, type: 'Claim' | 'Release') =>
  handleCommand(deps.store, { streamName: tagNameClaim.stream(kind, name), decider: tagNameClaim.decider, command: { type, ownerId }, metadata });

const current = async (deps: OrganisationDeps, tagId: number) =>
  fold(
    tagDecider,
    (await deps.store.readStream(tagStream(tagId))).events.map((e) => ({ type: e.type, data: e.data }) as TagEvent),
  );

const change = (deps: OrganisationDeps, tagId: number, command: Parameters<typeof tagDecider.decide>[0], metadata: EventMetadata) =>
  handleCommand(deps.store, { streamName: tagStream(tagId), decider: tagDecider, command, metadata });

/** Tag names are unique per kind: claimed before the tag is written, released when it is renamed or deleted. */
export const createTag = async (deps: OrganisationDeps, kind: TagKind, input: { name: string; internalUse: boolean }, metadata: EventMetadata) => {
  const tagId = await deps.ids.next('tag');
  await nameClaim(deps, kind, input.name, tagId, metadata, 'Claim');
  try {
    const result = await change(deps, tagId, { type: 'CreateTag', tagId, kind, ...input }, metadata);
    return { id: tagId, position: result.position };
  } catch (error) {
    await nameClaim(deps, kind, input.name, tagId, metadata, 'Release').catch(() => undefined);
    throw error;
  }
};

export const updateTag = async (deps: OrganisationDeps, tagId: number, input: { name: string; internalUse: boolean }, metadata: EventMetadata) => {
  const tag = await current(deps, tagId);
  const renamed = tag.status === 'active' && tag.name.trim().toLowerCase() !== input.name.trim().toLowerCase();
  if (renamed) await nameClaim(deps, tag.kind, input.name, tagId, metadata, 'Claim');
  try {
    const result = await change(deps, tagId, { type: 'UpdateTag', ...input }, metadata);
    if (renamed) await nameClaim(deps, tag.kind, tag.name, tagId, metadata, 'Release');
    return { id: tagId, position: result.position };
  } catch (error) {
    if (renamed) await nameClaim(deps, tag.kind, input.name, tagId, metadata, 'Release').catch(() => undefined);
    throw error;
  }
};

export const deleteTag = async (deps: OrganisationDeps, tagId: number, metadata: EventMetadata) => {
  const tag = await current(deps, tagId);
  const result = await change(deps, tagId, { type: 'DeleteTag' }, metadata);
  if (tag.status === 'active') await nameClaim(deps, tag.kind, tag.name, tagId, metadata, 'Release');
  return { id: tagId, position: result.position };
};
