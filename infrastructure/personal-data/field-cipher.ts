import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * One personal field encrypted with its owner's key (AES-256-GCM): `pd1.<owner>.<iv>.<tag>.<text>`,
 * base64url. The owner travels in the clear so a reader knows whose key opens it; the owner id is
 * already in the stream name or the event.
 */
const PREFIX = 'pd1.';

export const encryptField = (key: Buffer, owner: number, plain: string): string => {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${PREFIX}${owner}.${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${body.toString('base64url')}`;
};

/** The owner an encrypted field names, or null when the value is not one (a plain value from before encryption). */
export const ownerOfField = (value: string): number | null => {
  if (!value.startsWith(PREFIX)) return null;
  const owner = Number(value.slice(PREFIX.length, value.indexOf('.', PREFIX.length)));
  return Number.isInteger(owner) && owner > 0 ? owner : null;
};

/** The plain text, or null when the key does not open it (not an encrypted field after all, or altered). */
export const decryptField = (key: Buffer, value: string): string | null => {
  const [, , iv, tag, body] = value.split('.');
  if (!iv || !tag || body === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
};
