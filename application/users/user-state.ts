import { fold } from '../../domain/shared/decider.ts';
import type { ClaimEvent } from '../../domain/shared/unique-claim.ts';
import { userDecider } from '../../domain/users/user.decide.ts';
import { type UserEvent, type UserState, userStream } from '../../domain/users/user.ts';
import { emailClaim } from '../../domain/users/user-claims.ts';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import { readState } from '../shared/stream-states.ts';

/** A user as their stream says now (no read model in between: just written means known). */
export const loadUser = async (store: EventStore, userId: number): Promise<UserState> =>
  (await readState<UserEvent, UserState>(store, userStream(userId), userDecider)).state;

/** Who holds an e-mail address (its claim stream), or null. */
export const emailOwner = async (store: EventStore, email: string): Promise<number | null> => {
  const claim = fold(
    emailClaim.decider,
    (await store.readStream(emailClaim.stream(email))).events.map((e) => ({ type: e.type, data: e.data }) as ClaimEvent),
  );
  return claim.status === 'claimed' ? claim.ownerId : null;
};
