import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';

/** A unit (community) of a company: a pharmacy, a clinic, a ward. Published or not (spec §4). */
export const unitStream = (unitId: number) => `unit-${unitId}`;

/** Issue 14: the address and register fields of spec §3 a unit shares with a company (events before it have none). */
const fields = z.object({
  companyId: z.number().int().positive(),
  name: z.string(),
  tagId: z.number().int().positive().nullable(),
  address: z.string().nullable().default(null),
  city: z.string().nullable().default(null),
  zip: z.string().nullable().default(null),
  region: z.string().nullable().default(null),
  vat: z.string().nullable().default(null),
  externalId: z.string().nullable().default(null),
  syncDestination: z.number().int().min(1).max(3).nullable().default(null),
});

export const unitEvents = [
  // Version 1 had no tag.
  defineEvent('UnitCreated', fields.extend({ unitId: z.number().int().positive() }), {
    version: 2,
    upcasters: { 1: (data) => ({ tagId: null, ...(data as object) }) },
  }),
  defineEvent('UnitUpdated', fields),
  defineEvent('UnitPublished', z.object({})),
  defineEvent('UnitUnpublished', z.object({})),
  defineEvent('UnitDeleted', z.object({})),
  // Issue 18 item 3: a unit may sign its people's certificates itself (spec §3 "signature name, role and image"); else its company does.
  defineEvent(
    'UnitSignatureChanged',
    z.object({ signature: z.object({ name: z.string(), role: z.string(), imageFileId: z.number().int().positive().nullable() }).nullable() }),
  ),
] as const;

export type UnitEvent = EventsOf<typeof unitEvents>;
export type UnitFields = z.infer<typeof fields>;
export type UnitSignature = { readonly name: string; readonly role: string; readonly imageFileId: number | null };
export type UnitState =
  | { readonly status: 'none' }
  | {
      readonly status: 'active';
      readonly id: number;
      readonly fields: UnitFields;
      readonly published: boolean;
      readonly signature?: UnitSignature | null;
    }
  | { readonly status: 'deleted'; readonly id: number };

export type UnitCommand =
  | { type: 'CreateUnit'; unitId: number; fields: UnitFields }
  | { type: 'UpdateUnit'; fields: UnitFields }
  | { type: 'PublishUnit' }
  | { type: 'UnpublishUnit' }
  /** null: the unit no longer signs; its company's signature is used again. */
  | { type: 'ChangeUnitSignature'; signature: UnitSignature | null }
  /** Refused by the slice while the unit has people (decision 0016); the decider only knows the unit. */
  | { type: 'DeleteUnit' };

const notFound = () => new DomainError('404', 'Enota ne obstaja.', { status: 404 });

export const unitDecider: Decider<UnitCommand, UnitEvent, UnitState> = {
  initialState: { status: 'none' },
  evolve: (state, event) => {
    switch (event.type) {
      case 'UnitCreated': {
        const { unitId, ...rest } = event.data;
        return { status: 'active', id: unitId, fields: rest, published: false };
      }
      case 'UnitUpdated':
        return state.status === 'active' ? { ...state, fields: event.data } : state;
      case 'UnitPublished':
        return state.status === 'active' ? { ...state, published: true } : state;
      case 'UnitUnpublished':
        return state.status === 'active' ? { ...state, published: false } : state;
      case 'UnitDeleted':
        return state.status === 'active' ? { status: 'deleted', id: state.id } : state;
      case 'UnitSignatureChanged':
        return state.status === 'active' ? { ...state, signature: event.data.signature } : state;
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  },
  decide: (command, state) => {
    if (command.type === 'CreateUnit') {
      if (state.status !== 'none') throw new DomainError('409', 'Enota že obstaja.', { status: 409 });
      return [{ type: 'UnitCreated', data: { unitId: command.unitId, ...command.fields } }];
    }
    if (state.status !== 'active') throw notFound();
    switch (command.type) {
      case 'UpdateUnit':
        return JSON.stringify(state.fields) === JSON.stringify(command.fields) ? [] : [{ type: 'UnitUpdated', data: command.fields }];
      case 'PublishUnit':
        return state.published ? [] : [{ type: 'UnitPublished', data: {} }];
      case 'UnpublishUnit':
        return state.published ? [{ type: 'UnitUnpublished', data: {} }] : [];
      case 'DeleteUnit':
        return [{ type: 'UnitDeleted', data: {} }];
      case 'ChangeUnitSignature':
        return JSON.stringify(state.signature ?? null) === JSON.stringify(command.signature)
          ? []
          : [{ type: 'UnitSignatureChanged', data: { signature: command.signature } }];
      default: {
        const unreachable: never = command;
        return unreachable;
      }
    }
  },
};
