-- One row per append (docs/decisions/0041-one-row-per-append.md): an append's events are stored
-- together in one row of es.appends (an append of more than 64 events in rows of 64), so it costs
-- one heap tuple and three index entries however many events it holds. Every event keeps its id,
-- stream revision and global position; es.events becomes a view that shows the log one event per
-- row, as before, for reading.

create table es.appends (
  transaction_id xid8 not null default pg_current_xact_id(),
  -- The global position of the append's last event: the $all cursor skips whole appends by it.
  global_position bigint not null,
  stream_name text not null,
  -- The stream revision of the append's first event; the others follow one by one.
  first_revision bigint not null,
  -- Per event, in append order (all arrays have the same length, lower bound 1).
  positions bigint[] not null,
  event_ids uuid[] not null,
  event_types text[] not null,
  schema_versions integer[] not null,
  data jsonb[] not null,
  metadata jsonb[] not null,
  created_at timestamptz not null default now(),
  constraint appends_pkey primary key (transaction_id, global_position),
  constraint appends_stream_revision_key unique (stream_name, first_revision)
-- No check constraint on the arrays' lengths: es.append_batch is the one writer and builds them
-- together, and a check measured 14 µs an append (about a third of a single event's cost).
) with (toast_tuple_target = 8160);

-- A retried append repeats its event ids: its first one finds it (and a second store of it fails).
create unique index appends_first_event_id_key on es.appends ((event_ids[1]));

-- The log as it was, one row per event, in the order it was written.
insert into es.appends (transaction_id, global_position, stream_name, first_revision, positions, event_ids, event_types, schema_versions, data, metadata, created_at)
select transaction_id, global_position, stream_name, stream_revision, array[global_position], array[event_id], array[event_type], array[schema_version],
       array[data], array[metadata], created_at
  from es.events
 order by transaction_id, global_position;

drop function es.append_batch(text[], bigint[], integer[], uuid[], text[], integer[], jsonb[], jsonb[], boolean);
drop function es.already_appended(text, uuid[]);
drop table es.events;

-- Reading the log one event per row (tools, tests, es.already_appended); the store's own reads
-- number an append's events with generate_series instead (postgres-event-store.ts).
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

-- The last of these events if all of them are stored, in this order, one after another in this
-- stream: a retry after its append went through is answered with that append's result. The first
-- event id finds where it starts (an append written since 0012 is one row; one from before is a row
-- per event).
create function es.already_appended(p_stream text, p_ids uuid[])
returns table (revision bigint, global_position bigint, transaction_id xid8)
language sql stable
as $$
  select max(ev.stream_revision), max(ev.global_position), (array_agg(ev.transaction_id order by ev.stream_revision desc))[1]
    from es.appends s
    join es.events ev on ev.stream_name = s.stream_name
                     and ev.stream_revision between s.first_revision and s.first_revision + cardinality(p_ids) - 1
   where s.event_ids[1] = p_ids[1] and s.stream_name = p_stream
  having array_agg(ev.event_id order by ev.stream_revision) = p_ids
$$;

-- Appends a batch of appends in one transaction (group commit). Each append succeeds or fails on
-- its own expected revision; a failure does not abort the others. Expected revision codes:
-- >= 0 exact, -1 any, -2 no stream, -3 stream exists.
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
  p_data jsonb[],
  p_metadata jsonb[],
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
  chunk_last integer;
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
      if c <= 64 then
        insert into es.appends (global_position, stream_name, first_revision, positions, event_ids, event_types, schema_versions, data, metadata)
        values (pos[c], p_streams[i], v - c + 1, pos, p_ids[first : last], p_types[first : last], p_versions[first : last],
                p_data[first : last], p_metadata[first : last]);
      else
        -- A long append is stored as rows of 64 events, in order: a reader picks an event out of
        -- its row's arrays, and a row of thousands (stored compressed, out of line) would be
        -- unpacked once per event. Readers see the rows as appends one after another.
        k := 1;
        while k <= c loop
          chunk_last := least(k + 63, c);
          insert into es.appends (global_position, stream_name, first_revision, positions, event_ids, event_types, schema_versions, data, metadata)
          values (pos[chunk_last], p_streams[i], v - c + k, pos[k : chunk_last], p_ids[first + k - 1 : first + chunk_last - 1],
                  p_types[first + k - 1 : first + chunk_last - 1], p_versions[first + k - 1 : first + chunk_last - 1],
                  p_data[first + k - 1 : first + chunk_last - 1], p_metadata[first + k - 1 : first + chunk_last - 1]);
          k := chunk_last + 1;
        end loop;
      end if;
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
