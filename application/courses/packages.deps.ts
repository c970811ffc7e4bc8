import type { PackageLaunch } from '../../domain/packages/package-launch.ts';
import type { PackageLaunchStore, PackageStore, PackageUnpacker } from '../../infrastructure/packages/package-store.port.ts';
import type { CoursesDeps } from './courses.deps.ts';

/** What the packages feature works with: the courses' ports (a package's reports are enrollment steps), its stores, where it is served. */
export type PackagesDeps = Omit<CoursesDeps, 'packages'> & {
  readonly packages: PackageStore;
  readonly packageLaunches: PackageLaunchStore;
  readonly unpackPackage: PackageUnpacker;
  readonly settings: { readonly packages: { readonly maxBytes: number; readonly contentOrigin: string }; readonly publicUrl: string };
  /** cmi5: the LRS prepares a launch (LMS.LaunchData, the "launched" statement) before the AU starts. */
  readonly prepareCmi5Launch: (launch: PackageLaunch, options: { readonly launchUrl: string }) => Promise<unknown>;
};
