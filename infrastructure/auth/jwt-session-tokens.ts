import { errors, jwtVerify, SignJWT } from 'jose';
import { formatPosition, parsePosition } from '../event-store/event-store.port.ts';
import type { SessionTokens } from './tokens.port.ts';

const ISSUER = 'medilearn';

/** HS256 JWTs: `sub` user, `sid` session, `act.sub` the real admin (RFC 8693), `pos` session start. */
export const createJwtSessionTokens = (options: { secret: string; ttlSeconds: number }): SessionTokens => {
  const key = new TextEncoder().encode(options.secret);
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
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, algorithms: ['HS256'] });
        const userId = Number(payload.sub);
        const sessionId = payload.sid;
        if (!Number.isInteger(userId) || userId <= 0 || typeof sessionId !== 'string') return null;
        const act = payload.act as { sub?: unknown } | undefined;
        const realUserId = act && typeof act.sub === 'string' ? Number(act.sub) : null;
        const position = typeof payload.pos === 'string' ? parsePosition(payload.pos) : null;
        return { userId, sessionId, realUserId: Number.isInteger(realUserId) ? realUserId : null, position };
      } catch (error) {
        if (error instanceof errors.JOSEError) return null;
        throw error;
      }
    },
  };
};
