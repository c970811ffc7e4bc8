import { createHash } from 'node:crypto';
import type { Hasher } from '../../domain/consents/consent-chain.ts';

/** SHA-256 in hex: the hash of the consent chain (domain/consents/consent-chain.ts). */
export const sha256: Hasher = (text) => createHash('sha256').update(text, 'utf8').digest('hex');
