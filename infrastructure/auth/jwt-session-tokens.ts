import { errors, jwtVerify, SignJWT } from 'jose';
import { formatPosition, parsePosition } from '../event-store/event-store.port.ts';
import type { SessionClaims, SessionTokens } from './tokens.port.ts';

const ISSUER = 'medilearn';

/** How many verified tokens a process remembers (about 300 bytes each). */
const VERIFIED_CACHE_SIZE = 10_000;

/**
 * HS256 JWTs: `sub` user, `sid` session, `act.sub` the real admin (RFC 8693), `pos` session start.
 *
 * A token verified once is remembered until it expires: the same string always verifies to the same
 * claims, and jose's verification (base64, JSON, an HMAC through WebCrypto) was about a tenth of a
 * participant read's CPU (docs/benchmarks.md, course reads). Only tokens that passed verification are
 * kept, so a forged or altered token never matches; revocation is not the token's business (the
 * session is checked on every request, decision 0039).
 */
export const createJwtSessionTokens = (options: { secret: string; ttlSeconds: number; now?: () => number }): SessionTokens => {
  const key = new TextEncoder().encode(options.secret);
  const now = options.now ?? Date.now;
  const verified = new Map<string, { claims: SessionClaims; expiresAtMs: number }>();
  const remember = (token: string, claims: SessionClaims, exp: number | undefined) => {
    if (exp === undefined) return;
    if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value as string);
    verified.set(token, { claims, expiresAtMs: exp * 1000 });
  };
  return {
    async sign(claims) {
      const jwt = new SignJWT({
        sid: claims.sessionId,
        ...(claims.realUserId !== null ? { act: { sub: String(claims.realUserId) } } : {}),
        ...(claims.position ? { pos: formatPosition(claims.position) } : {}),
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(claims.userId))
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(`${options.ttlSeconds}s`);
      return jwt.sign(key);
    },
    async verify(token) {
      const known = verified.get(token);
      if (known) {
        // jose refuses a token at or after its `exp` second: so does the copy.
        if (now() < known.expiresAtMs) return known.claims;
        verified.delete(token);
        return null;
      }
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, algorithms: ['HS256'], currentDate: new Date(now()) });
        const userId = Number(payload.sub);
        const sessionId = payload.sid;
        if (!Number.isInteger(userId) || userId <= 0 || typeof sessionId !== 'string') return null;
        const act = payload.act as { sub?: unknown } | undefined;
        const realUserId = act && typeof act.sub === 'string' ? Number(act.sub) : null;
        const position = typeof payload.pos === 'string' ? parsePosition(payload.pos) : null;
        const claims: SessionClaims = { userId, sessionId, realUserId: Number.isInteger(realUserId) ? realUserId : null, position };
        remember(token, claims, payload.exp);
        return claims;
      } catch (error) {
        if (error instanceof errors.JOSEError) return null;
        throw error;
      }
    },
  };
};
