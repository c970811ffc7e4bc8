import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { IdAllocator } from '../../infrastructure/ids/id-allocator.port.ts';
import type { ReadDb } from '../../projections/organisation/organisation.queries.ts';

/** What the organisation slices need, wired by the composition root. */
export type OrganisationDeps = {
  readonly store: EventStore;
  readonly ids: IdAllocator;
  readonly db: ReadDb;
  /**
   * Waits (bounded) until the organisation read model has every event stored so far. A caller that
   * creates a company and names it in a unit a moment later, without sending X-Min-Position, must not
   * be told the company does not exist because the projection is a few milliseconds behind.
   */
  readonly catchUp?: () => Promise<void>;
};
