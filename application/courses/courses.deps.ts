import type { FeatureFlags } from '../../domain/shared/features.ts';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { IdAllocator } from '../../infrastructure/ids/id-allocator.port.ts';
import type { CourseReadDb } from '../../projections/courses/courses.queries.ts';

export type CoursesDeps = {
  readonly store: EventStore;
  readonly ids: IdAllocator;
  readonly db: CourseReadDb;
  readonly now: () => Date;
  readonly features: FeatureFlags;
};
