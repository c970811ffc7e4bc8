import { errors, jwtVerify, SignJWT } from 'jose';
import type { PurposeTokens } from './purpose-tokens.port.ts';

const ISSUER = 'medilearn';

/** HS256 JWTs whose audience is their purpose; a session token has no audience and no purpose token has a session id. */
export const createJwtPurposeTokens = (secret: string): PurposeTokens => {
  const key = new TextEncoder().encode(`${secret}:purpose`);
  return {
    sign: (purpose, payload, ttlSeconds) =>
      new SignJWT({ ...payload })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setAudience(purpose)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(key),
    verify: async (purpose, token) => {
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience: purpose, algorithms: ['HS256'] });
        return payload as Record<string, unknown>;
      } catch (error) {
        if (error instanceof errors.JOSEError) return null;
        throw error;
      }
    },
  };
};
