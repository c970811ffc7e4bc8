import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { SecretSealer } from './secret-sealer.port.ts';

/** AES-256-GCM with a key derived (HKDF-SHA256) from the platform secret; `v1.<iv>.<tag>.<ciphertext>` in base64url. */
export const createAesSecretSealer = (platformSecret: string): SecretSealer => {
  const key = Buffer.from(hkdfSync('sha256', platformSecret, 'medilearn', 'sealed-secrets-v1', 32));
  return {
    seal: (secret) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    unseal: (sealed) => {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
};
