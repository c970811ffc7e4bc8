import { createHash, randomInt } from 'node:crypto';

/**
 * The second factor's code of an electronic signature (issue 36, decision 0063): six digits by mail,
 * kept only as a hash bound to its challenge (equal codes of two challenges differ), living as long
 * as a login's code. The identity mail job seals and sends it like a login's.
 */
export const SIGNATURE_CODE_TTL_SECONDS = 10 * 60;

export const newSignatureCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

export const hashSignatureCode = (challengeId: string, code: string) =>
  createHash('sha256').update(`signature:${challengeId}:${code.trim()}`).digest('base64url');
