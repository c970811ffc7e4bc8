import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
// oidc-provider ships no types: only the few calls below are used.
// @ts-expect-error no declaration file
import Provider from 'oidc-provider';

type Interaction = {
  uid: string;
  prompt: { name: string; details: Record<string, unknown> };
  params: Record<string, unknown>;
  session?: { accountId?: string };
};
type ProviderInstance = {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
  interactionFinished(req: IncomingMessage, res: ServerResponse, result: object, options?: object): Promise<void>;
  Grant: new (init: {
    accountId: string;
    clientId: string;
  }) => { addOIDCScope(scope: string): void; addOIDCClaims(claims: string[]): void; save(): Promise<string> };
};

export type LocalClient = { readonly clientId: string; readonly clientSecret: string; readonly redirectUris: readonly string[] };

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The local provider's sign-in page, in Slovenian: any e-mail (or a name without one, for a provider that gives no e-mail). */
const loginPage = (
  action: string,
  client: string,
) => `<!doctype html><html lang="sl"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Lokalni ponudnik prijave</title>
<style>body{font-family:Arial,sans-serif;background:#f4f6f8;margin:0;padding:48px 16px}main{max-width:380px;margin:0 auto;background:#fff;border-radius:8px;padding:32px}
label{display:block;margin:16px 0 6px}input{width:100%;box-sizing:border-box;padding:10px;font-size:16px}button{margin-top:20px;padding:10px 20px;font-size:16px;background:#0b6e69;color:#fff;border:0;border-radius:6px}</style>
</head><body><main><h1>Prijava pri ponudniku</h1>
<p>Lokalni ponudnik za razvoj in preizkuse stoji namesto ${escapeHtml(client)}. Vpišite e-naslov (ali ime brez e-naslova).</p>
<form method="post" action="${escapeHtml(action)}"><label for="login">E-naslov ali ime</label><input id="login" name="login" required autocomplete="off">
<button type="submit">Prijava</button></form></main></body></html>`;

const readForm = (req: IncomingMessage) =>
  new Promise<URLSearchParams>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 4096) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });

/**
 * A real OpenID provider (npm `oidc-provider`) for development and tests, standing in for Google and
 * Facebook: its sign-in page takes any e-mail, whose account's subject is stable (a hash of it) and
 * whose e-mail is vouched for; a login without "@" gives an account with no e-mail (the
 * /registracija/bind-email case). Consent is given at once. Served under `mountPath` of the
 * platform's own server, or standalone in tests.
 */
export const createLocalOidcProvider = (options: { issuer: string; clients: readonly LocalClient[]; label?: string }) => {
  const mountPath = new URL(options.issuer).pathname.replace(/\/+$/, '');
  const provider = new Provider(options.issuer, {
    clients: options.clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: [...c.redirectUris],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    })),
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => ({
        sub: `local-${createHash('sha256').update(id.toLowerCase()).digest('hex').slice(0, 24)}`,
        ...(id.includes('@') ? { email: id.toLowerCase(), email_verified: true } : {}),
        name: id,
      }),
    }),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${mountPath}/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    // A signing key of this process (the provider is local: its tokens need not outlive it).
    jwks: { keys: [{ ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: 'local', use: 'sig', alg: 'RS256' }] },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AuthorizationCode: 60, IdToken: 600, AccessToken: 600 },
  }) as ProviderInstance;
  const handle = provider.callback();

  /** The interaction pages (sign-in, then consent given at once); everything else is the provider's own. */
  const serve = async (req: IncomingMessage, res: ServerResponse, path: string) => {
    const interaction = /^\/interaction\/([\w-]+)(\/login)?$/.exec(path);
    if (!interaction) return handle(req, res);
    const details = await provider.interactionDetails(req, res);
    if (interaction[2] && req.method === 'POST') {
      const login = (await readForm(req)).get('login')?.trim() ?? '';
      if (!login) return void res.writeHead(303, { location: `${mountPath}/interaction/${details.uid}` }).end();
      return provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
    }
    if (details.prompt.name === 'consent') {
      const grant = new provider.Grant({ accountId: details.session?.accountId ?? '', clientId: String(details.params.client_id) });
      const missingScope = details.prompt.details.missingOIDCScope as string[] | undefined;
      const missingClaims = details.prompt.details.missingOIDCClaims as string[] | undefined;
      if (missingScope) grant.addOIDCScope(missingScope.join(' '));
      if (missingClaims) grant.addOIDCClaims(missingClaims);
      return provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(loginPage(`${mountPath}/interaction/${details.uid}/login`, options.label ?? 'Google oziroma Facebook'));
  };

  return {
    mountPath,
    /** Handles a request whose URL starts with the mount path (as the platform's server passes them on). */
    handle: (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse) => {
      const original = req.url ?? '/';
      const path = original.slice(mountPath.length) || '/';
      req.originalUrl = original;
      req.url = path;
      serve(req, res, path.split('?')[0] as string).catch((error: Error) => {
        if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`Prijava pri lokalnem ponudniku ni uspela: ${error.message}`);
      });
    },
  };
};
