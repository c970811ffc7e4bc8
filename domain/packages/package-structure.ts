/**
 * What a SCORM or cmi5 package holds, read from its manifest (issue 35): the standard and version it
 * follows and the launchable items (a SCORM SCO, a cmi5 AU) in the order the manifest lists them.
 * The zip itself is checked and unpacked in infrastructure/packages/package-zip.ts; the manifest is
 * read in package-manifest.ts.
 */
export type PackageStandard = 'scorm12' | 'scorm2004' | 'cmi5';

/** cmi5 moveOn (cmi5 spec §13.1.4): what satisfies an AU. */
export const MOVE_ON = ['Passed', 'Completed', 'CompletedAndPassed', 'CompletedOrPassed', 'NotApplicable'] as const;
export type MoveOn = (typeof MOVE_ON)[number];

export type PackageItem = {
  /** The manifest's identifier of the item (SCORM item identifier; cmi5 AU id, an IRI). */
  readonly id: string;
  readonly title: string;
  /** The file to launch, relative to the package root, with any query the manifest adds (parameters). */
  readonly launch: string;
  /** SCORM 1.2 adlcp:masteryscore (0-100), SCORM 2004 imsss minNormalizedMeasure (0-1 -> 0-100), cmi5 masteryScore (0-1 -> 0-100); null: none. */
  readonly masteryScore: number | null;
  /** cmi5 only: what satisfies the AU; null for SCORM. */
  readonly moveOn: MoveOn | null;
  /** cmi5 only: the AU's launchParameters; null for SCORM or none. */
  readonly launchParameters: string | null;
};

export type PackageStructure = {
  readonly standard: PackageStandard;
  /** '1.2', '2004 3rd Edition', '2004 4th Edition' or '1.0' (cmi5). */
  readonly version: string;
  readonly title: string;
  /** cmi5: the course id (an IRI); SCORM: the manifest identifier. */
  readonly identifier: string;
  /** At least one. */
  readonly items: readonly PackageItem[];
};

/** A package's files: path inside the package (forward slashes, no leading slash, no `..`) -> bytes. */
export type PackageFiles = ReadonlyMap<string, Buffer>;

/** Limits on what a zip may unpack to (zip bombs): total bytes, number of entries, compression ratio per entry. */
export type PackageLimits = { readonly maxTotalBytes: number; readonly maxEntries: number; readonly maxRatio: number };
