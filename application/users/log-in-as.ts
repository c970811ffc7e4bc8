import { randomUUID } from 'node:crypto';
import { ROLE } from '../../domain/permissions/roles.ts';
import { fold } from '../../domain/shared/decider.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { userDecider } from '../../domain/users/user.decide.ts';
import { type UserEvent, userStream } from '../../domain/users/user.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import type { AuthContext } from '../../infrastructure/http/http.port.ts';
import { handleCommand } from '../shared/handle-command.ts';
import type { AuthDeps } from './auth.deps.ts';

/**
 * "Log in as" (permission 1008). The new session's token names the admin as the real user, so
 * every event recorded under it carries `realActorId`, and the impersonation itself is an event in
 * the entered account's stream. Like Moodle, an admin account cannot be entered, and a
 * "log in as" session cannot start another one.
 */
export const logInAs = async (deps: AuthDeps, admin: AuthContext, targetUserId: number, metadata: EventMetadata) => {
  if (admin.realUserId !== null) throw new DomainError('403', 'Med prijavo z drugim uporabnikom te možnosti ni.', { status: 403 });
  if (targetUserId === admin.userId) throw new DomainError('400', 'Prijava z lastnim računom ni mogoča.', { status: 400 });
  const target = fold(
    userDecider,
    (await deps.store.readStream(userStream(targetUserId))).events.map((e) => ({ type: e.type, data: e.data }) as UserEvent),
  );
  if (target.status !== 'active') throw new DomainError('404', 'Uporabnik ne obstaja.', { status: 404 });
  if (target.roles.some((r) => r.roleId === ROLE.admin)) throw new DomainError('403', 'Prijava z računom skrbnika ni dovoljena.', { status: 403 });
  const sessionId = randomUUID();
  const result = await handleCommand(deps.store, {
    streamName: userStream(targetUserId),
    decider: userDecider,
    command: { type: 'StartImpersonation', sessionId, adminId: admin.userId },
    metadata: { ...metadata, actorId: admin.userId, realActorId: admin.userId },
  });
  const authToken = await deps.tokens.sign({ userId: targetUserId, sessionId, realUserId: admin.userId, position: result.position });
  return { authToken, position: result.position };
};
