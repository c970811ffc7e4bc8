import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';
import { claimDecider, claimStream } from '../shared/unique-claim.ts';
import { TAG_KINDS, type TagKind } from './organisation.rules.ts';

/** A tag of one kind (company, course, profession, unit), optionally for internal use only. Names are unique per kind. */
export const tagStream = (tagId: number) => `tag-${tagId}`;

export const tagNameClaim = {
  stream: (kind: TagKind, name: string) => claimStream(`tagname_${kind}`, name),
  decider: claimDecider(() => new DomainError('409', 'Značka s tem imenom že obstaja.', { status: 409, field: 'name' })),
};

export const tagEvents = [
  defineEvent('TagCreated', z.object({ tagId: z.number().int().positive(), kind: z.enum(TAG_KINDS), name: z.string(), internalUse: z.boolean() })),
  defineEvent('TagUpdated', z.object({ name: z.string(), internalUse: z.boolean() })),
  defineEvent('TagDeleted', z.object({})),
] as const;

export type TagEvent = EventsOf<typeof tagEvents>;
export type TagState =
  | { readonly status: 'none' }
  | { readonly status: 'active' | 'deleted'; readonly id: number; readonly kind: TagKind; readonly name: string; readonly internalUse: boolean };
export type TagCommand =
  | { type: 'CreateTag'; tagId: number; kind: TagKind; name: string; internalUse: boolean }
  | { type: 'UpdateTag'; name: string; internalUse: boolean }
  | { type: 'DeleteTag' };

export const tagDecider: Decider<TagCommand, TagEvent, TagState> = {
  initialState: { status: 'none' },
  evolve: (state, event) => {
    switch (event.type) {
      case 'TagCreated':
        return { status: 'active', id: event.data.tagId, kind: event.data.kind, name: event.data.name, internalUse: event.data.internalUse };
      case 'TagUpdated':
        return state.status === 'none' ? state : { ...state, ...event.data };
      case 'TagDeleted':
        return state.status === 'none' ? state : { ...state, status: 'deleted' };
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  },
  decide: (command, state) => {
    if (command.type === 'CreateTag') {
      if (state.status !== 'none') throw new DomainError('409', 'Značka že obstaja.', { status: 409 });
      return [{ type: 'TagCreated', data: { tagId: command.tagId, kind: command.kind, name: command.name, internalUse: command.internalUse } }];
    }
    if (state.status !== 'active') throw new DomainError('404', 'Značka ne obstaja.', { status: 404 });
    if (command.type === 'DeleteTag') return [{ type: 'TagDeleted', data: {} }];
    return state.name === command.name && state.internalUse === command.internalUse
      ? []
      : [{ type: 'TagUpdated', data: { name: command.name, internalUse: command.internalUse } }];
  },
};
