import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';
import { claimDecider, claimStream } from '../shared/unique-claim.ts';

/** A group of professions (e.g. "Farmacija"); a profession names its group. Name at least 3 characters (spec §5). */
export const professionGroupStream = (groupId: number) => `professiongroup-${groupId}`;

/** Names are unique, ignoring case (spec §5 "group name required and unique"; spec §8 42276 group name). */
export const professionGroupNameTaken = () => new DomainError('42276', 'Skupina poklicev s tem imenom že obstaja.', { status: 422, field: 'name' });

export const professionGroupNameClaim = {
  stream: (name: string) => claimStream('professiongroupname', name),
  decider: claimDecider(professionGroupNameTaken),
};

export const professionGroupEvents = [
  defineEvent('ProfessionGroupCreated', z.object({ groupId: z.number().int().positive(), name: z.string() })),
  defineEvent('ProfessionGroupRenamed', z.object({ name: z.string() })),
] as const;

export type ProfessionGroupEvent = EventsOf<typeof professionGroupEvents>;
export type ProfessionGroupState = { readonly status: 'none' } | { readonly status: 'active'; readonly id: number; readonly name: string };
export type ProfessionGroupCommand = { type: 'CreateProfessionGroup'; groupId: number; name: string } | { type: 'RenameProfessionGroup'; name: string };

export const professionGroupDecider: Decider<ProfessionGroupCommand, ProfessionGroupEvent, ProfessionGroupState> = {
  initialState: { status: 'none' },
  evolve: (state, event) => {
    if (event.type === 'ProfessionGroupCreated') return { status: 'active', id: event.data.groupId, name: event.data.name };
    return state.status === 'active' ? { ...state, name: event.data.name } : state;
  },
  decide: (command, state) => {
    if (command.name.trim().length < 3) throw new DomainError('400', 'Ime skupine mora imeti najmanj 3 znake', { status: 400, field: 'name' });
    if (command.type === 'CreateProfessionGroup') {
      if (state.status !== 'none') throw new DomainError('409', 'Skupina poklicev že obstaja.', { status: 409 });
      return [{ type: 'ProfessionGroupCreated', data: { groupId: command.groupId, name: command.name } }];
    }
    if (state.status !== 'active') throw new DomainError('404', 'Skupina poklicev ne obstaja.', { status: 404 });
    return state.name === command.name ? [] : [{ type: 'ProfessionGroupRenamed', data: { name: command.name } }];
  },
};
