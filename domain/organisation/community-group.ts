import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';
import { claimDecider, claimStream } from '../shared/unique-claim.ts';

/** A community group: a named set of units (e.g. every pharmacy of a chain). Names are unique (42276). */
export const communityGroupStream = (groupId: number) => `communitygroup-${groupId}`;

export const communityGroupNameClaim = {
  stream: (name: string) => claimStream('communitygroupname', name),
  decider: claimDecider(() => new DomainError('42276', 'Skupina s tem imenom že obstaja.', { status: 422, field: 'name' })),
};

const fields = z.object({ name: z.string(), unitIds: z.array(z.number().int().positive()) });

export const communityGroupEvents = [
  defineEvent('CommunityGroupCreated', fields.extend({ groupId: z.number().int().positive() })),
  defineEvent('CommunityGroupUpdated', fields),
  defineEvent('CommunityGroupDeleted', z.object({})),
] as const;

export type CommunityGroupEvent = EventsOf<typeof communityGroupEvents>;
export type CommunityGroupFields = z.infer<typeof fields>;
export type CommunityGroupState =
  | { readonly status: 'none' }
  | { readonly status: 'active'; readonly id: number; readonly fields: CommunityGroupFields }
  | { readonly status: 'deleted'; readonly id: number; readonly name: string };
export type CommunityGroupCommand =
  | { type: 'CreateCommunityGroup'; groupId: number; fields: CommunityGroupFields }
  | { type: 'UpdateCommunityGroup'; fields: CommunityGroupFields }
  | { type: 'DeleteCommunityGroup' };

const normalise = (f: CommunityGroupFields): CommunityGroupFields => ({ name: f.name, unitIds: [...new Set(f.unitIds)].sort((a, b) => a - b) });

export const communityGroupDecider: Decider<CommunityGroupCommand, CommunityGroupEvent, CommunityGroupState> = {
  initialState: { status: 'none' },
  evolve: (state, event) => {
    if (event.type === 'CommunityGroupCreated')
      return { status: 'active', id: event.data.groupId, fields: { name: event.data.name, unitIds: event.data.unitIds } };
    if (state.status !== 'active') return state;
    return event.type === 'CommunityGroupDeleted' ? { status: 'deleted', id: state.id, name: state.fields.name } : { ...state, fields: event.data };
  },
  decide: (command, state) => {
    if (command.type === 'CreateCommunityGroup') {
      if (state.status !== 'none') throw new DomainError('409', 'Skupina že obstaja.', { status: 409 });
      return [{ type: 'CommunityGroupCreated', data: { groupId: command.groupId, ...normalise(command.fields) } }];
    }
    if (state.status !== 'active') throw new DomainError('404', 'Skupina ne obstaja.', { status: 404 });
    if (command.type === 'DeleteCommunityGroup') return [{ type: 'CommunityGroupDeleted', data: {} }];
    const next = normalise(command.fields);
    return JSON.stringify(next) === JSON.stringify(normalise(state.fields)) ? [] : [{ type: 'CommunityGroupUpdated', data: next }];
  },
};
