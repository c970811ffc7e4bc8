-- Event data and metadata stored as json, not jsonb (docs/decisions/0042-event-data-as-json.md):
-- the store writes and reads them whole, as the text the application wrote, and never looks inside
-- them in SQL. jsonb parsed every event on append and printed it again on every read.

drop function es.append_batch(text[], bigint[], integer[], uuid[], text[], integer[], jsonb[], jsonb[], boolean);
drop view es.events;

alter table es.appends
  alter column data type json[] using data::json[],
  alter column metadata type json[] using metadata::json[];

-- No parallel scans of the log: its reads are index ranges of a stream or of the $all cursor, and
-- before autovacuum has analysed a busy table the planner guessed thousands of rows per stream and
-- read a 50-event stream with two parallel workers in 4-5 ms instead of 0.1 (handleCommand fell to
-- a third of its rate in `npm run bench -- append`).
alter table es.appends set (parallel_workers = 0);

-- The log one event per row, for tools and tests (the store's own reads number an append's events
-- with generate_series instead, postgres-event-store.ts). es.already_appended reads it.
create view es.events as
select a.transaction_id,
       u.global_position,
       a.stream_name,
       a.first_revision + u.ord - 1 as stream_revision,
       u.event_id,
       u.event_type,
       u.schema_version,
       u.data,
       u.metadata,
       a.created_at
  from es.appends a
 cross join lateral unnest(a.positions, a.event_ids, a.event_types, a.schema_versions, a.data, a.metadata)
       with ordinality as u(global_position, event_id, event_type, schema_version, data, metadata, ord);

-- As 0012's, with json data, and one loop for every append: a row per 64 events, so an append of up
-- to 64 events is one row. Appends a batch of appends in one transaction (group commit). Each append
-- succeeds or fails on its own expected revision; a failure does not abort the others. Expected
-- revision codes: >= 0 exact, -1 any, -2 no stream, -3 stream exists.
-- Events arrive flattened in append order; p_counts says how many belong to each append.
-- Answers one row per append: status 0 appended (revision of its last event, its global position and
-- the transaction id), 1 conflict (revision = the stream's actual revision, null when no stream),
-- 2 appended before (an idempotent retry: the original revision, position and transaction id).
-- An append whose first event id is stored already fails the whole statement (unique violation);
-- the adapter then retries the appends one by one and answers an idempotent retry with the original result.
create function es.append_batch(
  p_streams text[],
  p_expected bigint[],
  p_counts integer[],
  p_ids uuid[],
  p_types text[],
  p_versions integer[],
  p_data json[],
  p_metadata json[],
  p_notify boolean
) returns table (status smallint, revision bigint, global_position bigint, transaction_id xid8)
language plpgsql
as $$
declare
  n integer := coalesce(array_length(p_streams, 1), 0);
  i integer;
  first integer := 1;
  last integer;
  c integer;
  e bigint;
  v bigint;
  pos bigint[];
  k integer;
  row_last integer;
  lo integer;
  hi integer;
  d_revision bigint;
  d_position bigint;
  d_tx xid8;
begin
  -- One append after another, each seeing the ones before it (appends to one stream may share a
  -- batch when writers race on a hot stream). The adapter sorts a batch by stream name, so stream
  -- rows are locked in name order and two batches in flight never wait on each other in a cycle.
  for i in 1 .. n loop
    c := p_counts[i];
    e := p_expected[i];
    last := first + c - 1;
    v := null;
    if e = -1 then
      insert into es.streams as st (stream_name, revision) values (p_streams[i], c - 1)
        on conflict (stream_name) do update set revision = st.revision + c returning st.revision into v;
    elsif e = -2 then
      insert into es.streams as st (stream_name, revision) values (p_streams[i], c - 1)
        on conflict (stream_name) do nothing returning st.revision into v;
    elsif e = -3 then
      update es.streams st set revision = st.revision + c where st.stream_name = p_streams[i] returning st.revision into v;
    else
      update es.streams st set revision = st.revision + c where st.stream_name = p_streams[i] and st.revision = e returning st.revision into v;
    end if;
    if v is null then
      d_revision := null;
      -- Only a retry can have its first event stored already: one index probe decides.
      if exists (select 1 from es.appends ap where ap.event_ids[1] = p_ids[first]) then
        select x.revision, x.global_position, x.transaction_id into d_revision, d_position, d_tx
          from es.already_appended(p_streams[i], p_ids[first : last]) x;
      end if;
      if d_revision is not null then
        return query select 2::smallint, d_revision, d_position, d_tx;
      else
        return query select 1::smallint, (select st.revision from es.streams st where st.stream_name = p_streams[i]), null::bigint, null::xid8;
      end if;
    else
      -- Positions in append order: the sequence hands them out one by one (no query: a plpgsql
      -- loop of simple expressions costs less than a select per append).
      pos := array[]::bigint[];
      for k in 1 .. c loop
        pos := pos || nextval('es.global_position_seq');
      end loop;
      -- Rows of at most 64 events, in order: a reader picks an event out of its row's arrays, and
      -- a row of thousands (stored compressed, out of line) would be unpacked once per event.
      -- Readers see the rows of a long append as appends one after another.
      k := 1;
      while k <= c loop
        row_last := least(k + 63, c);
        -- The row's events in the batch's arrays, computed once: the bounds spelt out in each
        -- slice cost a few µs an append (an append of one event costs about 50).
        lo := first + k - 1;
        hi := first + row_last - 1;
        insert into es.appends (global_position, stream_name, first_revision, positions, event_ids, event_types, schema_versions, data, metadata)
        values (pos[row_last], p_streams[i], v - c + k, pos[k : row_last], p_ids[lo : hi], p_types[lo : hi], p_versions[lo : hi],
                p_data[lo : hi], p_metadata[lo : hi]);
        k := row_last + 1;
      end loop;
      -- return next, not return query: no query per append.
      status := 0;
      revision := v;
      global_position := pos[c];
      transaction_id := pg_current_xact_id();
      return next;
    end if;
    first := last + 1;
  end loop;
  if p_notify then
    -- A wake-up hint for projection runners in other processes, delivered on commit.
    perform pg_notify('es_appended', '');
  end if;
end;
$$;
