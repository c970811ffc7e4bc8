import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';
import { communityGroupRule } from './organisation.rules.ts';

/** A community group: a named set of units (e.g. every pharmacy of a chain). */
export const communityGroupStream = (groupId: number) => `communitygroup-${groupId}`;

export const communityGroupEvents = [
  defineEvent('CommunityGroupCreated', z.object({ groupId: z.number().int().positive(), name: z.string(), unitIds: z.array(z.number().int().positive()) })),
] as const;

export type CommunityGroupEvent = EventsOf<typeof communityGroupEvents>;
export type CommunityGroupState = { readonly status: 'none' } | { readonly status: 'active'; readonly id: number };
export type CommunityGroupCommand = { type: 'CreateCommunityGroup'; groupId: number; name: string; unitIds: readonly number[] };

export const communityGroupDecider: Decider<CommunityGroupCommand, CommunityGroupEvent, CommunityGroupState> = {
  initialState: { status: 'none' },
  evolve: (_state, event) => ({ status: 'active', id: event.data.groupId }),
  decide: (command, state) => {
    if (state.status !== 'none') throw new DomainError('409', 'Skupina že obstaja.', { status: 409 });
    const { name } = communityGroupRule.parse({ name: command.name });
    return [{ type: 'CommunityGroupCreated', data: { groupId: command.groupId, name, unitIds: [...new Set(command.unitIds)] } }];
  },
};
