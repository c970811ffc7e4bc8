import type { Decider } from '../../domain/shared/decider.ts';
import type { ClaimCommand, ClaimEvent, ClaimState } from '../../domain/shared/unique-claim.ts';
import type { EventMetadata, EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import { handleCommand } from './handle-command.ts';

/** A kind of unique name: its claim stream per name and the decider that refuses a taken one. */
export type NameClaim = { readonly stream: (name: string) => string; readonly decider: Decider<ClaimCommand, ClaimEvent, ClaimState> };

/** Claims a unique name for its owner (refused with the claim's error when someone else holds it), or releases it. */
export const changeNameClaim = (store: EventStore, claim: NameClaim, name: string, ownerId: number, metadata: EventMetadata, type: ClaimCommand['type']) =>
  handleCommand(store, { streamName: claim.stream(name), decider: claim.decider, command: { type, ownerId }, metadata });
