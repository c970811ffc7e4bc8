import type { z } from 'zod';

/**
 * An event type: its name, the schema of its current version and the upcasters that lift older
 * stored versions to the current one. `upcasters[n]` turns version n data into version n + 1 data.
 */
export type EventDefinition<Type extends string = string, Schema extends z.ZodType = z.ZodType> = {
  readonly type: Type;
  readonly version: number;
  readonly schema: Schema;
  readonly upcasters: Readonly<Record<number, (data: unknown) => unknown>>;
  readonly personal?: PersonalFields;
};

/**
 * The fields of an event that are a person's data (decision 0019), and whose they are. The store
 * encrypts these top-level string fields with that person's key, so erasing the key erases them
 * from the log without rewriting it. `owner` answers null when the event belongs to nobody known.
 */
export type PersonalFields = {
  readonly fields: readonly string[];
  readonly owner: (data: Readonly<Record<string, unknown>>, streamName: string) => number | null;
};

/** What a person's erased field reads as, in every read model after a rebuild. */
export const ERASED_PERSON = 'izbrisan uporabnik';

/** The number after the last `-` or `_` of a stream name (`user-12`, `enrollment-3_12`), the usual owner. */
export const ownerFromStream = (streamName: string): number | null => {
  const match = /[-_](\d+)$/.exec(streamName);
  return match ? Number(match[1]) : null;
};

export const defineEvent = <const Type extends string, Schema extends z.ZodType>(
  type: Type,
  schema: Schema,
  options: { version?: number; upcasters?: Record<number, (data: unknown) => unknown>; personal?: PersonalFields } = {},
): EventDefinition<Type, Schema> => ({
  type,
  schema,
  version: options.version ?? 1,
  upcasters: options.upcasters ?? {},
  ...(options.personal ? { personal: options.personal } : {}),
});

/** The event a definition describes, as domain code sees it. */
export type EventOf<D> = D extends EventDefinition<infer T, infer S> ? { type: T; data: z.output<S> } : never;

/** Union of the events of a list of definitions. */
export type EventsOf<Defs extends readonly EventDefinition[]> = EventOf<Defs[number]>;

export type AnyEvent = { type: string; data: unknown };
