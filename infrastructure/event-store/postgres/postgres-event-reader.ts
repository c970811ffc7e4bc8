import type pg from 'pg';
import type { EventCodec } from '../event-codec.ts';
import type { AllPosition, AllRead, EventMetadata, EventStore, RecordedEvent, StreamRead } from '../event-store.port.ts';

// An append is one row of es.appends (decision 0041). Its events are numbered by one
// generate_series in the select list and picked out of its arrays by that number: measured
// faster than unnesting each array (one set-returning function per row instead of seven) and
// far faster than unnest in FROM (a tuplestore per append).
const appendsNumbered = (where: string, order: string) => `
  select a.*, generate_series(1, cardinality(a.event_ids)) as ord
    from es.appends a
   where ${where}
   order by ${order}`;
const EVENT_COLUMNS = `x.event_ids[x.ord] as event_id, x.stream_name, (x.first_revision + x.ord - 1)::text as revision,
       x.transaction_id::text as commit, x.positions[x.ord]::text as prepare, x.event_types[x.ord] as event_type,
       x.schema_versions[x.ord] as schema_version, x.data[x.ord] as data, x.metadata[x.ord] as metadata,
       (extract(epoch from x.created_at) * 1000)::float8 as created_at`;

const READ_STREAM_SQL = {
  name: 'es_read_stream',
  text: `select ${EVENT_COLUMNS}
           from (${appendsNumbered('a.stream_name = $1', 'a.first_revision')}) x
          order by x.first_revision, x.ord`,
};

// The events from a revision on: from the append holding it (one probe of the (stream_name,
// first_revision) index), so a long stream costs what its newest events cost.
const READ_STREAM_FROM_SQL = {
  name: 'es_read_stream_from',
  text: `select ${EVENT_COLUMNS}
           from (${appendsNumbered(
             `a.stream_name = $1 and a.first_revision >= coalesce((select max(b.first_revision) from es.appends b where b.stream_name = $1 and b.first_revision <= $2::bigint), 0)`,
             'a.first_revision',
           )}) x
          where x.first_revision + x.ord - 1 >= $2::bigint
          order by x.first_revision, x.ord`,
};

// The horizon is the oldest transaction still running: events of transactions at or above it
// may still be joined by events of a lower global position that commit later, so the reader stops there.
// An append's global_position is that of its last event, so the appends with an event after the
// cursor are one index range; the cursor may fall inside the first of them (a page ended there).
// Within an append the order is generate_series's, as the select list emits it, not a sort: a
// sort on (append, ord) cost 10-15 % of the read. readAll checks every page for it (ordinals
// one after another within an append, 1 at each new one, and a page that starts inside an
// append starts right after the cursor), so a plan that ever emitted otherwise fails loudly
// instead of skipping an event.
const READ_ALL_SQL = {
  name: 'es_read_all',
  text: `select e.*, h.horizon::text as horizon
           from (select pg_snapshot_xmin(pg_current_snapshot()) as horizon) h
           cross join lateral (
             select ${EVENT_COLUMNS}, x.ord, x.global_position::text as append_position, x.positions[x.ord - 1]::text as prepare_before
               from (${appendsNumbered('(a.transaction_id, a.global_position) > ($1::xid8, $2::bigint)', 'a.transaction_id, a.global_position')}) x
              where (x.transaction_id, x.positions[x.ord]) > ($1::xid8, $2::bigint)
              order by x.transaction_id, x.global_position
              limit $3) e`,
};

type EventRow = {
  event_id: string;
  stream_name: string;
  revision: string;
  commit: string;
  prepare: string;
  event_type: string;
  schema_version: number;
  data: unknown;
  metadata: EventMetadata;
  created_at: number;
};

export type PostgresEventReader = Pick<EventStore, 'readStream' | 'readAll' | 'headPosition'>;

/** The reading side of the PostgreSQL event store: a stream, `$all` up to the read horizon, the head. */
export const createPostgresEventReader = ({ pool, codec }: { readonly pool: pg.Pool; readonly codec: EventCodec }): PostgresEventReader => {
  const toRecorded = (row: EventRow): RecordedEvent => ({
    eventId: row.event_id,
    streamName: row.stream_name,
    revision: BigInt(row.revision),
    position: { commit: BigInt(row.commit), prepare: BigInt(row.prepare) },
    type: row.event_type,
    schemaVersion: row.schema_version,
    data: codec.decode(row.event_type, row.schema_version, row.data),
    metadata: row.metadata,
    createdAt: new Date(row.created_at),
  });

  return {
    async readStream(streamName, options): Promise<StreamRead> {
      const from = options?.fromRevision;
      const result =
        from === undefined
          ? await pool.query<EventRow>({ ...READ_STREAM_SQL, values: [streamName] })
          : await pool.query<EventRow>({ ...READ_STREAM_FROM_SQL, values: [streamName, from.toString()] });
      const events = result.rows.map(toRecorded);
      const last = events.at(-1);
      return { revision: last ? last.revision : 'no_stream', events };
    },

    async readAll(from: AllPosition, limit: number): Promise<AllRead> {
      const result = await pool.query<EventRow & { horizon: string; ord: number; append_position: string; prepare_before: string | null }>({
        ...READ_ALL_SQL,
        values: [from.commit.toString(), from.prepare.toString(), limit],
      });
      const rows = result.rows;
      const first = rows[0];
      if (!first) return { events: [], hasMore: false };
      const horizon = BigInt(first.horizon);
      const events: RecordedEvent[] = [];
      let previous = first;
      for (const row of rows) {
        const inOrder =
          row === first
            ? row.ord === 1 || (BigInt(row.commit) === from.commit && row.prepare_before === from.prepare.toString())
            : row.commit === previous.commit && row.append_position === previous.append_position
              ? row.ord === previous.ord + 1
              : row.ord === 1;
        if (!inOrder) {
          throw new Error(`$all page out of append order after ${previous.commit}-${previous.prepare}`);
        }
        previous = row;
        if (BigInt(row.commit) >= horizon) return { events, hasMore: true };
        events.push(toRecorded(row));
      }
      return { events, hasMore: rows.length === limit };
    },

    async headPosition() {
      const result = await pool.query<{ commit: string; prepare: string }>(
        'select transaction_id::text as commit, global_position::text as prepare from es.appends order by transaction_id desc, global_position desc limit 1',
      );
      const row = result.rows[0];
      return row ? { commit: BigInt(row.commit), prepare: BigInt(row.prepare) } : null;
    },
  };
};
