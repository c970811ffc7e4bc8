import { randomBytes } from 'node:crypto';
import { SOCIAL_PLATFORMS, type SocialPlatform } from '../../domain/users/user.ts';
import type { Config } from '../config/config.ts';
import type { HttpApp } from '../http/http.port.ts';
import { createLocalOidcProvider } from './local-oidc-provider.ts';
import { createOidcSocialProvider } from './oidc-social-provider.ts';
import type { SocialProvider } from './social-provider.port.ts';

type LocalOidc = ReturnType<typeof createLocalOidcProvider>;

/**
 * Social sign-in: the configured providers; with the local provider on (OIDC_LOCAL_PROVIDER), it
 * stands in for any platform that is not configured, as its own OIDC issuer under /oidc.
 */
export const createSocialProviders = (config: Pick<Config, 'publicUrl' | 'oidcLocalProvider' | 'socialProviders'>) => {
  const clients = SOCIAL_PLATFORMS.map((platform) => ({ platform, clientId: `medilearn-${platform}`, clientSecret: randomBytes(24).toString('base64url') }));
  const issuer = `${config.publicUrl}/oidc`;
  const local = config.oidcLocalProvider
    ? createLocalOidcProvider({
        issuer,
        clients: clients.map((c) => ({
          clientId: c.clientId,
          clientSecret: c.clientSecret,
          redirectUris: [`${config.publicUrl}/api/auth/social/${c.platform}/callback`],
        })),
      })
    : null;
  const providers: Partial<Record<SocialPlatform, SocialProvider>> = {};
  for (const client of clients) {
    const configured = config.socialProviders[client.platform];
    if (configured) providers[client.platform] = createOidcSocialProvider({ platform: client.platform, ...configured });
    else if (local)
      providers[client.platform] = createOidcSocialProvider({
        platform: client.platform,
        issuer,
        clientId: client.clientId,
        clientSecret: client.clientSecret,
      });
  }
  return { providers, local };
};

/**
 * Serves the local provider under /oidc (not an /api route: the provider speaks for itself). Its
 * sign-in form posts url-encoded bodies the provider reads from the stream itself, so in this scope
 * no parser consumes them (and the platform's JSON-only body rule never sees one).
 */
export const mountLocalOidc = async (app: HttpApp, local: LocalOidc | null) => {
  if (!local) return;
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    scope.all(`${local.mountPath}/*`, (request, reply) => {
      reply.hijack();
      local.handle(request.raw, reply.raw);
    });
  });
};
