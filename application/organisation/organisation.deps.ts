import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { IdAllocator } from '../../infrastructure/ids/id-allocator.port.ts';
import type { ReadDb } from '../../projections/organisation/organisation.queries.ts';

/** What the organisation slices need, wired by the composition root. */
export type OrganisationDeps = {
  readonly store: EventStore;
  readonly ids: IdAllocator;
  readonly db: ReadDb;
};
