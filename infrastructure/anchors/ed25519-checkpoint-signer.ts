import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CheckpointSigner } from './consent-proof.port.ts';

/**
 * The consent key (decision 0052): Ed25519, read at start from `CONSENT_SIGNING_KEY` (PKCS#8 PEM)
 * or from a file (default `DATA_DIR/keys/consent-signing.pem`, made on the first start, readable by
 * the platform's user only). Never in PostgreSQL: someone with the database cannot sign a checkpoint.
 */
export const loadCheckpointSigner = async (options: { pem: string | null; file: string }): Promise<CheckpointSigner> => {
  let pem = options.pem;
  if (!pem) {
    pem = await readFile(options.file, 'utf8').catch(() => null);
    if (!pem) {
      const { privateKey } = generateKeyPairSync('ed25519');
      pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      await mkdir(dirname(options.file), { recursive: true, mode: 0o700 });
      await writeFile(options.file, pem, { mode: 0o600, flag: 'wx' }).catch(async () => {
        // Another process made it first: take that one.
        pem = await readFile(options.file, 'utf8');
      });
    }
  }
  const key = createPrivateKey(pem as string);
  const publicKey = createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString();
  return {
    publicKey,
    sign: (text) => sign(null, Buffer.from(text, 'utf8'), key).toString('base64'),
    verify: (text, signature, pub) => {
      try {
        return verify(null, Buffer.from(text, 'utf8'), createPublicKey(pub), Buffer.from(signature, 'base64'));
      } catch {
        return false;
      }
    },
  };
};
