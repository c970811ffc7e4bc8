import { z } from 'zod';
import type { Decider } from './decider.ts';
import type { DomainError } from './domain-error.ts';
import { defineEvent, type EventsOf } from './event.ts';

/**
 * A value that must be unique (a username, an e-mail, a community group's name, a tag's name) is a
 * stream of its own, `<namespace>-<value lowercased>`. Claiming appends to it at the revision read,
 * so two writers racing for one value cannot both win; the stream also answers "who has it" without
 * a read model. Releasing frees it again (renames, failed registrations).
 */
export const claimStream = (namespace: string, value: string) => `${namespace}-${value.trim().toLowerCase()}`;

const owner = z.object({ ownerId: z.number().int().positive() });
/** Version 1 was written for users only and called the owner `userId`. */
const fromUserId = (data: unknown) => ({ ownerId: (data as { userId: number }).userId });

export const claimEvents = [
  defineEvent('UniqueValueClaimed', owner, { version: 2, upcasters: { 1: fromUserId } }),
  defineEvent('UniqueValueReleased', owner, { version: 2, upcasters: { 1: fromUserId } }),
] as const;

export type ClaimEvent = EventsOf<typeof claimEvents>;
export type ClaimState = { readonly status: 'free' } | { readonly status: 'claimed'; readonly ownerId: number };
export type ClaimCommand = { type: 'Claim'; ownerId: number } | { type: 'Release'; ownerId: number };

/** The decider for one kind of unique value; `taken` is the error (with the spec's code) when someone else holds it. */
export const claimDecider = (taken: () => DomainError): Decider<ClaimCommand, ClaimEvent, ClaimState> => ({
  initialState: { status: 'free' },
  evolve: (_state, event) => (event.type === 'UniqueValueClaimed' ? { status: 'claimed', ownerId: event.data.ownerId } : { status: 'free' }),
  decide: (command, state) => {
    switch (command.type) {
      case 'Claim':
        if (state.status === 'claimed') {
          if (state.ownerId === command.ownerId) return [];
          throw taken();
        }
        return [{ type: 'UniqueValueClaimed', data: { ownerId: command.ownerId } }];
      case 'Release':
        return state.status === 'claimed' && state.ownerId === command.ownerId ? [{ type: 'UniqueValueReleased', data: { ownerId: command.ownerId } }] : [];
      default: {
        const unreachable: never = command;
        return unreachable;
      }
    }
  },
});
