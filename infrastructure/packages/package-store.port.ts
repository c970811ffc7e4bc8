import type { PackageLaunch, PackageLaunches } from '../../domain/packages/package-launch.ts';
import type { PackageFiles, PackageStructure } from '../../domain/packages/package-structure.ts';

/** A stored package as the editor and the player see it (no bytes). */
export type StoredPackage = {
  readonly id: number;
  readonly structure: PackageStructure;
  readonly entries: number;
  readonly unpackedBytes: number;
  readonly size: number;
  readonly createdBy: number | null;
};

/** SCORM and cmi5 packages (issue 35): stored once, never changed; a block names one by id. */
export type PackageStore = {
  /** Stores the zip as it came and every file in it through the file store; one package row names them. */
  save(input: { name: string; zip: Buffer; files: PackageFiles; structure: PackageStructure; createdBy: number | null }): Promise<StoredPackage>;
  describe(id: number): Promise<StoredPackage | null>;
  /** Who uploaded each of these packages (reference checks, decision 0047). */
  owners(ids: readonly number[]): Promise<readonly { id: number; createdBy: number | null }[]>;
  /** One file of a package, or null when the package has no such path. */
  file(packageId: number, path: string): Promise<{ contentType: string; bytes: Buffer } | null>;
};

/** A zip checked entry by entry (paths, links, bombs) and unpacked, at most `maxTotalBytes` in all; refused with a DomainError naming what is wrong. */
export type PackageUnpacker = (zip: Buffer, maxTotalBytes: number) => Promise<PackageFiles>;

export type NewLaunch = Omit<PackageLaunch, 'registration' | 'sessionId' | 'createdAt' | 'expiresAt'> & {
  /** The registration stays the participant's for the block across launches (cmi5 §9.1: one per enrollment in the course). */
  readonly registration?: string;
};

export type PackageLaunchStore = PackageLaunches & {
  /** A new launch and its tokens; only their hashes are kept, so the tokens are shown this once. */
  create(input: NewLaunch, now: Date): Promise<{ launch: PackageLaunch; contentToken: string; fetchToken: string }>;
  /** A launch by its registration (the player names it in each SCORM commit), expired or not. */
  byRegistration(registration: string): Promise<PackageLaunch | null>;
  /** The registration an earlier launch of this block item used, to keep it across launches. */
  registrationOf(userId: number, courseId: number, blockId: number, itemId: string): Promise<string | null>;
};
