import { createHash, randomBytes, randomInt } from 'node:crypto';

/**
 * The secrets of the identity flows: a link token `<userId>.<secret>` (the user's stream is found
 * from it, only the SHA-256 of the secret is kept), and a 6-digit second-factor code hashed with its
 * challenge (so equal codes of two challenges differ).
 */
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('base64url');

export const newLinkToken = (userId: number) => {
  const secret = randomBytes(32).toString('base64url');
  return { token: `${userId}.${secret}`, tokenHash: hashSecret(secret) };
};

export const parseLinkToken = (token: string) => {
  const match = /^(\d{1,10})\.([A-Za-z0-9_-]{32,128})$/.exec(token.trim());
  return match ? { userId: Number(match[1]), tokenHash: hashSecret(match[2] as string) } : null;
};

export const newSecondFactorCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

export const hashSecondFactorCode = (challengeId: string, code: string) => hashSecret(`${challengeId}:${code.trim()}`);

/** How long each secret lives (spec §8 "invalid or expired token" after that). */
export const SECRET_TTL_SECONDS = {
  emailConfirmation: 7 * 24 * 3600,
  passwordReset: 3600,
  passwordSetup: 14 * 24 * 3600,
  emailChange: 24 * 3600,
  secondFactorCode: 10 * 60,
  trustedDevice: 30 * 24 * 3600,
} as const;
