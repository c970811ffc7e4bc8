import { z } from 'zod';
import { idParam } from '../../domain/shared/id.rules.ts';
import {
  commandMetadata,
  errorResponses,
  type HttpApp,
  PUBLIC,
  readDeviceSecret,
  requireAuth,
  system,
  withPosition,
} from '../../infrastructure/http/http.port.ts';
import { guardAttempts, guardSecretGuess } from '../shared/attempt-limits.ts';
import type { AuthDeps } from './auth.deps.ts';
import { logIn, logInRequest } from './log-in.ts';
import { logInAs } from './log-in-as.ts';
import { logOut } from './log-out.ts';
import { exchangeLoginToken, exchangeTokenRequest, issueLoginToken } from './login-tokens.ts';

const authToken = z.object({ authToken: z.string() });

export const registerAuthRoutes = (app: HttpApp, deps: AuthDeps) => {
  const bodyLimit = 16 * 1024;
  const accountOfToken = (token: string) => /^(\d{1,10})\./.exec(token.trim())?.[1] ?? null;

  app.post(
    '/api/auth/login',
    {
      config: { access: PUBLIC },
      bodyLimit,
      schema: {
        tags: ['auth'],
        summary: 'Log in with username or e-mail and password: a session, or (second factor on) the token for /prijava/2fa',
        body: logInRequest,
        response: { 200: z.union([authToken, z.object({ secondFactorAuth: authToken })]), ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await guardSecretGuess(deps.attempts, reply, 'login', { account: request.body.usernameOrEmail, address: request.ip }, () =>
        logIn(deps, request.body, commandMetadata(request), { secret: readDeviceSecret(request) }),
      );
      withPosition(reply, result.position);
      // spec §7: "authToken, or secondFactorAuth carrying an authToken: goes to 2FA".
      return reply.send(result.kind === 'session' ? { authToken: result.authToken } : { secondFactorAuth: { authToken: result.auth2FAToken } });
    },
  );

  app.post(
    '/api/auth/logout',
    { config: { access: PUBLIC }, schema: { tags: ['auth'], summary: 'End the current session', response: { 204: z.null() } } },
    async (request, reply) => {
      if (request.auth) {
        const result = await logOut(deps, request.auth, commandMetadata(request));
        withPosition(reply, result.position);
      }
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/auth/token',
    {
      config: { access: PUBLIC },
      bodyLimit,
      schema: {
        tags: ['auth'],
        summary: 'Exchange a one-time login token for a session',
        body: exchangeTokenRequest,
        response: { 200: authToken, ...errorResponses },
      },
    },
    async (request, reply) => {
      const account = accountOfToken(request.body.token);
      const exchange = () => exchangeLoginToken(deps, request.body.token, commandMetadata(request));
      if (!account) await guardAttempts(deps.attempts, reply, 'login-token', { account: null, address: request.ip });
      const result = account ? await guardSecretGuess(deps.attempts, reply, 'login-token', { account, address: request.ip }, exchange) : await exchange();
      return withPosition(reply, result.position).send({ authToken: result.authToken });
    },
  );

  app.post(
    '/api/auth/token/:userId',
    {
      config: { access: system(1008) },
      bodyLimit,
      schema: {
        tags: ['auth'],
        summary: 'Log in as another user (permission 1008)',
        security: [{ jwt: [] }],
        params: z.object({ userId: idParam }),
        response: { 200: authToken, ...errorResponses },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      await guardAttempts(deps.attempts, reply, 'log-in-as', { account: String(auth.realUserId ?? auth.userId), address: request.ip });
      const result = await logInAs(deps, auth, request.params.userId, commandMetadata(request));
      return withPosition(reply, result.position).send({ authToken: result.authToken });
    },
  );

  app.post(
    '/api/users/:userId/login-tokens',
    {
      config: { access: system(1066) },
      schema: {
        tags: ['auth'],
        summary: 'Issue a one-time login token for a user (permission 1066)',
        security: [{ jwt: [] }],
        params: z.object({ userId: idParam }),
        response: { 201: z.object({ token: z.string(), expiresAt: z.iso.datetime() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await issueLoginToken(deps, request.params.userId, commandMetadata(request));
      return withPosition(reply, result.position).status(201).send({ token: result.token, expiresAt: result.expiresAt.toISOString() });
    },
  );
};
