import { userDecider } from '../../domain/users/user.decide.ts';
import { userStream } from '../../domain/users/user.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { handleCommand } from '../shared/handle-command.ts';
import type { AuthDeps } from './auth.deps.ts';

/** Ends the session: its token is refused from then on (the users read model lists revoked sessions). */
export const logOut = async (deps: AuthDeps, session: { userId: number; sessionId: string }, metadata: EventMetadata) =>
  handleCommand(deps.store, {
    streamName: userStream(session.userId),
    decider: userDecider,
    command: { type: 'LogOut', sessionId: session.sessionId },
    metadata,
  });
