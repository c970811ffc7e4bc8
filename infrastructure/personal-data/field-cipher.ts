import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * The personal fields of one event, encrypted together with their owner's key (AES-256-GCM):
 * `pd2.<owner>.<iv>.<tag>.<text>` in base64url, the text being the fields as JSON. One cipher per
 * event, not per field: a cipher's setup costs more than its bytes (measured: 9 fields one by one
 * read 8,809 events/s, docs/benchmarks.md). The envelope sits in the first personal field that has a
 * value; the event's other personal fields hold SEALED_ELSEWHERE. The owner travels in the clear so a
 * reader knows whose key opens it; it is already in the stream name or the event.
 */
const PREFIX = 'pd2.';
export const SEALED_ELSEWHERE = 'pd2';

export const encryptFields = (key: Buffer, owner: number, fields: Readonly<Record<string, string>>): string => {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(fields), 'utf8'), cipher.final()]);
  return `${PREFIX}${owner}.${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${body.toString('base64url')}`;
};

/** The owner an envelope names, or null when the value is not one (a plain value from before encryption). */
export const envelopeOwner = (value: string): number | null => {
  if (!value.startsWith(PREFIX)) return null;
  const owner = Number(value.slice(PREFIX.length, value.indexOf('.', PREFIX.length)));
  return Number.isInteger(owner) && owner > 0 ? owner : null;
};

/** The fields, or null when the key does not open the envelope (not one after all, or altered). */
export const decryptFields = (key: Buffer, value: string): Record<string, string> | null => {
  const [, , iv, tag, body] = value.split('.');
  if (!iv || !tag || body === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const parsed: unknown = JSON.parse(Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, string>) : null;
  } catch {
    return null;
  }
};
