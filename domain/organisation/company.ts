import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';
import type { CompanyFields } from './organisation.rules.ts';

/** A client company (spec §3): address, institution tag, VAT, parent, external sync, certificate signature, financial data. */
export const companyStream = (companyId: number) => `company-${companyId}`;

const fields = z.object({
  name: z.string(),
  address: z.string(),
  city: z.string().nullable(),
  zip: z.string().nullable(),
  region: z.string().nullable(),
  tagId: z.number().int().positive().nullable(),
  vat: z.string().nullable(),
  parentCompanyId: z.number().int().positive().nullable(),
  externalId: z.string().nullable(),
  syncDestination: z.union([z.literal(1), z.literal(2), z.literal(3)]).nullable(),
  financial: z.object({ iban: z.string().nullable(), swift: z.string().nullable(), billingEmail: z.string().nullable() }),
});

/** Version 1 (demo data of the foundation) had name, address, city and zip only. */
const v1ToV2 = (data: unknown) => ({
  region: null,
  tagId: null,
  vat: null,
  parentCompanyId: null,
  externalId: null,
  syncDestination: null,
  financial: { iban: null, swift: null, billingEmail: null },
  ...(data as object),
});

export const companyEvents = [
  defineEvent('CompanyCreated', fields.extend({ companyId: z.number().int().positive() }), { version: 2, upcasters: { 1: v1ToV2 } }),
  defineEvent('CompanyUpdated', fields),
  defineEvent('CompanySignatureChanged', z.object({ name: z.string(), role: z.string(), imageFileId: z.number().int().positive().nullable() })),
  defineEvent('CompanyDeleted', z.object({})),
] as const;

export type CompanyEvent = EventsOf<typeof companyEvents>;
export type Signature = { readonly name: string; readonly role: string; readonly imageFileId: number | null };
export type CompanyState =
  | { readonly status: 'none' }
  | { readonly status: 'active'; readonly id: number; readonly fields: CompanyFields; readonly signature: Signature | null }
  | { readonly status: 'deleted'; readonly id: number };

export type CompanyCommand =
  | { type: 'CreateCompany'; companyId: number; fields: CompanyFields }
  | { type: 'UpdateCompany'; fields: CompanyFields }
  | { type: 'ChangeSignature'; signature: Signature }
  /** Refused by the slice while the company has units or people (decision 0016). */
  | { type: 'DeleteCompany' };

const notFound = () => new DomainError('404', 'Podjetje ne obstaja.', { status: 404 });

const checkParent = (companyId: number, fields: CompanyFields) => {
  if (fields.parentCompanyId === companyId)
    throw new DomainError('400', 'Podjetje ne more biti samo sebi nadrejeno.', { status: 400, field: 'parentCompanyId' });
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export const companyDecider: Decider<CompanyCommand, CompanyEvent, CompanyState> = {
  initialState: { status: 'none' },
  evolve: (state, event) => {
    switch (event.type) {
      case 'CompanyCreated': {
        const { companyId, ...rest } = event.data;
        return { status: 'active', id: companyId, fields: rest, signature: null };
      }
      case 'CompanyUpdated':
        return state.status === 'active' ? { ...state, fields: event.data } : state;
      case 'CompanySignatureChanged':
        return state.status === 'active' ? { ...state, signature: event.data } : state;
      case 'CompanyDeleted':
        return state.status === 'active' ? { status: 'deleted', id: state.id } : state;
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'CreateCompany':
        if (state.status !== 'none') throw new DomainError('409', 'Podjetje že obstaja.', { status: 409 });
        checkParent(command.companyId, command.fields);
        return [{ type: 'CompanyCreated', data: { companyId: command.companyId, ...command.fields } }];
      case 'UpdateCompany':
        if (state.status !== 'active') throw notFound();
        checkParent(state.id, command.fields);
        return same(state.fields, command.fields) ? [] : [{ type: 'CompanyUpdated', data: command.fields }];
      case 'ChangeSignature':
        if (state.status !== 'active') throw notFound();
        return same(state.signature, command.signature) ? [] : [{ type: 'CompanySignatureChanged', data: command.signature }];
      case 'DeleteCompany':
        if (state.status !== 'active') throw notFound();
        return [{ type: 'CompanyDeleted', data: {} }];
      default: {
        const unreachable: never = command;
        return unreachable;
      }
    }
  },
};
