import { readPackageManifest } from '../../domain/packages/package-manifest.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { StoredPackage } from '../../infrastructure/packages/package-store.port.ts';
import type { PackagesDeps } from './packages.deps.ts';

const MB = 1024 * 1024;

/**
 * An uploaded SCORM or cmi5 package (issue 35 item 1): the zip checked entry by entry (paths,
 * links, bombs), recognised by its manifest and validated, then stored, the zip and every file in
 * it. Anything wrong is refused with what is wrong, and nothing is stored.
 */
export const uploadPackage = async (
  deps: Pick<PackagesDeps, 'packages' | 'settings' | 'unpackPackage'>,
  input: { name: string; zip: Buffer; createdBy: number },
): Promise<StoredPackage> => {
  const max = deps.settings.packages.maxBytes;
  if (input.zip.length > max) throw new DomainError('413', `Paket je prevelik (največ ${Math.floor(max / MB)} MB).`, { status: 413, field: 'file' });
  // Unpacked, a package may hold at most five times its limit, however well it compresses.
  const files = await deps.unpackPackage(input.zip, max * 5);
  const structure = readPackageManifest(files);
  return deps.packages.save({ name: input.name, zip: input.zip, files, structure, createdBy: input.createdBy });
};
