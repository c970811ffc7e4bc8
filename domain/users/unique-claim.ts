import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';

/**
 * Usernames and e-mail addresses are unique. Each value is its own stream (`username-<value>`,
 * `useremail-<value>`, lowercased): claiming appends to it with the version read, so two
 * registrations racing for one value cannot both win. The claim also answers "which user has this
 * username or e-mail" without waiting for a read model, which login uses.
 */
export type ClaimKind = 'username' | 'email';

export const claimStream = (kind: ClaimKind, value: string) => `${kind === 'username' ? 'username' : 'useremail'}-${value.trim().toLowerCase()}`;

export const claimEvents = [
  defineEvent('UniqueValueClaimed', z.object({ userId: z.number().int().positive() })),
  defineEvent('UniqueValueReleased', z.object({ userId: z.number().int().positive() })),
] as const;

export type ClaimEvent = EventsOf<typeof claimEvents>;
export type ClaimState = { readonly status: 'free' } | { readonly status: 'claimed'; readonly userId: number };
export type ClaimCommand = { type: 'Claim'; kind: ClaimKind; userId: number } | { type: 'Release'; userId: number };

/** spec §8: username taken 422013, e-mail taken 422005. */
const TAKEN = {
  username: () => new DomainError('422013', 'Uporabniško ime je že zasedeno.', { status: 422, field: 'username' }),
  email: () => new DomainError('422005', 'E-naslov je že zaseden.', { status: 422, field: 'email' }),
};

export const claimDecider: Decider<ClaimCommand, ClaimEvent, ClaimState> = {
  initialState: { status: 'free' },
  evolve: (_state, event) => (event.type === 'UniqueValueClaimed' ? { status: 'claimed', userId: event.data.userId } : { status: 'free' }),
  decide: (command, state) => {
    switch (command.type) {
      case 'Claim':
        if (state.status === 'claimed') {
          if (state.userId === command.userId) return [];
          throw TAKEN[command.kind]();
        }
        return [{ type: 'UniqueValueClaimed', data: { userId: command.userId } }];
      case 'Release':
        return state.status === 'claimed' && state.userId === command.userId ? [{ type: 'UniqueValueReleased', data: { userId: command.userId } }] : [];
      default: {
        const unreachable: never = command;
        return unreachable;
      }
    }
  },
};
