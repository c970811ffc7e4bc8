import { z } from 'zod';
import type { RoleAssignment } from '../../domain/permissions/can.ts';
import { idRule } from '../../domain/shared/id.rules.ts';
import { userDecider } from '../../domain/users/user.decide.ts';
import { emailRule, passwordRule, personNameRule, usernameRule } from '../../domain/users/user.rules.ts';
import { userStream } from '../../domain/users/user.ts';
import { emailClaim, usernameClaim } from '../../domain/users/user-claims.ts';
import type { PasswordHasher } from '../../infrastructure/auth/password-hasher.port.ts';
import type { EventMetadata, EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { IdAllocator } from '../../infrastructure/ids/id-allocator.port.ts';
import { handleCommand } from '../shared/handle-command.ts';

export const registerUserRequest = z
  .object({
    username: usernameRule,
    email: emailRule,
    firstName: personNameRule,
    middleName: z.string().trim().max(100).nullable().default(null),
    lastName: personNameRule,
    phone: z.string().trim().max(40).nullable().default(null),
    professionId: idRule.nullable().default(null),
    password: passwordRule.nullable().default(null),
    otherJob: z.string().trim().max(100).nullable().default(null),
    licenceNumber: z.string().trim().max(5).nullable().default(null),
    chamberMembershipNumber: z.string().trim().max(20).nullable().default(null),
  })
  .strict();

export type RegisterUserRequest = z.input<typeof registerUserRequest>;

type Deps = { readonly store: EventStore; readonly ids: IdAllocator; readonly passwords: PasswordHasher };

/**
 * Creates a user: claims the username and the e-mail (each its own stream, so two registrations
 * racing for one value cannot both win), then writes the user's stream. A claim made before a
 * later step fails is released again.
 */
export const registerUser = async (
  deps: Deps,
  input: RegisterUserRequest,
  roles: readonly RoleAssignment[],
  metadata: EventMetadata,
  options: {
    origin?: 'seed' | 'admin' | 'import' | 'self' | 'social';
    /** A self-registered account waits for this confirmation (its token's user id is the new user's: made by the caller from it). */
    confirmation?: (userId: number) => { tokenHash: string; sealed: string; expiresAt: Date };
  } = {},
) => {
  const request = registerUserRequest.parse(input);
  const userId = await deps.ids.next('user');
  const claims = { username: usernameClaim, email: emailClaim };
  const claim = (kind: 'username' | 'email', value: string) =>
    handleCommand(deps.store, { streamName: claims[kind].stream(value), decider: claims[kind].decider, command: { type: 'Claim', ownerId: userId }, metadata });
  const release = (kind: 'username' | 'email', value: string) =>
    handleCommand(deps.store, {
      streamName: claims[kind].stream(value),
      decider: claims[kind].decider,
      command: { type: 'Release', ownerId: userId },
      metadata,
    });

  await claim('username', request.username);
  try {
    await claim('email', request.email);
  } catch (error) {
    await release('username', request.username);
    throw error;
  }
  try {
    const passwordHash = request.password === null ? null : await deps.passwords.hash(request.password);
    const result = await handleCommand(deps.store, {
      streamName: userStream(userId),
      decider: userDecider,
      command: {
        type: 'RegisterUser',
        userId,
        username: request.username,
        email: request.email.toLowerCase(),
        firstName: request.firstName,
        middleName: request.middleName || null,
        lastName: request.lastName,
        phone: request.phone || null,
        professionId: request.professionId,
        passwordHash,
        roles,
        origin: options.origin ?? 'seed',
        otherJob: request.otherJob || null,
        licenceNumber: request.licenceNumber || null,
        chamberMembershipNumber: request.chamberMembershipNumber || null,
        ...(options.confirmation ? { confirmation: options.confirmation(userId) } : {}),
      },
      metadata,
    });
    return { userId, position: result.position };
  } catch (error) {
    await Promise.allSettled([release('username', request.username), release('email', request.email)]);
    throw error;
  }
};
