import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';
import { professionRule } from './organisation.rules.ts';

/** A profession (pharmacist, doctor, ...). Some need a licence number (spec §5). */
export const professionStream = (professionId: number) => `profession-${professionId}`;

export const professionEvents = [
  defineEvent('ProfessionCreated', z.object({ professionId: z.number().int().positive(), name: z.string(), needsLicenceNumber: z.boolean() })),
] as const;

export type ProfessionEvent = EventsOf<typeof professionEvents>;
export type ProfessionState = { readonly status: 'none' } | { readonly status: 'active'; readonly id: number };
export type ProfessionCommand = { type: 'CreateProfession'; professionId: number; name: string; needsLicenceNumber: boolean };

export const professionDecider: Decider<ProfessionCommand, ProfessionEvent, ProfessionState> = {
  initialState: { status: 'none' },
  evolve: (_state, event) => ({ status: 'active', id: event.data.professionId }),
  decide: (command, state) => {
    if (state.status !== 'none') throw new DomainError('409', 'Poklic že obstaja.', { status: 409 });
    const { name } = professionRule.parse({ name: command.name });
    return [{ type: 'ProfessionCreated', data: { professionId: command.professionId, name, needsLicenceNumber: command.needsLicenceNumber } }];
  },
};
