import { communityGroupDecider, communityGroupStream } from '../../domain/organisation/community-group.ts';
import { companyDecider, companyStream } from '../../domain/organisation/company.ts';
import { professionDecider, professionStream } from '../../domain/organisation/profession.ts';
import { unitDecider, unitStream } from '../../domain/organisation/unit.ts';
import type { EventMetadata, EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { IdAllocator } from '../../infrastructure/ids/id-allocator.port.ts';
import { handleCommand } from '../shared/handle-command.ts';

/**
 * Creation of companies, units, community groups and professions. Demo data uses these today;
 * the organisation issue adds their HTTP routes, updates and publishing.
 */
type Deps = { readonly store: EventStore; readonly ids: IdAllocator };

export const createCompany = async (deps: Deps, input: { name: string; address: string; city: string | null; zip: string | null }, metadata: EventMetadata) => {
  const companyId = await deps.ids.next('company');
  const result = await handleCommand(deps.store, {
    streamName: companyStream(companyId),
    decider: companyDecider,
    command: { type: 'CreateCompany', companyId, ...input },
    metadata,
  });
  return { companyId, position: result.position };
};

export const createUnit = async (deps: Deps, input: { companyId: number; name: string }, metadata: EventMetadata) => {
  const unitId = await deps.ids.next('unit');
  const result = await handleCommand(deps.store, {
    streamName: unitStream(unitId),
    decider: unitDecider,
    command: { type: 'CreateUnit', unitId, ...input },
    metadata,
  });
  return { unitId, position: result.position };
};

export const createCommunityGroup = async (deps: Deps, input: { name: string; unitIds: readonly number[] }, metadata: EventMetadata) => {
  const groupId = await deps.ids.next('community_group');
  const result = await handleCommand(deps.store, {
    streamName: communityGroupStream(groupId),
    decider: communityGroupDecider,
    command: { type: 'CreateCommunityGroup', groupId, ...input },
    metadata,
  });
  return { groupId, position: result.position };
};

export const createProfession = async (deps: Deps, input: { name: string; needsLicenceNumber: boolean }, metadata: EventMetadata) => {
  const professionId = await deps.ids.next('profession');
  const result = await handleCommand(deps.store, {
    streamName: professionStream(professionId),
    decider: professionDecider,
    command: { type: 'CreateProfession', professionId, ...input },
    metadata,
  });
  return { professionId, position: result.position };
};
