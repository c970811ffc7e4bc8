import { launchInPackage } from './launch-path.ts';
import { attributeOf, childNamed, childrenNamed, decodeXmlBytes, packageError, parseManifestXml, textOf, type XmlElement } from './manifest-xml.ts';
import { MOVE_ON, type MoveOn, type PackageFiles, type PackageItem, type PackageStructure } from './package-structure.ts';

/**
 * A cmi5 package's course structure (cmi5 spec §13, cmi5.xml): the course and its AUs in document
 * order, also those inside blocks. An AU launched from another site is refused: the platform serves
 * packages from its content origin, and an outside AU would get the launch's LRS token.
 */
export const CMI5_MANIFEST = 'cmi5.xml';

/** A langstring list's text in Slovenian if given, else English, else the first. */
const langstring = (element: XmlElement | undefined): string => {
  const strings = element ? childrenNamed(element, 'langstring').filter((s) => textOf(s) !== '') : [];
  const inLanguage = (language: string) => strings.find((s) => new RegExp(`^${language}(-|$)`, 'i').test(attributeOf(s, 'lang')?.trim() ?? ''));
  return textOf(inLanguage('sl') ?? inLanguage('en') ?? strings[0]);
};

const ausInOrder = (parent: XmlElement): XmlElement[] =>
  parent.children.flatMap((child) => (child.name === 'au' ? [child] : child.name === 'block' ? ausInOrder(child) : []));

const moveOnOf = (au: XmlElement, title: string): MoveOn => {
  const given = attributeOf(au, 'moveOn')?.trim();
  if (given === undefined || given === '') return 'NotApplicable';
  const known = MOVE_ON.find((m) => m === given);
  if (!known) throw packageError(`Enota »${title}« ima neznano pravilo moveOn »${given}« (dovoljena so ${MOVE_ON.join(', ')}).`);
  return known;
};

/** cmi5 masteryScore is 0..1; PackageItem keeps 0-100 like SCORM. */
const masteryScoreOf = (au: XmlElement, title: string): number | null => {
  const given = attributeOf(au, 'masteryScore')?.trim();
  if (given === undefined || given === '') return null;
  const value = Number(given);
  if (!Number.isFinite(value) || value < 0 || value > 1) throw packageError(`Enota »${title}« ima neveljaven masteryScore »${given}« (med 0 in 1).`);
  return Math.round(value * 100 * 1e6) / 1e6;
};

export const readCmi5Manifest = (bytes: Buffer, files: PackageFiles): PackageStructure => {
  const root = parseManifestXml(CMI5_MANIFEST, decodeXmlBytes(bytes));
  if (root.name !== 'courseStructure') throw packageError(`Datoteka cmi5.xml ni opis tečaja cmi5 (korenski element je »${root.name}«).`);
  const course = childNamed(root, 'course');
  const identifier = (course && attributeOf(course, 'id')?.trim()) ?? '';
  if (!course || identifier === '') throw packageError('Datoteka cmi5.xml nima elementa course z atributom id.');
  const items: PackageItem[] = ausInOrder(root).map((au, index) => {
    const id = attributeOf(au, 'id')?.trim() ?? '';
    const title = langstring(childNamed(au, 'title')) || id;
    if (id === '') throw packageError(`Enota (AU) št. ${index + 1}${title ? ` »${title}«` : ''} v datoteki cmi5.xml nima atributa id.`);
    const launchParameters = textOf(childNamed(au, 'launchParameters'));
    return {
      id,
      title,
      launch: launchInPackage(title, textOf(childNamed(au, 'url')), files),
      masteryScore: masteryScoreOf(au, title),
      moveOn: moveOnOf(au, title),
      launchParameters: launchParameters === '' ? null : launchParameters,
    };
  });
  return { standard: 'cmi5', version: '1.0', title: langstring(childNamed(course, 'title')) || identifier, identifier, items };
};
