import type { FeatureFlags } from '../../domain/shared/features.ts';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { IdAllocator } from '../../infrastructure/ids/id-allocator.port.ts';
import type { PackageStore } from '../../infrastructure/packages/package-store.port.ts';
import type { CourseReadDb } from '../../projections/courses/courses.queries.ts';

export type CoursesDeps = {
  readonly store: EventStore;
  readonly ids: IdAllocator;
  readonly db: CourseReadDb;
  readonly now: () => Date;
  readonly features: FeatureFlags;
  /** Stored SCORM/cmi5 packages (issue 35): a package block takes its standard and items from its package. Absent: no package blocks. */
  readonly packages?: Pick<PackageStore, 'describe'>;
};
