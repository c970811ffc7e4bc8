import { createHmac } from 'node:crypto';
import { ERASED_PERSON, type EventDefinition } from '../../domain/shared/event.ts';
import type { EventStore, NewEvent, RecordedEvent } from '../event-store/event-store.port.ts';
import { decryptFields, encryptFields, envelopeOwner, SEALED_ELSEWHERE } from './field-cipher.ts';
import type { PersonalKeys } from './personal-keys.port.ts';

/** Claim streams whose names carry a person's username, e-mail or social subject (decision 0019). */
const PERSONAL_CLAIMS = ['username', 'useremail', 'socialidentity'];
const HASHED = '~';

type Options = { readonly definitions: readonly EventDefinition[]; readonly keys: PersonalKeys; readonly streamKey: Buffer };

/** What protects people's data on its way into the log; shared by the store and the one-off rewrite of older events. */
export type PersonalDataProtection = {
  /** The name a stream is stored under: claim streams named after a person's value go by a keyed hash of it. */
  storedName(streamName: string): string;
  /** Validated data with each personal field encrypted with its owner's key (or the placeholder, once they were erased). */
  protect(type: string, streamName: string, data: unknown): Promise<unknown>;
  readonly definitions: ReadonlyMap<string, EventDefinition>;
  readonly keys: PersonalKeys;
};

export const createPersonalDataProtection = (options: Options): PersonalDataProtection => {
  const byType = new Map(options.definitions.filter((d) => d.personal).map((d) => [d.type, d]));
  return {
    definitions: byType,
    keys: options.keys,
    storedName(streamName) {
      const dash = streamName.indexOf('-');
      if (dash < 0 || !PERSONAL_CLAIMS.includes(streamName.slice(0, dash)) || streamName[dash + 1] === HASHED) return streamName;
      const value = streamName.slice(dash + 1);
      return `${streamName.slice(0, dash)}-${HASHED}${createHmac('sha256', options.streamKey).update(value).digest('hex').slice(0, 40)}`;
    },
    async protect(type, streamName, raw) {
      const definition = byType.get(type);
      if (!definition?.personal) return raw;
      const data = definition.schema.parse(raw) as Record<string, unknown>;
      return sealFields(definition, options.keys, streamName, data, 'all');
    },
  };
};

/** The envelope of an event's data (its owner and where it sits), or null when its personal fields are plain. */
const envelopeOf = (fields: readonly string[], data: Readonly<Record<string, unknown>>) => {
  for (const field of fields) {
    const value = data[field];
    const owner = typeof value === 'string' ? envelopeOwner(value) : null;
    if (owner !== null) return { owner, value: value as string };
  }
  return null;
};

/**
 * Encrypts the personal fields of valid data, those with a value, in one envelope: always for a new
 * event (whatever a value looks like), or only when still plain for an older stored event (`plain`).
 */
export const sealFields = async (
  definition: EventDefinition,
  keys: PersonalKeys,
  streamName: string,
  data: Record<string, unknown>,
  which: 'all' | 'plain',
) => {
  const personal = definition.personal;
  const owner = personal ? personal.owner(data, streamName) : null;
  if (!personal || owner === null) return data;
  if (which === 'plain' && envelopeOf(personal.fields, data)) return data;
  const present = personal.fields.filter((field) => typeof data[field] === 'string');
  if (present.length === 0) return data;
  const key = await keys.keyFor(owner);
  const sealed = { ...data };
  const envelope = key ? encryptFields(key, owner, Object.fromEntries(present.map((field) => [field, data[field] as string]))) : null;
  for (const [index, field] of present.entries()) sealed[field] = envelope === null ? ERASED_PERSON : index === 0 ? envelope : SEALED_ELSEWHERE;
  return sealed;
};

/**
 * An event store that keeps people's data erasable (decision 0019). On append, each personal field
 * an event type declares is validated and then encrypted with its owner's key (or written as the
 * erased placeholder when that person was erased); on read, it is decrypted, or reads as
 * ERASED_PERSON once the key is gone. Claim streams named after a username or an e-mail are stored
 * under a keyed hash of the value, so the log's stream names reveal neither. Callers see plain
 * values and the names they asked for; everything else passes through to the inner store.
 */
export const createProtectingEventStore = (inner: EventStore, protection: PersonalDataProtection): EventStore => {
  const byType = protection.definitions;
  const protect = async (streamName: string, event: NewEvent): Promise<NewEvent> =>
    byType.has(event.type) ? { ...event, data: await protection.protect(event.type, streamName, event.data) } : event;

  const reveal = async (events: RecordedEvent[]): Promise<RecordedEvent[]> => {
    const found = events.map((event) => {
      const fields = byType.get(event.type)?.personal?.fields;
      return fields ? envelopeOf(fields, event.data as Record<string, unknown>) : null;
    });
    const owners = found.flatMap((envelope) => (envelope ? [envelope.owner] : []));
    if (owners.length === 0) return events;
    const keys = await protection.keys.existingKeys(owners);
    return events.map((event, index) => {
      const envelope = found[index];
      // A person never given a key wrote no envelope: a value that only looks like one is plain.
      if (!envelope || !keys.has(envelope.owner)) return event;
      const fields = byType.get(event.type)?.personal?.fields ?? [];
      const key = keys.get(envelope.owner) ?? null;
      const plain = key ? decryptFields(key, envelope.value) : null;
      if (key && !plain) return event;
      const data = { ...(event.data as Record<string, unknown>) };
      for (const field of fields) {
        if (typeof data[field] !== 'string') continue;
        // Erased: every field that held something reads as the placeholder.
        if (plain === null) data[field] = ERASED_PERSON;
        else if (field in plain) data[field] = plain[field];
      }
      return { ...event, data };
    });
  };

  return {
    async append(streamName, events, appendOptions) {
      const protectedEvents = await Promise.all(events.map((event) => protect(streamName, event)));
      return inner.append(protection.storedName(streamName), protectedEvents, appendOptions);
    },
    async readStream(streamName, readOptions) {
      const read = await inner.readStream(protection.storedName(streamName), readOptions);
      return { ...read, events: await reveal(read.events) };
    },
    async readAll(from, limit) {
      const read = await inner.readAll(from, limit);
      return { ...read, events: await reveal(read.events) };
    },
    headPosition: () => inner.headPosition(),
    onAppended: (listener) => inner.onAppended(listener),
    close: () => inner.close(),
  };
};
