import { randomUUID } from 'node:crypto';
import type { ConsentOrigin } from '../../domain/consents/consent.decide.ts';
import { CONSENT_TEXTS, type ConsentTypeCode } from '../../domain/consents/consent.rules.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { userDecider } from '../../domain/users/user.decide.ts';
import type { RegistrationFields } from '../../domain/users/user.rules.ts';
import { userStream } from '../../domain/users/user.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { handleCommand } from '../shared/handle-command.ts';
import type { AuthDeps } from './auth.deps.ts';
import { newLinkToken, parseLinkToken, SECRET_TTL_SECONDS } from './identity-secrets.ts';
import { requireProfessionNumbers } from './profile.ts';
import { registerUser } from './register-user.ts';
import { bindPendingSocialIdentity } from './social-identities.ts';
import { emailOwner, loadUser } from './user-state.ts';

export const REGISTERED_MESSAGE = 'Registracija je uspela. Na vaš e-naslov smo poslali povezavo za potrditev; prijavite se, ko naslov potrdite.';
export const CHECK_MAIL_MESSAGE = 'Če račun s tem e-naslovom obstaja, smo nanj poslali povezavo. Preverite e-pošto.';

/** A sealed link secret for the user's stream, made once the user's id is known. */
export const sealedLink = (deps: Pick<AuthDeps, 'sealer' | 'now'>, userId: number, ttlSeconds: number) => {
  const { token, tokenHash } = newLinkToken(userId);
  return { tokenHash, sealed: deps.sealer.seal(token), expiresAt: new Date(deps.now().getTime() + ttlSeconds * 1000) };
};

/**
 * Registration (spec §2 /registracija): every rule of §5, the consents given on the form recorded
 * as consent events, and an e-mail confirmation link; the account signs in once it is confirmed.
 * With a social identity waiting (a sign-in with an unknown Google or Facebook account) the identity
 * is bound, and an address the provider vouched for counts as confirmed.
 */
export const registerSelf = async (deps: AuthDeps, fields: RegistrationFields, origin: ConsentOrigin, metadata: EventMetadata) => {
  await requireProfessionNumbers(deps, fields);
  const pending = fields.socialToken ? await deps.purposeTokens.verify('social-pending', fields.socialToken) : null;
  if (fields.socialToken && !pending)
    throw new DomainError('401', 'Prijava s socialnim omrežjem je potekla. Poskusite ponovno.', { status: 401, field: 'socialToken' });
  const vouched = pending !== null && pending.emailVerified === true && typeof pending.email === 'string' && pending.email === fields.email.toLowerCase();
  const { userId, position } = await registerUser(
    deps,
    {
      username: fields.username,
      email: fields.email,
      firstName: fields.firstName,
      middleName: fields.middleName,
      lastName: fields.lastName,
      phone: fields.phone,
      professionId: fields.professionId,
      password: fields.password,
      otherJob: fields.otherJob,
      licenceNumber: fields.licenceNumber,
      chamberMembershipNumber: fields.chamberMembershipNumber,
    },
    [],
    metadata,
    { origin: pending ? 'social' : 'self', ...(vouched ? {} : { confirmation: (id: number) => sealedLink(deps, id, SECRET_TTL_SECONDS.emailConfirmation) }) },
  );
  const texts = CONSENT_TEXTS.filter((t) => fields.consents.includes(t.type));
  const consents = await deps.recordConsents(
    userId,
    texts.map((t) => ({ consentType: t.type as ConsentTypeCode, textVersion: t.version })),
    origin,
    { ...metadata, actorId: userId },
  );
  const bound = pending ? await bindPendingSocialIdentity(deps, userId, pending, { ...metadata, actorId: userId }) : null;
  return { userId, confirmed: vouched, position: bound?.position ?? consents.position ?? position };
};

/** A session for a user who just proved they read their mail (a confirmation or reset link). */
const openSession = async (deps: AuthDeps, userId: number, metadata: EventMetadata) => {
  const sessionId = randomUUID();
  const result = await handleCommand(deps.store, {
    streamName: userStream(userId),
    decider: userDecider,
    command: { type: 'LogInTrusted', sessionId, method: 'email-link', now: deps.now() },
    metadata: { ...metadata, actorId: userId },
  });
  return { authToken: await deps.tokens.sign({ userId, sessionId, realUserId: null, position: result.position }), position: result.position };
};

/** /registracija/complete: the link from the confirmation mail confirms the address and signs the user in. */
export const confirmRegistration = async (deps: AuthDeps, token: string, metadata: EventMetadata) => {
  const parsed = parseLinkToken(token);
  if (!parsed) throw new DomainError('401', 'Povezava je neveljavna ali je potekla.', { status: 401, field: 'token' });
  await handleCommand(deps.store, {
    streamName: userStream(parsed.userId),
    decider: userDecider,
    command: { type: 'ConfirmEmail', tokenHash: parsed.tokenHash, now: deps.now() },
    metadata: { ...metadata, actorId: parsed.userId },
  });
  return openSession(deps, parsed.userId, metadata);
};

/** Another confirmation link for an account still waiting; the answer is the same whether there is one or not. */
export const resendConfirmation = async (deps: AuthDeps, email: string, metadata: EventMetadata) => {
  const userId = await emailOwner(deps.store, email);
  if (userId === null) return;
  const user = await loadUser(deps.store, userId);
  if (user.status !== 'active' || user.emailConfirmed) return;
  await handleCommand(deps.store, {
    streamName: userStream(userId),
    decider: userDecider,
    command: { type: 'RequestEmailConfirmation', ...sealedLink(deps, userId, SECRET_TTL_SECONDS.emailConfirmation) },
    metadata: { ...metadata, actorId: null },
  });
};

export { openSession };
