import { fold } from '../../domain/shared/decider.ts';
import type { ClaimEvent } from '../../domain/shared/unique-claim.ts';
import { userDecider } from '../../domain/users/user.decide.ts';
import type { UserState } from '../../domain/users/user.ts';
import { emailClaim, usernameClaim } from '../../domain/users/user-claims.ts';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import { loadUser } from './user-state.ts';

/**
 * The user a login name points at, from the username or e-mail claim stream and the user's own
 * stream: no read model in between, so a user registered a moment ago can log in at once.
 */
export const findUserByLogin = async (store: EventStore, usernameOrEmail: string): Promise<UserState> => {
  const login = usernameOrEmail.trim().toLowerCase();
  const kind = login.includes('@') ? emailClaim : usernameClaim;
  const claim = await store.readStream(kind.stream(login));
  const owner = fold(
    kind.decider,
    claim.events.map((e) => ({ type: e.type, data: e.data }) as ClaimEvent),
  );
  if (owner.status !== 'claimed') return userDecider.initialState;
  return loadUser(store, owner.ownerId);
};
