import { addParameters, joinReference, launchInPackage } from './launch-path.ts';
import { attributeOf, childNamed, childrenNamed, decodeXmlBytes, packageError, parseManifestXml, textOf, type XmlElement } from './manifest-xml.ts';
import type { PackageFiles, PackageItem, PackageStructure } from './package-structure.ts';

/**
 * A SCORM package's imsmanifest.xml (SCORM 1.2 CAM; SCORM 2004 CAM, 3rd and 4th edition): its
 * version, and the SCOs of its default organization in document order (nested items too). Only SCOs
 * are launchable items: an asset resource does not talk to the runtime, so it cannot complete a block.
 */
export const SCORM_MANIFEST = 'imsmanifest.xml';

type ScormVersion = '1.2' | '2004 3rd Edition' | '2004 4th Edition';

const SUPPORTED = 'podprti sta 1.2 in 2004, 3. in 4. izdaja';

const versionOf = (manifest: XmlElement, source: string): ScormVersion => {
  const metadata = childNamed(manifest, 'metadata');
  const given = (metadata ? textOf(childNamed(metadata, 'schemaversion')) : '').replace(/\s+/g, ' ');
  switch (given.toLowerCase()) {
    case '1.2':
      return '1.2';
    // Some 2004 tools write the version of the CAM book ("CAM 1.3") instead of the edition; it is read as the 3rd edition.
    case '2004 3rd edition':
    case 'cam 1.3':
      return '2004 3rd Edition';
    case '2004 4th edition':
      return '2004 4th Edition';
    case '':
      // SCORM 1.2 made the metadata optional; its binding namespace names the version.
      if (source.includes('adlcp_rootv1p2')) return '1.2';
      throw packageError(`Različica SCORM v datoteki imsmanifest.xml ni navedena (${SUPPORTED}).`);
    default:
      throw packageError(`Različica SCORM »${given}« ni podprta (${SUPPORTED}).`);
  }
};

/** 0-100 from SCORM 1.2 adlcp:masteryscore; anything else (missing, not a number, out of range) is no mastery score. */
const masteryScore12 = (item: XmlElement): number | null => {
  const text = textOf(childNamed(item, 'masteryscore'));
  const value = text === '' ? Number.NaN : Number(text);
  return Number.isFinite(value) && value >= 0 && value <= 100 ? value : null;
};

/**
 * 0-100 from SCORM 2004 sequencing: the primary objective satisfied by measure, at its minimum
 * normalized measure (0..1; IMS SS gives 1.0 when the element is left out).
 */
const masteryScore2004 = (item: XmlElement): number | null => {
  const sequencing = childNamed(item, 'sequencing');
  const objectives = sequencing && childNamed(sequencing, 'objectives');
  const primary = objectives && childNamed(objectives, 'primaryObjective');
  if (!primary || attributeOf(primary, 'satisfiedByMeasure')?.trim() !== 'true') return null;
  const text = textOf(childNamed(primary, 'minNormalizedMeasure'));
  const measure = text === '' ? 1 : Number(text);
  // The float product (0.7 * 100 = 70.00000000000001) is rounded back to what the manifest meant.
  return Number.isFinite(measure) && measure >= 0 && measure <= 1 ? Math.round(measure * 100 * 1e6) / 1e6 : null;
};

const defaultOrganization = (manifest: XmlElement): XmlElement | undefined => {
  const organizations = childNamed(manifest, 'organizations');
  if (!organizations) return undefined;
  const all = childrenNamed(organizations, 'organization');
  const wanted = attributeOf(organizations, 'default')?.trim();
  return all.find((o) => attributeOf(o, 'identifier') === wanted) ?? all[0];
};

const itemsInOrder = (parent: XmlElement): XmlElement[] => childrenNamed(parent, 'item').flatMap((item) => [item, ...itemsInOrder(item)]);

export const readScormManifest = (bytes: Buffer, files: PackageFiles): PackageStructure => {
  const source = decodeXmlBytes(bytes);
  const manifest = parseManifestXml(SCORM_MANIFEST, source);
  if (manifest.name !== 'manifest') throw packageError(`Datoteka imsmanifest.xml ni manifest SCORM (korenski element je »${manifest.name}«).`);
  const version = versionOf(manifest, source);
  const identifier = attributeOf(manifest, 'identifier')?.trim() ?? '';
  const resourcesElement = childNamed(manifest, 'resources');
  const resources = new Map((resourcesElement ? childrenNamed(resourcesElement, 'resource') : []).map((r) => [attributeOf(r, 'identifier')?.trim(), r]));
  const organization = defaultOrganization(manifest);
  const items: PackageItem[] = [];
  for (const item of organization ? itemsInOrder(organization) : []) {
    const resource = resources.get(attributeOf(item, 'identifierref')?.trim());
    const href = resource && attributeOf(resource, 'href');
    if (!resource || attributeOf(resource, 'scormType')?.trim().toLowerCase() !== 'sco' || !href?.trim()) continue;
    const id = attributeOf(item, 'identifier')?.trim() || (attributeOf(item, 'identifierref')?.trim() ?? '');
    const title = textOf(childNamed(item, 'title')) || id;
    const reference = addParameters(
      joinReference([attributeOf(manifest, 'base'), resourcesElement && attributeOf(resourcesElement, 'base'), attributeOf(resource, 'base'), href]),
      attributeOf(item, 'parameters'),
    );
    items.push({
      id,
      title,
      launch: launchInPackage(title, reference, files),
      masteryScore: version === '1.2' ? masteryScore12(item) : masteryScore2004(item),
      moveOn: null,
      launchParameters: null,
    });
  }
  return {
    standard: version === '1.2' ? 'scorm12' : 'scorm2004',
    version,
    title: (organization && textOf(childNamed(organization, 'title'))) || identifier || 'Paket SCORM',
    identifier,
    items,
  };
};
