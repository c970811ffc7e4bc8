import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { PackageLaunch } from '../../domain/packages/package-launch.ts';
import type { Subject } from '../../domain/permissions/can.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { commandMetadata, unauthorized } from '../../infrastructure/http/http.port.ts';
import type { LrsDeps } from './lrs.ts';

/**
 * Who calls the LRS, by the Authorization header:
 * - `Basic <auth token>`: an AU, with the token its launch's fetch URL gave it (cmi5 §8.2); it reaches that launch only;
 * - `Basic base64(key:secret)`: the outside client (`LRS_CLIENT_KEY`, `LRS_CLIENT_SECRET`);
 * - `JWT <session>`: a signed-in person (a report reader, for reading).
 */
export type LrsCaller =
  | { readonly kind: 'launch'; readonly launch: PackageLaunch }
  | { readonly kind: 'client'; readonly key: string }
  | { readonly kind: 'reader'; readonly subject: Subject; readonly userId: number };

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const isClient = (deps: Pick<LrsDeps, 'lrsClient'>, credential: string) => {
  if (!deps.lrsClient) return false;
  const decoded = Buffer.from(credential, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  // Both compared whatever the first gives, so the time taken tells nothing of which was wrong.
  const key = sameText(decoded.slice(0, colon), deps.lrsClient.key);
  const secret = sameText(decoded.slice(colon + 1), deps.lrsClient.secret);
  return key && secret;
};

const tokenRefused = () => new DomainError('401', 'Žeton za LRS je neveljaven ali je potekel.', { status: 401 });

export const callerOf = async (deps: Pick<LrsDeps, 'lrsClient' | 'packageLaunches'>, request: FastifyRequest): Promise<LrsCaller> => {
  const header = request.headers.authorization?.trim() ?? '';
  const basic = /^Basic\s+(\S{1,512})$/i.exec(header);
  if (basic) {
    const credential = basic[1] as string;
    if (isClient(deps, credential)) return { kind: 'client', key: (deps.lrsClient as { key: string }).key };
    const launch = await deps.packageLaunches.byAuthToken(credential);
    if (launch && launch.standard === 'cmi5') return { kind: 'launch', launch };
    throw tokenRefused();
  }
  // The route is public to the app's authentication, which still reads a session token: a signed-in person.
  if (request.auth) {
    if (request.auth.missingConsents.length > 0) {
      throw new DomainError('422086', 'Za uporabo platforme potrebujemo vaše privolitve. Preberite in potrdite pogoje uporabe.', { status: 403 });
    }
    return { kind: 'reader', subject: request.auth.subject, userId: request.auth.userId };
  }
  throw header ? tokenRefused() : unauthorized();
};

/** Of the callers, those a route takes; the others are refused (403). */
export const callerAmong = <K extends LrsCaller['kind']>(caller: LrsCaller, kinds: readonly K[]): Extract<LrsCaller, { kind: K }> => {
  if (!(kinds as readonly string[]).includes(caller.kind)) throw new DomainError('403', 'Nimate pravic za to dejanje.', { status: 403 });
  return caller as Extract<LrsCaller, { kind: K }>;
};

/** Events an AU causes are the learner's doing. */
export const metadataOf = (request: FastifyRequest, caller: LrsCaller) => ({
  ...commandMetadata(request),
  actorId: caller.kind === 'launch' ? caller.launch.userId : caller.kind === 'reader' ? caller.userId : null,
});
