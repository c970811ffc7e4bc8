import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';
import { companyRule } from './organisation.rules.ts';

/** A client company. The organisation issue adds the remaining fields of spec §3 (VAT, signature, ...). */
export const companyStream = (companyId: number) => `company-${companyId}`;

export const companyEvents = [
  defineEvent(
    'CompanyCreated',
    z.object({ companyId: z.number().int().positive(), name: z.string(), address: z.string(), city: z.string().nullable(), zip: z.string().nullable() }),
  ),
] as const;

export type CompanyEvent = EventsOf<typeof companyEvents>;
export type CompanyState = { readonly status: 'none' } | { readonly status: 'active'; readonly id: number; readonly name: string };
export type CompanyCommand = { type: 'CreateCompany'; companyId: number; name: string; address: string; city: string | null; zip: string | null };

export const companyDecider: Decider<CompanyCommand, CompanyEvent, CompanyState> = {
  initialState: { status: 'none' },
  evolve: (_state, event) => ({ status: 'active', id: event.data.companyId, name: event.data.name }),
  decide: (command, state) => {
    if (state.status !== 'none') throw new DomainError('409', 'Podjetje že obstaja.', { status: 409 });
    const { type: _type, ...fields } = command;
    const data = companyRule.parse(fields);
    return [{ type: 'CompanyCreated', data: { companyId: command.companyId, ...data } }];
  },
};
