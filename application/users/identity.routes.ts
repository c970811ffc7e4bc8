import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ConsentOrigin } from '../../domain/consents/consent.decide.ts';
import { userDecider } from '../../domain/users/user.decide.ts';
import {
  emailChangeRule,
  emailRequestRule,
  passwordResetRule,
  registrationRule,
  secondFactorAnswerRule,
  secondFactorSettingRule,
  tokenRule,
} from '../../domain/users/user.rules.ts';
import { SOCIAL_PLATFORMS, userStream } from '../../domain/users/user.ts';
import {
  anyOf,
  commandMetadata,
  errorResponses,
  type HttpApp,
  PUBLIC,
  readDeviceSecret,
  requireAuth,
  withPosition,
  writeDeviceSecret,
} from '../../infrastructure/http/http.port.ts';
import { guardAttempts } from '../shared/attempt-limits.ts';
import { handleCommand } from '../shared/handle-command.ts';
import type { AuthDeps } from './auth.deps.ts';
import { confirmEmailChange, requestEmailChange } from './email-change.ts';
import { completePasswordReset, requestPasswordReset } from './password-reset.ts';
import { answerSecondFactor, readSecondFactorToken, resendSecondFactor, setSecondFactor } from './second-factor.ts';
import { CHECK_MAIL_MESSAGE, confirmRegistration, openSession, REGISTERED_MESSAGE, registerSelf, resendConfirmation } from './self-registration.ts';
import { unbindSocialIdentity } from './social-identities.ts';
import { USER_FIELD_CODES } from './user-field-codes.ts';

const tags = ['identity'];
const bodyLimit = 16 * 1024;
const authToken = z.object({ authToken: z.string() });
const message = z.object({ message: z.string() });

const consentOrigin = (request: FastifyRequest): ConsentOrigin => ({
  channel: 'web',
  ip: request.ip ?? null,
  userAgent: request.headers['user-agent'] ? String(request.headers['user-agent']).slice(0, 300) : null,
  onBehalfOf: null,
});

/**
 * Who a person is and how they prove it (issue 13; spec §2, §4, §5, §7, §8): registration and its
 * confirmation, password reset and first password, e-mail change, the second factor by e-mail
 * code, push preference, unbinding a social identity. The public routes answer the same whether or
 * not an account exists, and count attempts per account and per address.
 */
