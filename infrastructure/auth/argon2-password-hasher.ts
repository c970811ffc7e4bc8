import { hash, verify } from '@node-rs/argon2';
import type { PasswordHasher } from './password-hasher.port.ts';

// OWASP's argon2id baseline: 19 MiB memory, 2 iterations, 1 lane (about 100 ms per hash here).
// algorithm 2 = Argon2id (the package's const enum cannot be imported under verbatimModuleSyntax).
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const createArgon2PasswordHasher = async (): Promise<PasswordHasher> => {
  const decoyHash = await hash('decoy-password-never-used', OPTIONS);
  return {
    hash: (password) => hash(password, OPTIONS),
    verify: async (stored, password) => {
      try {
        return await verify(stored, password);
      } catch {
        return false;
      }
    },
    decoyHash,
  };
};
