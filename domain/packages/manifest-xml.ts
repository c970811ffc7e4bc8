import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { DomainError } from '../shared/domain-error.ts';

/**
 * The XML of a package manifest (imsmanifest.xml, cmi5.xml) as a small element tree. Manifests come
 * from outside (an agency's authoring tool, or anyone who can upload), so:
 * - a DOCTYPE or ENTITY declaration is refused outright: with none, no entity can be defined, so no
 *   entity expansion ("billion laughs") or external entity (XXE) is possible;
 * - the parser expands no entities itself (`processEntities: false`); the five predefined ones and
 *   character references are decoded here, in text and attributes only (never in CDATA);
 * - namespace prefixes are dropped, since packages spell them as they like (adlcp:, imsss:, none),
 *   so elements and attributes are matched by their local names.
 */
export type XmlElement = {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly XmlElement[];
  /** The element's own text and CDATA, untrimmed. */
  readonly text: string;
};

/** Every refusal of a package is a 400 on the upload's `file` field. */
export const packageError = (message: string) => new DomainError('400', message, { status: 400, field: 'file' });

/** Deeper than any real manifest; bounds the parser and the tree walk below (no stack overflow). */
const MAX_DEPTH = 64;
const CDATA = '#cdata';
const TEXT = '#text';
const ATTRIBUTES = ':@';

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  cdataPropName: CDATA,
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: MAX_DEPTH,
});

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** The predefined entities and character references; anything else stays as written. */
export const decodeXmlText = (value: string): string =>
  value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return PREDEFINED[ref] ?? whole;
  });

/** Text of a manifest file: UTF-8 (with or without a byte order mark) or UTF-16 with one. */
export const decodeXmlBytes = (bytes: Buffer): string => {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return Buffer.from(bytes.subarray(2)).swap16().toString('utf16le');
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
};

type RawNode = Record<string, unknown>;

const tooDeep = (fileName: string) => packageError(`Datoteka ${fileName} je pregloboko gnezdena.`);

const toElements = (nodes: unknown, depth: number, fileName: string): { elements: XmlElement[]; text: string } => {
  if (depth > MAX_DEPTH) throw tooDeep(fileName);
  const elements: XmlElement[] = [];
  let text = '';
  for (const node of Array.isArray(nodes) ? (nodes as RawNode[]) : []) {
    for (const [key, value] of Object.entries(node)) {
      if (key === ATTRIBUTES) continue;
      if (key === TEXT) text += decodeXmlText(String(value));
      // CDATA is literal: its text is taken as written, never decoded.
      else if (key === CDATA) text += (Array.isArray(value) ? (value as RawNode[]) : []).map((part) => String(part[TEXT] ?? '')).join('');
      else if (!key.startsWith('?') && !key.startsWith('#')) {
        const raw = (node[ATTRIBUTES] ?? {}) as Record<string, unknown>;
        const attributes = Object.fromEntries(Object.entries(raw).map(([name, v]) => [name, decodeXmlText(String(v))]));
        const inner = toElements(value, depth + 1, fileName);
        elements.push({ name: key, attributes, children: inner.elements, text: inner.text });
      }
    }
  }
  return { elements, text };
};

/** The root element of a manifest's text (decodeXmlBytes), or a refusal naming the file. */
export const parseManifestXml = (fileName: string, xml: string): XmlElement => {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw packageError(`Datoteka ${fileName} vsebuje deklaracijo DOCTYPE ali ENTITY, ki ni dovoljena.`);
  const invalid = `Datoteka ${fileName} ni veljaven XML.`;
  const verdict = XMLValidator.validate(xml);
  if (verdict !== true) throw packageError(`Datoteka ${fileName} ni veljaven XML (vrstica ${verdict.err.line}: ${verdict.err.msg}).`);
  let parsed: unknown;
  try {
    parsed = parser.parse(xml);
  } catch (error) {
    throw error instanceof Error && /nested/i.test(error.message) ? tooDeep(fileName) : packageError(invalid);
  }
  const [root] = toElements(parsed, 0, fileName).elements;
  if (!root) throw packageError(invalid);
  return root;
};

export const childNamed = (element: XmlElement, name: string): XmlElement | undefined => element.children.find((c) => c.name === name);
export const childrenNamed = (element: XmlElement, name: string): XmlElement[] => element.children.filter((c) => c.name === name);
/** An attribute by its local name, in any letter case (SCORM 1.2 writes scormtype, 2004 scormType). */
export const attributeOf = (element: XmlElement, name: string): string | undefined => {
  const lower = name.toLowerCase();
  const key = Object.keys(element.attributes).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : element.attributes[key];
};
export const textOf = (element: XmlElement | undefined): string => (element?.text ?? '').trim();
