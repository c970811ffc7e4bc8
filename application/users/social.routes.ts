import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { idParam, indexParam } from '../../domain/shared/id.rules.ts';
import { SOCIAL_PLATFORMS } from '../../domain/users/user.ts';
import { anyOf, commandMetadata, errorResponses, type HttpApp, PUBLIC, requireAuth, withPosition } from '../../infrastructure/http/http.port.ts';
import { exchangeSocialLogin, finishSocial, type SocialDeps, safePath, startSocial } from './social-sign-in.ts';

const tags = ['identity'];
const COOKIE = 'medilearn_oauth';
const platformParams = z.object({ platform: z.enum(SOCIAL_PLATFORMS) });

/** The sign-in's checks between the two legs: HttpOnly, only to the social routes, Lax so the provider's redirect back carries it. */
const keepState = (request: FastifyRequest, reply: FastifyReply, token: string | null) => {
  const secure = request.protocol === 'https' || request.headers['x-forwarded-proto'] === 'https';
  reply.header('Set-Cookie', `${COOKIE}=${token ?? ''}; Path=/api/auth/social; Max-Age=${token ? 600 : 0}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`);
};

const stateOf = (request: FastifyRequest) => {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === COOKIE) return rest.join('=') || null;
  }
  return null;
};

/**
 * Social sign-in and binding (spec §1, §2 /redirect/{id}, §7 GET /redirect/{id}): Google and Facebook
 * as OpenID Connect through the provider port. The browser goes to the provider from `start` (or,
 * to bind an account from the profile, from the URL `bind` answers), comes back to `callback`, and
 * is sent on to a UI page; a sign-in ends at /redirect/{id} whose one-time code this API exchanges.
 */
export const registerSocialRoutes = (app: HttpApp, deps: SocialDeps) => {
  app.get(
    '/api/auth/social',
    {
      config: { access: PUBLIC },
      schema: {
        tags,
        summary: 'Which social sign-ins are available',
        response: { 200: z.object({ providers: z.array(z.object({ platform: z.string(), available: z.boolean() })) }) },
      },
    },
    async () => ({ providers: SOCIAL_PLATFORMS.map((platform) => ({ platform, available: Boolean(deps.providers[platform]) })) }),
  );

  app.get(
    '/api/auth/social/:platform/start',
    {
      config: { access: PUBLIC },
      schema: {
        tags,
        summary: 'Start a social sign-in: redirects to the provider (or back to /prijava when it is unavailable)',
        params: platformParams,
        querystring: z.object({ redirect: z.string().max(500).optional(), courseId: indexParam.optional() }),
      },
    },
    async (request, reply) => {
      const { platform } = request.params;
      if (!deps.providers[platform]) return reply.redirect(`/prijava?napaka=${platform}`, 302);
      try {
        const started = await startSocial(deps, platform, {
          mode: 'login',
          redirect: safePath(request.query.redirect),
          courseId: request.query.courseId ?? 0,
          userId: null,
        });
        keepState(request, reply, started.stateToken);
        return reply.redirect(started.url, 302);
      } catch {
        return reply.redirect(`/prijava?napaka=${platform}`, 302);
      }
    },
  );

  app.post(
    '/api/users/me/social/:platform/bind',
    {
      config: { access: anyOf([{ profile: 1003 }]) },
      schema: {
        tags,
        summary: 'Start binding a Google or Facebook account to oneself (1003): the URL to send the browser to',
        params: platformParams,
        response: { 200: z.object({ url: z.string() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { platform } = request.params;
      const started = await startSocial(deps, platform, { mode: 'bind', redirect: '/profil', courseId: 0, userId: requireAuth(request).userId });
      keepState(request, reply, started.stateToken);
      return reply.send({ url: started.url });
    },
  );

  app.get(
    '/api/auth/social/:platform/callback',
    {
      // It binds an identity and waits for the read model to have it: on the primary with read replicas (decision 0067).
      config: { access: PUBLIC, onPrimary: true },
      schema: {
        tags,
        summary: 'Where the provider sends the browser back; redirects on to the UI',
        params: platformParams,
        querystring: z.record(z.string(), z.unknown()),
      },
    },
    async (request, reply) => {
      const location = await finishSocial(deps, request.params.platform, new URL(request.url, deps.publicUrl), stateOf(request), commandMetadata(request));
      keepState(request, reply, null);
      return reply.redirect(location, 302);
    },
  );

  app.get(
    '/api/redirect/:id',
    {
      // It opens a session (an event): on the primary with read replicas (decision 0067).
      config: { access: PUBLIC, onPrimary: true },
      schema: {
        tags,
        summary: 'spec §7 GET /redirect/{id}?provider=&user=: the provider entry; answers {data:{authToken}}',
        params: z.object({ id: z.union([idParam, z.literal('0').transform(() => 0)]) }),
        querystring: z.object({ provider: z.string().max(20), user: z.string().min(1).max(2000) }),
        response: { 200: z.object({ data: z.object({ authToken: z.string() }) }), ...errorResponses },
      },
    },
    async (request, reply) => {
      if (!(SOCIAL_PLATFORMS as readonly string[]).includes(request.query.provider)) {
        throw new DomainError('400', 'Neznan ponudnik prijave.', { status: 400, field: 'provider' });
      }
      const result = await exchangeSocialLogin(deps, request.query.provider, request.query.user, commandMetadata(request));
      return withPosition(reply, result.position).send({ data: { authToken: result.authToken } });
    },
  );
};
