import { packageError } from './manifest-xml.ts';
import type { PackageFiles } from './package-structure.ts';

/**
 * Where a manifest says an item is launched from, resolved against the package the way a browser
 * resolves it against the package's folder on the content origin: the platform serves only the
 * package's own files, so a reference with a scheme (http:, javascript:, //host) or one that climbs
 * out of the package (`..` past the root, a leading slash, a drive letter) is refused. Dot segments
 * are resolved after percent-decoding, as browsers treat `%2e%2e` as `..`.
 */
export type LaunchResolution =
  /** `launch`: the reference as written with dot segments resolved, query and fragment kept; `file`: the decoded package path it loads. */
  | { readonly kind: 'inside'; readonly launch: string; readonly file: string }
  | { readonly kind: 'external' }
  | { readonly kind: 'outside' }
  /** Not a usable path (empty, a folder, broken percent-encoding). */
  | { readonly kind: 'invalid' };

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const DRIVE = /^[a-z]:/i;

/** A scheme, a drive letter (which the scheme pattern also matches) or a leading slash. */
const isAbsolute = (reference: string) => reference.startsWith('/') || SCHEME.test(reference);

/**
 * Joins xml:base values and an href, outermost first (manifest, resources, resource, href). A part
 * that is itself absolute starts over, as in URL resolution; relative parts are joined with one
 * slash (a base written without its trailing slash still means a folder, as LMSs read it).
 */
export const joinReference = (parts: readonly (string | undefined)[]): string => {
  let joined = '';
  for (const raw of parts) {
    const part = (raw ?? '').trim().replaceAll('\\', '/');
    if (part === '') continue;
    if (isAbsolute(part) || joined === '') joined = part;
    else joined = joined.endsWith('/') ? joined + part : `${joined}/${part}`;
  }
  return joined;
};

/**
 * SCORM's rule for an item's `parameters` (CAM, "parameters"): leading `?` and `&` are dropped; a
 * fragment (`#...`) is added only when the href has none; otherwise the query is added with `&` when
 * the href already has one, with `?` when not, and before the href's fragment.
 */
export const addParameters = (href: string, parameters: string | undefined): string => {
  const given = (parameters ?? '').trim();
  if (given === '') return href;
  if (given.startsWith('#')) return href.includes('#') ? href : href + given;
  const query = given.replace(/^[?&]+/, '');
  if (query === '') return href;
  const hash = href.indexOf('#');
  const [base, fragment] = hash === -1 ? [href, ''] : [href.slice(0, hash), href.slice(hash)];
  return `${base}${base.includes('?') ? '&' : '?'}${query}${fragment}`;
};

export const resolveLaunch = (reference: string): LaunchResolution => {
  const written = reference.trim().replaceAll('\\', '/');
  if (written.startsWith('//') || (SCHEME.test(written) && !DRIVE.test(written))) return { kind: 'external' };
  if (written.startsWith('/') || DRIVE.test(written)) return { kind: 'outside' };
  const end = written.search(/[?#]/);
  const path = end === -1 ? written : written.slice(0, end);
  const suffix = end === -1 ? '' : written.slice(end);
  const encoded: string[] = [];
  const decoded: string[] = [];
  const segments = path.split('/');
  for (const [index, segment] of segments.entries()) {
    let plain: string;
    try {
      plain = decodeURIComponent(segment);
    } catch {
      return { kind: 'invalid' };
    }
    if (plain === '..') {
      if (decoded.length === 0) return { kind: 'outside' };
      decoded.pop();
      encoded.pop();
    } else if (plain === '' || plain === '.') {
      // A trailing empty or dot segment names a folder, which cannot be launched.
      if (index === segments.length - 1) return { kind: 'invalid' };
    } else if (/[/\\\0]/.test(plain)) {
      // An encoded separator or NUL would make the decoded path mean something else than the URL.
      return { kind: 'outside' };
    } else {
      decoded.push(plain);
      encoded.push(segment);
    }
  }
  if (decoded.length === 0) return { kind: 'invalid' };
  return { kind: 'inside', launch: encoded.join('/') + suffix, file: decoded.join('/') };
};

/**
 * The launch of an item whose file is in the package, or the refusal naming the item: the item's
 * title and what its manifest says it is launched from.
 */
export const launchInPackage = (title: string, reference: string, files: PackageFiles): string => {
  const resolved = resolveLaunch(reference);
  switch (resolved.kind) {
    case 'external':
      throw packageError(`Enota »${title}« se zaganja z zunanjega naslova (${reference}); podprte so le enote v paketu.`);
    case 'outside':
      throw packageError(`Enota »${title}« se zaganja s poti zunaj paketa: ${reference}.`);
    case 'invalid':
      throw packageError(`Datoteka za zagon enote »${title}« (${reference || 'prazna pot'}) ni v paketu.`);
    case 'inside':
      if (!files.has(resolved.file)) throw packageError(`Datoteka za zagon enote »${title}« (${resolved.file}) ni v paketu.`);
      return resolved.launch;
  }
};