export const registerIdentityRoutes = (app: HttpApp, deps: AuthDeps) => {
  const publicRoute = { access: PUBLIC, readModels: ['organisation'] } as const;

  app.post(
    '/api/auth/register',
    {
      config: { ...publicRoute, fieldCodes: USER_FIELD_CODES, expensive: 'mail' },
      bodyLimit,
      schema: {
        tags,
        summary: 'Register (spec §2 /registracija): every §5 rule, the four required consents; a confirmation link goes by mail',
        body: registrationRule,
        response: { 201: message.extend({ authToken: z.string().optional() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await guardAttempts(deps.attempts, reply, 'registration', { account: request.body.email, address: request.ip });
      const result = await registerSelf(deps, request.body, consentOrigin(request), commandMetadata(request));
      withPosition(reply, result.position).status(201);
      if (!result.confirmed) return reply.send({ message: REGISTERED_MESSAGE });
      // A provider vouched for the address: the new account is confirmed and signed in at once.
      const session = await openSession(deps, result.userId, commandMetadata(request));
      return withPosition(reply, session.position).send({ message: 'Registracija je uspela.', authToken: session.authToken });
    },
  );

  app.post(
    '/api/auth/register/confirm',
    {
      config: { access: PUBLIC },
      bodyLimit,
      schema: {
        tags,
        summary: 'Confirm the e-mail address with the link from the mail; signs in',
        body: tokenRule,
        response: { 200: authToken, ...errorResponses },
      },
    },
    async (request, reply) => {
      await guardAttempts(deps.attempts, reply, 'link', { account: null, address: request.ip });
      const session = await confirmRegistration(deps, request.body.token, commandMetadata(request));
      return withPosition(reply, session.position).send({ authToken: session.authToken });
    },
  );

  app.post(
    '/api/auth/register/resend',
    {
      config: { access: PUBLIC, expensive: 'mail' },
      bodyLimit,
      schema: { tags, summary: 'Send the confirmation link again', body: emailRequestRule, response: { 202: message, ...errorResponses } },
    },
    async (request, reply) => {
      await guardAttempts(deps.attempts, reply, 'registration', { account: request.body.email, address: request.ip });
      await resendConfirmation(deps, request.body.email, commandMetadata(request));
      return reply.status(202).send({ message: CHECK_MAIL_MESSAGE });
    },
  );

  app.post(
    '/api/auth/password-reset',
    {
      config: { access: PUBLIC, fieldCodes: USER_FIELD_CODES },
      bodyLimit,
      schema: {
        tags,
        summary: 'Ask for a password reset link (spec §2 /geslo); the same answer whether the address has an account or not',
        body: emailRequestRule,
        response: { 202: message, ...errorResponses },
      },
    },
    async (request, reply) => {
      await guardAttempts(deps.attempts, reply, 'password-reset', { account: request.body.email, address: request.ip });
      await requestPasswordReset(deps, { email: request.body.email }, commandMetadata(request));
      return reply.status(202).send({ message: CHECK_MAIL_MESSAGE });
    },
  );

  app.post(
    '/api/auth/password-reset/complete',
    {
      config: { access: PUBLIC, fieldCodes: USER_FIELD_CODES },
      bodyLimit,
      schema: {
        tags,
        summary: 'Set a new (or first) password with the link from the mail (/geslo/complete, /nov-uporabnik); ends every other session, signs in',
        body: passwordResetRule,
        response: { 200: authToken, ...errorResponses },
      },
    },
    async (request, reply) => {
      await guardAttempts(deps.attempts, reply, 'link', { account: null, address: request.ip });
      const session = await completePasswordReset(deps, request.body, commandMetadata(request));
      return withPosition(reply, session.position).send({ authToken: session.authToken });
    },
  );

  app.post(
    '/api/auth/email-change/confirm',
    {
      config: { access: PUBLIC },
      bodyLimit,
      schema: {
        tags,
        summary: 'Confirm a new e-mail address with the link sent to it (/sprememba-e-naslova/complete)',
        body: tokenRule,
        response: { 200: z.object({ email: z.string() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await guardAttempts(deps.attempts, reply, 'link', { account: null, address: request.ip });
      const result = await confirmEmailChange(deps, request.body.token, commandMetadata(request));
      return withPosition(reply, result.position).send({ email: result.email });
    },
  );

  app.post(
    '/api/auth/2fa',
    {
      config: { access: PUBLIC },
      bodyLimit,
      schema: {
        tags,
        summary: 'The second step of a login (/prijava/2fa): the code from the mail; "remember me" trusts this device for 30 days',
        body: secondFactorAnswerRule,
        response: { 200: authToken, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = await readSecondFactorToken(deps, request.body.auth2FAToken);
      await guardAttempts(deps.attempts, reply, 'second-factor', { account: String(userId), address: request.ip });
      const result = await answerSecondFactor(deps, { ...request.body, deviceSecret: readDeviceSecret(request) }, commandMetadata(request));
      if (result.deviceSecret && result.trustedUntil) writeDeviceSecret(request, reply, result.deviceSecret, result.trustedUntil);
      return withPosition(reply, result.position).send({ authToken: result.authToken });
    },
  );

  app.post(
    '/api/auth/2fa/resend',
    {
      config: { access: PUBLIC },
      bodyLimit,
      schema: {
        tags,
        summary: 'A new second-factor code by mail; answers a new auth2FAToken',
        body: z.object({ auth2FAToken: z.string().min(1).max(2000) }).strict(),
        response: { 200: z.object({ auth2FAToken: z.string() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = await readSecondFactorToken(deps, request.body.auth2FAToken);
      await guardAttempts(deps.attempts, reply, 'second-factor-resend', { account: String(userId), address: request.ip });
      const result = await resendSecondFactor(deps, request.body.auth2FAToken, commandMetadata(request));
      return withPosition(reply, result.position).send({ auth2FAToken: result.auth2FAToken });
    },
  );

  // ---------------------------------------------------------------- one's own account (profile permissions of spec §6)

  app.post(
    '/api/users/me/password-reset',
    {
      config: { access: anyOf([{ profile: 1021 }]) },
      bodyLimit,
      schema: { tags, summary: 'Send a password reset link to one’s own address (1021)', response: { 202: message, ...errorResponses } },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      await guardAttempts(deps.attempts, reply, 'password-reset', { account: String(auth.userId), address: request.ip });
      const position = await requestPasswordReset(deps, { userId: auth.userId }, commandMetadata(request));
      return withPosition(reply, position).status(202).send({ message: 'Povezavo za nastavitev novega gesla smo poslali na vaš e-naslov.' });
    },
  );

  app.post(
    '/api/users/me/email-change',
    {
      config: { access: anyOf([{ profile: 1022 }]), fieldCodes: USER_FIELD_CODES, expensive: 'mail' },
      bodyLimit,
      schema: {
        tags,
        summary: 'Change one’s e-mail address (1022): confirmed by the current password, then by the link sent to the new address',
        body: emailChangeRule,
        response: { 202: message, ...errorResponses },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      await guardAttempts(deps.attempts, reply, 'password-change', { account: String(auth.userId), address: request.ip });
      const position = await requestEmailChange(deps, auth.userId, request.body, commandMetadata(request));
      return withPosition(reply, position).status(202).send({ message: 'Na nov e-naslov smo poslali povezavo za potrditev. Sprememba velja, ko jo potrdite.' });
    },
  );

  app.put(
    '/api/users/me/second-factor',
    {
      config: { access: anyOf([{ profile: 1003 }]) },
      bodyLimit,
      schema: {
        tags,
        summary: 'Switch the second factor (a code by e-mail at login) on or off (1003), with the current password',
        body: secondFactorSettingRule,
        response: { 200: z.object({ enabled: z.boolean() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      await guardAttempts(deps.attempts, reply, 'password-change', { account: String(auth.userId), address: request.ip });
      const position = await setSecondFactor(deps, auth.userId, request.body, commandMetadata(request));
      return withPosition(reply, position).send({ enabled: request.body.enabled });
    },
  );

  app.post(
    '/api/users/onesignal',
    {
      config: { access: anyOf([{ profile: 1001 }]) },
      bodyLimit,
      schema: {
        tags,
        summary: 'spec §7 POST /users/onesignal: the push preference (onesignalEnabled, a number; 0 off)',
        body: z.object({ onesignalEnabled: z.number().int().min(0).max(9) }).strict(),
        response: { 200: z.object({ onesignalEnabled: z.number() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await handleCommand(deps.store, {
        streamName: userStream(requireAuth(request).userId),
        decider: userDecider,
        command: { type: 'SetPushPreference', onesignalEnabled: request.body.onesignalEnabled },
        metadata: commandMetadata(request),
      });
      return withPosition(reply, result.position).send({ onesignalEnabled: request.body.onesignalEnabled });
    },
  );

  app.delete(
    '/api/users/me/social/:platform',
    {
      config: { access: anyOf([{ profile: 1003 }]) },
      schema: {
        tags,
        summary: 'Unbind one’s Google or Facebook account (1003)',
        params: z.object({ platform: z.enum(SOCIAL_PLATFORMS) }),
        response: { 200: z.object({ platform: z.string() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const position = await unbindSocialIdentity(deps, requireAuth(request).userId, request.params.platform, commandMetadata(request));
      return withPosition(reply, position).send({ platform: request.params.platform });
    },
  );
};
