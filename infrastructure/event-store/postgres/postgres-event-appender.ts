import type pg from 'pg';
import { int4Array, int8Array, isUuid, PG_TYPE, stringArray, uuidArray } from '../../postgres/binary-arrays.ts';
import type { EventCodec } from '../event-codec.ts';
import { type AppendResult, ConcurrencyConflictError, type EventStore, type ExpectedRevision, type NewEvent } from '../event-store.port.ts';
import { type BatchLimits, mayStartBatch, takeBatch } from './append-batches.ts';

type Pending = {
  readonly streamName: string;
  readonly expected: ExpectedRevision;
  readonly events: readonly { eventId: string; type: string; schemaVersion: number; data: string; metadata: string }[];
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: unknown) => void;
};

export type PostgresEventAppenderOptions = {
  readonly pool: pg.Pool;
  readonly codec: EventCodec;
  readonly limits: BatchLimits;
  /** An append of this process stored events (not only found them stored before). */
  readonly onAppended: () => void;
  readonly notifyIntervalMs?: number | undefined;
};

const APPEND_SQL = {
  name: 'es_append_batch',
  text: `select status, revision::text as revision, global_position::text as global_position, transaction_id::text as transaction_id
           from es.append_batch($1::text[], $2::bigint[], $3::int[], $4::uuid[], $5::text[], $6::int[], $7::json[], $8::json[], $9::boolean)`,
};

const ALREADY_APPENDED_SQL = {
  name: 'es_already_appended',
  text: `select revision::text as revision, global_position::text as global_position, transaction_id::text as transaction_id
           from es.already_appended($1, $2::uuid[])`,
};

/** Cross-process wake-ups are sent at most this often; a trailing one follows a skipped one. */
const NOTIFY_INTERVAL_MS = 5;

const MAX_BIGINT = 2n ** 63n - 1n;

const expectedCode = (expected: ExpectedRevision): bigint => {
  switch (expected) {
    case 'any':
      return -1n;
    case 'no_stream':
      return -2n;
    case 'stream_exists':
      return -3n;
    default:
      if (expected < 0n) throw new RangeError('Expected revision must not be negative');
      if (expected > MAX_BIGINT) throw new RangeError('Expected revision out of range');
      return expected;
  }
};

const UNIQUE_VIOLATION = '23505';

/**
 * The appending side of the PostgreSQL event store: appends queue up and are written in batches
 * (group commit, append-batches.ts), each batch one call of es.append_batch.
 */
