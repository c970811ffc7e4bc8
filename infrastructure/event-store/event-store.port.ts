/**
 * The event store port. Two adapters implement it (postgres/, esdb/) and one contract suite
 * (tests/int/event-store.contract.ts) runs against both.
 *
 * Revisions follow EventStoreDB: the first event of a stream has revision 0, and the expected
 * revision of an append is the revision of the stream's last event.
 */

/** Expected revision of an append: the exact revision of the last event, or a mode. */
export type ExpectedRevision = bigint | 'no_stream' | 'stream_exists' | 'any';

/**
 * A position in `$all`. PostgreSQL: `commit` is the writing transaction's id (xid8) and `prepare`
 * the global position; events are read in (commit, prepare) order below the oldest running
 * transaction, so an event that commits late is never skipped. EventStoreDB: its own commit and
 * prepare positions. Either way the tuple, never one half, is the checkpoint.
 */
export type AllPosition = { readonly commit: bigint; readonly prepare: bigint };

export const START: AllPosition = { commit: 0n, prepare: 0n };

export const comparePositions = (a: AllPosition, b: AllPosition): number =>
  a.commit === b.commit ? (a.prepare === b.prepare ? 0 : a.prepare < b.prepare ? -1 : 1) : a.commit < b.commit ? -1 : 1;

/** The wire form used in the `X-Event-Position` and `X-Min-Position` headers: `<commit>-<prepare>`. */
export const formatPosition = (p: AllPosition) => `${p.commit}-${p.prepare}`;

export const parsePosition = (value: string): AllPosition | null => {
  const match = /^(\d{1,20})-(\d{1,20})$/.exec(value.trim());
  if (!match) return null;
  return { commit: BigInt(match[1] as string), prepare: BigInt(match[2] as string) };
};

export type EventMetadata = {
  /** The acting user (the impersonated one during "log in as"). */
  readonly actorId?: number | null;
  /** The admin behind a "log in as" session. */
  readonly realActorId?: number | null;
  readonly correlationId?: string;
  readonly causationId?: string;
  readonly ip?: string;
  readonly userAgent?: string;
};

export type NewEvent = {
  readonly eventId: string;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: EventMetadata;
};

export type RecordedEvent = {
  readonly eventId: string;
  readonly streamName: string;
  readonly revision: bigint;
  readonly position: AllPosition;
  readonly type: string;
  /** The version the event was stored with; `data` is already upcast to the current version. */
  readonly schemaVersion: number;
  readonly data: unknown;
  readonly metadata: EventMetadata;
  readonly createdAt: Date;
};

export type AppendResult = {
  /** Revision of the stream's last event after the append. */
  readonly nextRevision: bigint;
  /** Position of the last appended event in `$all`. */
  readonly position: AllPosition;
};

export type StreamRead = { readonly revision: bigint | 'no_stream'; readonly events: RecordedEvent[] };

export type StreamReadOptions = { readonly fromRevision?: bigint };

export type AllRead = {
  readonly events: RecordedEvent[];
  /** More events are known beyond what was returned (the limit, or a transaction still open below them). */
  readonly hasMore: boolean;
};

export class ConcurrencyConflictError extends Error {
  readonly streamName: string;
  readonly expected: ExpectedRevision;
  readonly actual: bigint | 'no_stream';

  constructor(streamName: string, expected: ExpectedRevision, actual: bigint | 'no_stream') {
    super(`Concurrency conflict on ${streamName}: expected ${String(expected)}, actual ${String(actual)}`);
    this.name = 'ConcurrencyConflictError';
    this.streamName = streamName;
    this.expected = expected;
    this.actual = actual;
  }
}

export type EventStore = {
  /**
   * Appends atomically. Appending events whose ids are already stored in this stream, in the same
   * order, succeeds again with the original result (idempotent retry).
   */
  append(streamName: string, events: readonly NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult>;
  /** A stream's events in order; with `fromRevision`, only those from that revision on (none: the stream is shorter). */
  readStream(streamName: string, options?: StreamReadOptions): Promise<StreamRead>;
  /** Events strictly after `from`, in `$all` order, at most `limit`. */
  readAll(from: AllPosition, limit: number): Promise<AllRead>;
  /** The position of the last event in `$all` (null when empty), for lag figures. */
  headPosition(): Promise<AllPosition | null>;
  /** A wake-up hint after appends (possibly by other processes). Never the source of truth. */
  onAppended(listener: () => void): () => void;
  close(): Promise<void>;
};

/** Character codes of each byte's two hex digits. */
const HEX_HIGH = Uint8Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0').charCodeAt(0));
const HEX_LOW = Uint8Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0').charCodeAt(1));
/** Random bytes are drawn 4 KiB at a time: one crypto call per 409 ids instead of one per id. */
const RANDOM_POOL = new Uint8Array(4096);
let randomOffset = RANDOM_POOL.length;
/** The id's 36 character codes, hyphens in place; filled again for every id. */
const ID_CODES: number[] = Array.from({ length: 36 }, () => 45);

/** Writes one byte as two hex digits at `at` of ID_CODES; answers the next position, past a hyphen. */
const putByte = (at: number, byte: number): number => {
  ID_CODES[at] = HEX_HIGH[byte & 0xff] as number;
  ID_CODES[at + 1] = HEX_LOW[byte & 0xff] as number;
  const next = at + 2;
  return next === 8 || next === 13 || next === 18 || next === 23 ? next + 1 : next;
};

/**
 * A new event id: a UUID version 7 (RFC 9562), whose leading 48 bits are the time in
 * milliseconds. Ids written one after another land next to each other in the store's unique
 * index instead of at random places, which keeps appends cheap as the store grows. The string is
 * made in one piece from its character codes: joining 20 pieces cost twice the time and left a
 * rope of 20 strings to flatten for every event (every command names its events' ids).
 */
export const newEventId = (): string => {
  if (randomOffset + 10 > RANDOM_POOL.length) {
    crypto.getRandomValues(RANDOM_POOL);
    randomOffset = 0;
  }
  const r = RANDOM_POOL;
  const o = randomOffset;
  randomOffset += 10;
  const now = Date.now();
  const hi = Math.floor(now / 2 ** 32);
  let at = putByte(0, hi >>> 8);
  at = putByte(at, hi);
  at = putByte(at, now >>> 24);
  at = putByte(at, now >>> 16);
  at = putByte(at, now >>> 8);
  at = putByte(at, now);
  at = putByte(at, 0x70 | ((r[o] as number) & 0x0f));
  at = putByte(at, r[o + 1] as number);
  at = putByte(at, 0x80 | ((r[o + 2] as number) & 0x3f));
  for (let i = 3; i < 10; i++) at = putByte(at, r[o + i] as number);
  return String.fromCharCode.apply(null, ID_CODES);
};
