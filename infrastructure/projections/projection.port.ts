import type { DatabaseTransactionConnection, IdentifierSqlToken, QuerySqlToken } from 'slonik';
import type { RecordedEvent } from '../event-store/event-store.port.ts';

/**
 * A read model: the tables it owns, the events it handles and how a batch of them changes the
 * tables. Tables are created per generation in schema `rm_<name>_<generation>`; reads go through
 * views `rm.<table>` that point at the active generation, so a rebuild can fill a new generation
 * while the old one keeps serving (docs/decisions/0005-projection-runner.md).
 *
 * `apply` runs inside the transaction that also moves the checkpoint, so a batch is applied
 * exactly once. Handlers still upsert by key, and must not throw on facts they do not expect.
 */
export type ProjectionContext = {
  readonly tx: DatabaseTransactionConnection;
  /** The table of this generation, e.g. `table('users')` -> "rm_users_3"."users". */
  readonly table: (name: string) => IdentifierSqlToken;
};

export type Projection = {
  /** Lowercase letters, digits and underscores. */
  readonly name: string;
  /** Bump when the tables or the handling change: the runner then rebuilds it blue/green. */
  readonly version: number;
  /** Every table `setup` creates; each gets a view `rm.<table>`. Unique across projections. */
  readonly tables: readonly string[];
  readonly setup: (table: (name: string) => IdentifierSqlToken) => readonly QuerySqlToken[];
  /** Event types this projection reads; others only move its checkpoint. */
  readonly handles: readonly string[];
  readonly apply: (context: ProjectionContext, events: readonly RecordedEvent[]) => Promise<void>;
};

type Handler = (context: ProjectionContext, event: RecordedEvent) => Promise<void>;

/** A projection whose events are handled one at a time, in order. */
export const defineProjection = (definition: Omit<Projection, 'handles' | 'apply'> & { readonly handlers: Readonly<Record<string, Handler>> }): Projection => ({
  name: definition.name,
  version: definition.version,
  tables: definition.tables,
  setup: definition.setup,
  handles: Object.keys(definition.handlers),
  apply: async (context, events) => {
    for (const event of events) await definition.handlers[event.type]?.(context, event);
  },
});

/** Read-your-writes: wait until the named read models have applied everything up to a position. */
export type ReadModelFreshness = {
  waitFor(projections: readonly string[], position: import('../event-store/event-store.port.ts').AllPosition, timeoutMs: number): Promise<boolean>;
};

/** Read-your-writes as a feature asks for it: wait until read models hold a write, or every write so far. */
export type ReadModels = ReadModelFreshness & {
  /** The bounded wait a request may spend on a read model behind its write (READ_WAIT_MS). */
  readonly waitMs: number;
  /** Waits (bounded, `waitMs` unless given) until the named read models (every one when none are named) hold every event stored so far. */
  catchUp(names?: readonly string[], waitMs?: number): Promise<void>;
};
