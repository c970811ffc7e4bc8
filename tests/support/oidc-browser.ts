import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLocalOidcProvider } from '../../infrastructure/auth/local-oidc-provider.ts';

/**
 * The local OpenID provider on a port of its own, as Google would be, and a small "browser" that
 * follows its redirects with a cookie jar and fills in its sign-in page, until the provider sends
 * it back to the platform's callback.
 */
export const startOidcProvider = async (clients: { clientId: string; clientSecret: string; redirectUris: string[] }[]) => {
  let provider: ReturnType<typeof createLocalOidcProvider> | null = null;
  const server = http.createServer((req, res) => provider?.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oidc`;
  provider = createLocalOidcProvider({ issuer, clients });
  return { issuer, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
};

/** Walks the provider's pages from its authorization URL, signing in as `login`; answers the URL it sends the browser back to. */
export const signInAtProvider = async (authorizationUrl: string, login: string, returnTo: string) => {
  const jar = new Map<string, string>();
  const send = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, ...value] = (pair as string).split('=');
      jar.set(name as string, value.join('='));
    }
    return response;
  };
  let url = authorizationUrl;
  for (let step = 0; step < 12; step++) {
    if (url.startsWith(returnTo)) return new URL(url);
    const response = await send(url);
    if (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get('location') as string, url).href;
      continue;
    }
    const page = await response.text();
    const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
    if (!action) throw new Error(`unexpected provider page (${response.status}): ${page.slice(0, 300)}`);
    const posted = await send(new URL(action.replace(/&amp;/g, '&'), url).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ login }).toString(),
    });
    url = new URL(posted.headers.get('location') as string, url).href;
  }
  throw new Error('the provider did not send the browser back');
};
