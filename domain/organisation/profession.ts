import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';

/** A profession (pharmacist, doctor, ...), in a profession group; some need a licence number (spec §5). */
export const professionStream = (professionId: number) => `profession-${professionId}`;

/**
 * Issue 13: a profession may require a chamber membership number (the medical and dental specialties
 * of spec §5). Issue 32 item 4: the professional chamber (spec §3, ids 1 to 3) its people's credit
 * points go to; none: their credits wait, held, until one is set.
 */
const fields = z.object({
  name: z.string(),
  groupId: z.number().int().positive().nullable(),
  needsLicenceNumber: z.boolean(),
  needsChamberNumber: z.boolean().default(false),
  chamber: z
    .union([z.literal(1), z.literal(2), z.literal(3)])
    .nullable()
    .default(null),
  /**
   * Issue 36: its people may prescribe or supply medicines (doctors, dentists, pharmacists), so they
   * may receive material about prescription-only medicines (course type 1, RX; Directive 2001/83/EC
   * art. 91, decision 0062). Set by the admin; events from before it read as false.
   */
  mayPrescribe: z.boolean().default(false),
});

export const professionEvents = [
  // Version 1 had no group.
  defineEvent('ProfessionCreated', fields.extend({ professionId: z.number().int().positive() }), {
    version: 2,
    upcasters: { 1: (data) => ({ groupId: null, ...(data as object) }) },
  }),
  defineEvent('ProfessionUpdated', fields),
  // Issue 14: deleted when nobody holds it and no course targets it (checked by the caller).
  defineEvent('ProfessionDeleted', z.object({})),
] as const;

export type ProfessionEvent = EventsOf<typeof professionEvents>;
export type ProfessionFields = z.infer<typeof fields>;
export type ProfessionState =
  | { readonly status: 'none' }
  | { readonly status: 'active'; readonly id: number; readonly fields: ProfessionFields }
  | { readonly status: 'deleted' };
export type ProfessionCommand =
  | { type: 'CreateProfession'; professionId: number; fields: ProfessionFields }
  | { type: 'UpdateProfession'; fields: ProfessionFields }
  | { type: 'DeleteProfession' };

export const professionDecider: Decider<ProfessionCommand, ProfessionEvent, ProfessionState> = {
  initialState: { status: 'none' },
  evolve: (state, event) => {
    if (event.type === 'ProfessionCreated') {
      const { professionId, ...rest } = event.data;
      return { status: 'active', id: professionId, fields: rest };
    }
    if (event.type === 'ProfessionDeleted') return { status: 'deleted' };
    return state.status === 'active' ? { ...state, fields: event.data } : state;
  },
  decide: (command, state) => {
    if (command.type === 'CreateProfession') {
      if (state.status !== 'none') throw new DomainError('409', 'Poklic že obstaja.', { status: 409 });
      return [{ type: 'ProfessionCreated', data: { professionId: command.professionId, ...command.fields } }];
    }
    if (state.status !== 'active') throw new DomainError('404', 'Poklic ne obstaja.', { status: 404 });
    if (command.type === 'DeleteProfession') return [{ type: 'ProfessionDeleted', data: {} }];
    return JSON.stringify(state.fields) === JSON.stringify(command.fields) ? [] : [{ type: 'ProfessionUpdated', data: command.fields }];
  },
};
