import { CMI5_MANIFEST, readCmi5Manifest } from './cmi5-manifest.ts';
import { packageError } from './manifest-xml.ts';
import type { PackageFiles, PackageStructure } from './package-structure.ts';
import { readScormManifest, SCORM_MANIFEST } from './scorm-manifest.ts';

/**
 * What a package is, recognised by its content rather than by what the uploader says: an
 * imsmanifest.xml at the root makes it SCORM, a cmi5.xml at the root cmi5 (issue 35). The manifest
 * is read and checked (scorm-manifest.ts, cmi5-manifest.ts): every item it names can be launched
 * from a file in the package. Every refusal is a DomainError 400 on `file` whose Slovenian message
 * names what is wrong.
 */

/** A root file by name in any letter case (authoring tools on Windows write IMSManifest.xml). */
const rootFile = (files: PackageFiles, name: string): Buffer | undefined => {
  const exact = files.get(name);
  if (exact) return exact;
  for (const [path, bytes] of files) if (path.toLowerCase() === name) return bytes;
  return undefined;
};

/** Where a manifest sits one or more folders down: the usual mistake of zipping the folder instead of its content. */
const nestedManifest = (files: PackageFiles): string | undefined =>
  [...files.keys()].find((path) => path.includes('/') && [SCORM_MANIFEST, CMI5_MANIFEST].includes(path.slice(path.lastIndexOf('/') + 1).toLowerCase()));

export const readPackageManifest = (files: PackageFiles): PackageStructure => {
  const scorm = rootFile(files, SCORM_MANIFEST);
  const cmi5 = rootFile(files, CMI5_MANIFEST);
  if (scorm && cmi5) throw packageError('Paket ima obe datoteki, imsmanifest.xml (SCORM) in cmi5.xml (cmi5); naložite paket le enega standarda.');
  if (!scorm && !cmi5) {
    const nested = nestedManifest(files);
    throw packageError(
      nested
        ? `Paket nima datoteke imsmanifest.xml (SCORM) ali cmi5.xml (cmi5) v korenu, temveč v mapi: ${nested}. Zapakirajte vsebino te mape.`
        : 'Paket nima datoteke imsmanifest.xml (SCORM) ali cmi5.xml (cmi5).',
    );
  }
  const structure = scorm ? readScormManifest(scorm, files) : readCmi5Manifest(cmi5 as Buffer, files);
  if (structure.items.length === 0) throw packageError('Paket nima nobene enote za zagon (SCO/AU).');
  const seen = new Set<string>();
  for (const item of structure.items) {
    // Launches and records are keyed by the item's id, so two items with one id would share them.
    if (seen.has(item.id)) throw packageError(`Paket ima več enot z istim identifikatorjem: ${item.id}.`);
    seen.add(item.id);
  }
  return structure;
};