export const createPostgresEventAppender = ({
  pool,
  codec,
  limits,
  onAppended,
  notifyIntervalMs = NOTIFY_INTERVAL_MS,
}: PostgresEventAppenderOptions): Pick<EventStore, 'append'> & { close(): void } => {
  /** Batches in flight per stream name. */
  const streamsInFlight = new Map<string, number>();
  const queue: Pending[] = [];
  let inFlight = 0;
  let lastNotifyAt = 0;
  let trailingNotify: NodeJS.Timeout | null = null;

  /**
   * NOTIFY costs a lock at commit: send it with a batch at most every few ms. A batch that skipped it
   * owes a trailing one, scheduled only once that batch has committed (issue 38): a trailing NOTIFY
   * sent before the commit it announces wakes a listener that reads nothing yet and then sleeps out
   * its idle poll.
   */
  const takeNotify = (): boolean => {
    const now = Date.now();
    if (now - lastNotifyAt >= notifyIntervalMs) {
      lastNotifyAt = now;
      return true;
    }
    return false;
  };

  const sendTrailingNotify = () => {
    if (trailingNotify) return;
    trailingNotify = setTimeout(() => {
      trailingNotify = null;
      lastNotifyAt = Date.now();
      pool.query("select pg_notify('es_appended', '')").catch(() => undefined);
    }, notifyIntervalMs);
    trailingNotify.unref();
  };

  /** The original result of an append whose events are all stored already (an idempotent retry), else null. */
  const findAppended = async (append: Pending): Promise<AppendResult | null> => {
    const found = await pool.query<{ revision: string; global_position: string; transaction_id: string }>({
      ...ALREADY_APPENDED_SQL,
      values: [append.streamName, append.events.map((e) => e.eventId)],
    });
    const row = found.rows[0];
    return row ? { nextRevision: BigInt(row.revision), position: { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) } } : null;
  };

  const runBatch = async (batch: readonly Pending[], stored: () => void = () => undefined): Promise<void> => {
    const streams: string[] = [];
    const expected: bigint[] = [];
    const counts: number[] = [];
    const ids: string[] = [];
    const types: string[] = [];
    const versions: number[] = [];
    const data: string[] = [];
    const metadata: string[] = [];
    for (const append of batch) {
      streams.push(append.streamName);
      expected.push(expectedCode(append.expected));
      counts.push(append.events.length);
      for (const event of append.events) {
        ids.push(event.eventId);
        types.push(event.type);
        versions.push(event.schemaVersion);
        data.push(event.data);
        metadata.push(event.metadata);
      }
    }
    // Arrays in the binary wire format (decision 0043): no escaping of the event JSON here, no
    // character-by-character array parsing in PostgreSQL. Built before a connection is taken.
    const notify = takeNotify();
    const values = [
      stringArray(PG_TYPE.text, streams),
      int8Array(expected),
      int4Array(counts),
      uuidArray(ids),
      stringArray(PG_TYPE.text, types),
      int4Array(versions),
      stringArray(PG_TYPE.json, data),
      stringArray(PG_TYPE.json, metadata),
      notify,
    ];
    // A checked-out client, released normally after an expected server error: pool.query() would
    // destroy the connection on any error and every conflict would cost a reconnect.
    const client = await pool.connect();
    let result: pg.QueryResult<{ status: number; revision: string | null; global_position: string | null; transaction_id: string | null }>;
    try {
      result = await client.query({ ...APPEND_SQL, values });
      client.release();
      if (!notify) sendTrailingNotify();
    } catch (error) {
      client.release(isServerError(error) ? undefined : (error as Error));
      throw error;
    }
    let appended = false;
    // Its streams are free before its writers hear back, so their next appends may join a batch at once.
    stored();
    for (const [i, append] of batch.entries()) {
      const row = result.rows[i];
      if (!row) {
        append.reject(new Error('Append batch returned fewer rows than appends'));
      } else if (row.status === 1) {
        append.reject(new ConcurrencyConflictError(append.streamName, append.expected, row.revision === null ? 'no_stream' : BigInt(row.revision)));
      } else {
        // 0: appended now; 2: appended before (an idempotent retry), answered as the original was.
        appended ||= row.status === 0;
        append.resolve({
          nextRevision: BigInt(row.revision as string),
          position: { commit: BigInt(row.transaction_id as string), prepare: BigInt(row.global_position as string) },
        });
      }
    }
    if (appended) onAppended();
  };

  const flush = async (batch: Pending[], stored?: () => void): Promise<void> => {
    try {
      await runBatch(batch, stored);
    } catch (error) {
      if (batch.length > 1 && isServerError(error)) {
        // One bad append (e.g. an event id stored before) must not fail its neighbours.
        for (const append of batch) await flush([append]);
        return;
      }
      const [append] = batch;
      if (batch.length === 1 && append && isUniqueViolation(error)) {
        const original = await findAppended(append).catch(() => null);
        if (original) append.resolve(original);
        else append.reject(new ConcurrencyConflictError(append.streamName, append.expected, await currentRevision(append.streamName)));
        return;
      }
      for (const pending of batch) pending.reject(error);
    }
  };

  const pump = () => {
    while (mayStartBatch(queue, { batches: inFlight, streams: streamsInFlight }, limits)) {
      const batch = takeBatch(queue, { batches: inFlight, streams: streamsInFlight }, limits);
      inFlight++;
      for (const append of batch) streamsInFlight.set(append.streamName, (streamsInFlight.get(append.streamName) ?? 0) + 1);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        for (const append of batch) {
          const left = (streamsInFlight.get(append.streamName) ?? 1) - 1;
          if (left === 0) streamsInFlight.delete(append.streamName);
          else streamsInFlight.set(append.streamName, left);
        }
      };
      void flush(batch, release).finally(() => {
        release();
        inFlight--;
        // After the writers whose appends just resolved have queued their next ones (promise
        // continuations run before setImmediate), so the next batch is full rather than a stub.
        setImmediate(pump);
      });
    }
  };

  const currentRevision = async (streamName: string): Promise<bigint | 'no_stream'> => {
    const result = await pool.query<{ revision: string }>('select revision::text as revision from es.streams where stream_name = $1', [streamName]);
    const row = result.rows[0];
    return row ? BigInt(row.revision) : 'no_stream';
  };

  return {
    append(streamName, events, { expectedRevision }) {
      if (events.length === 0) return Promise.reject(new RangeError('Nothing to append'));
      // The database keeps the first event id of every append unique (decision 0041); the others
      // are fresh UUIDs, and one append naming an id twice is refused here.
      if (namesAnIdTwice(events)) {
        return Promise.reject(new RangeError('An append names one event id twice'));
      }
      // Checked here, so a malformed id fails its own append and not the batch it would have joined.
      const malformed = events.find((e) => !isUuid(e.eventId));
      if (malformed) return Promise.reject(new RangeError(`Event id is not a UUID: ${malformed.eventId.slice(0, 40)}`));
      let encoded: Pending['events'];
      try {
        // A command's events usually share one metadata object: written out once.
        let metadataJson = '';
        encoded = events.map((event: NewEvent, i) => {
          const { schemaVersion, data } = codec.encode(event.type, event.data);
          if (i === 0 || event.metadata !== events[i - 1]?.metadata) metadataJson = JSON.stringify(event.metadata);
          return { eventId: event.eventId, type: event.type, schemaVersion, data: JSON.stringify(data), metadata: metadataJson };
        });
        expectedCode(expectedRevision);
      } catch (error) {
        return Promise.reject(error);
      }
      return new Promise<AppendResult>((resolve, reject) => {
        queue.push({ streamName, expected: expectedRevision, events: encoded, resolve, reject });
        pump();
      });
    },

    close() {
      if (trailingNotify) clearTimeout(trailingNotify);
    },
  };
};

/** Pairwise for a command's few events (no Set and array built per append), a Set for long appends. */
const namesAnIdTwice = (events: readonly NewEvent[]): boolean => {
  const n = events.length;
  if (n > 16) return new Set(events.map((e) => e.eventId)).size !== n;
  for (let i = 1; i < n; i++) {
    const id = (events[i] as NewEvent).eventId;
    for (let j = 0; j < i; j++) if ((events[j] as NewEvent).eventId === id) return true;
  }
  return false;
};

const isServerError = (error: unknown) =>
  typeof error === 'object' &&
  error !== null &&
  'code' in error &&
  typeof (error as { code: unknown }).code === 'string' &&
  /^[0-9A-Z]{5}$/.test((error as { code: string }).code);

const isUniqueViolation = (error: unknown) => isServerError(error) && (error as { code: string }).code === UNIQUE_VIOLATION;
