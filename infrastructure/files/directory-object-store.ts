import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { ObjectStore } from './object-store.port.ts';

/**
 * The local object store: a directory, one file per key, written to a temporary name and renamed
 * so a reader never sees half an object. Used by the demo and the tests in place of S3 (no S3 is
 * reachable from these machines; decision 0016).
 */
export const createDirectoryObjectStore = (root: string): ObjectStore => {
  const base = resolve(root);
  const pathOf = (key: string) => {
    if (!/^[a-z0-9/_-]+$/i.test(key) || key.includes('..')) throw new Error('invalid object key');
    return join(base, key);
  };
  return {
    put: async (key, bytes) => {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(temporary, bytes);
      await rename(temporary, path);
    },
    get: async (key) => {
      try {
        return await readFile(pathOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    remove: async (key) => rm(pathOf(key), { force: true }),
  };
};
