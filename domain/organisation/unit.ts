import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';
import { unitRule } from './organisation.rules.ts';

/** A unit (community) of a company: a pharmacy, a clinic, a ward. */
export const unitStream = (unitId: number) => `unit-${unitId}`;

export const unitEvents = [
  defineEvent('UnitCreated', z.object({ unitId: z.number().int().positive(), companyId: z.number().int().positive(), name: z.string() })),
] as const;

export type UnitEvent = EventsOf<typeof unitEvents>;
export type UnitState = { readonly status: 'none' } | { readonly status: 'active'; readonly id: number; readonly companyId: number };
export type UnitCommand = { type: 'CreateUnit'; unitId: number; companyId: number; name: string };

export const unitDecider: Decider<UnitCommand, UnitEvent, UnitState> = {
  initialState: { status: 'none' },
  evolve: (_state, event) => ({ status: 'active', id: event.data.unitId, companyId: event.data.companyId }),
  decide: (command, state) => {
    if (state.status !== 'none') throw new DomainError('409', 'Enota že obstaja.', { status: 409 });
    const { name } = unitRule.parse({ name: command.name });
    return [{ type: 'UnitCreated', data: { unitId: command.unitId, companyId: command.companyId, name } }];
  },
};
