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
};

export const defineEvent = <const Type extends string, Schema extends z.ZodType>(
  type: Type,
  schema: Schema,
  options: { version?: number; upcasters?: Record<number, (data: unknown) => unknown> } = {},
): EventDefinition<Type, Schema> => ({
  type,
  schema,
  version: options.version ?? 1,
  upcasters: options.upcasters ?? {},
});

/** The event a definition describes, as domain code sees it. */
export type EventOf<D> = D extends EventDefinition<infer T, infer S> ? { type: T; data: z.output<S> } : never;

/** Union of the events of a list of definitions. */
export type EventsOf<Defs extends readonly EventDefinition[]> = EventOf<Defs[number]>;

export type AnyEvent = { type: string; data: unknown };
