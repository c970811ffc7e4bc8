import type { EventDefinition } from '../../domain/shared/event.ts';

/**
 * Validates events against their zod schema when they are written, and lifts stored older
 * versions to the current one when they are read. Rows are not re-validated on read: the store
 * only holds what passed the schema when written, and a catch-up read must stay cheap.
 */
export type EventCodec = {
  encode(type: string, data: unknown): { schemaVersion: number; data: unknown };
  decode(type: string, schemaVersion: number, data: unknown): unknown;
};

export class UnknownEventTypeError extends Error {
  constructor(type: string) {
    super(`Unknown event type ${type}`);
    this.name = 'UnknownEventTypeError';
  }
}

export const createEventCodec = (definitions: readonly EventDefinition[]): EventCodec => {
  const byType = new Map<string, EventDefinition>();
  for (const definition of definitions) {
    if (byType.has(definition.type)) throw new Error(`Event type ${definition.type} is defined twice`);
    byType.set(definition.type, definition);
  }
  return {
    encode(type, data) {
      const definition = byType.get(type);
      if (!definition) throw new UnknownEventTypeError(type);
      return { schemaVersion: definition.version, data: definition.schema.parse(data) };
    },
    decode(type, schemaVersion, data) {
      const definition = byType.get(type);
      // An event type no code knows any more is passed through; projections ignore what they do not handle.
      if (!definition || schemaVersion === definition.version) return data;
      let current = data;
      for (let version = schemaVersion; version < definition.version; version++) {
        const upcast = definition.upcasters[version];
        if (!upcast) throw new Error(`No upcaster for ${type} from version ${version}`);
        current = upcast(current);
      }
      return definition.schema.parse(current);
    },
  };
};
