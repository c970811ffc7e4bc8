-- The event store (docs/decisions/0002-postgres-event-store.md).
create schema if not exists es;

-- One row per stream: its current revision (revision of its last event, first event = 0).
-- Appends compare-and-set this row, so concurrent writers to one stream serialise on its row lock.
create table es.streams (
  stream_name text primary key,
  revision bigint not null
);

create sequence es.global_position_seq as bigint cache 1;

create table es.events (
  transaction_id xid8 not null default pg_current_xact_id(),
  global_position bigint not null default nextval('es.global_position_seq'),
  stream_name text not null,
  stream_revision bigint not null,
  event_id uuid not null,
  event_type text not null,
  schema_version integer not null,
  data jsonb not null,
  metadata jsonb not null,
  created_at timestamptz not null default now(),
  -- The $all cursor: (transaction_id, global_position). This index serves exactly that read.
  constraint events_pkey primary key (transaction_id, global_position),
  constraint events_stream_revision_key unique (stream_name, stream_revision),
  constraint events_event_id_key unique (event_id)
);

-- The last of these events if all of them are stored, in this order, in this stream: an append
-- retried after it went through (its expected revision no longer holds) is answered with this.
create function es.already_appended(p_stream text, p_ids uuid[])
returns table (revision bigint, global_position bigint, transaction_id xid8)
language sql stable
as $$
  select max(ev.stream_revision), max(ev.global_position), (array_agg(ev.transaction_id))[1]
    from unnest(p_ids) with ordinality as x(id, ord)
    join es.events ev on ev.event_id = x.id and ev.stream_name = p_stream
  having count(*) = cardinality(p_ids) and max(ev.stream_revision) - min(ev.stream_revision) = cardinality(p_ids) - 1
$$;

-- Appends a batch of appends in one transaction (group commit). Each append succeeds or fails on
-- its own expected revision; a failure does not abort the others. Expected revision codes:
-- >= 0 exact, -1 any, -2 no stream, -3 stream exists.
-- Events arrive flattened in append order; p_counts says how many belong to each append.
-- Answers one row per append: status 0 appended (revision of its last event, its global position and
-- the transaction id), 1 conflict (revision = the stream's actual revision, null when no stream),
-- 2 appended before (an idempotent retry: the original revision, position and transaction id).
-- An event id stored before fails the whole statement (unique violation); the adapter then retries
-- the appends one by one and answers an idempotent retry with the original result.
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
  c integer;
  e bigint;
  v bigint;
  d_revision bigint;
  d_position bigint;
  d_tx xid8;
begin
  -- One append after another, each seeing the ones before it (appends to one stream may share a
  -- batch when writers race on a hot stream). The adapter sorts a batch by stream name, so stream
  -- rows are locked in name order and two batches in flight never wait on each other in a cycle.
  -- (A set-based form of this loop was measured slower: docs/benchmarks.md.)
  for i in 1 .. n loop
    c := p_counts[i];
    e := p_expected[i];
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
      if exists (select 1 from es.events ev where ev.event_id = p_ids[first]) then
        select x.revision, x.global_position, x.transaction_id into d_revision, d_position, d_tx
          from es.already_appended(p_streams[i], p_ids[first : first + c - 1]) x;
      end if;
      if d_revision is not null then
        return query select 2::smallint, d_revision, d_position, d_tx;
      else
        return query select 1::smallint, (select st.revision from es.streams st where st.stream_name = p_streams[i]), null::bigint, null::xid8;
      end if;
    else
      return query
      with inserted as (
        insert into es.events (stream_name, stream_revision, event_id, event_type, schema_version, data, metadata)
        select p_streams[i], v - c + u.ord, u.id, u.t, u.ver, u.d, u.m
          from unnest(p_ids[first : first + c - 1], p_types[first : first + c - 1], p_versions[first : first + c - 1],
                      p_data[first : first + c - 1], p_metadata[first : first + c - 1]) with ordinality as u(id, t, ver, d, m, ord)
         order by u.ord
        returning es.events.global_position
      )
      select 0::smallint, v, max(inserted.global_position), pg_current_xact_id() from inserted;
    end if;
    first := first + c;
  end loop;
  if p_notify then
    -- A wake-up hint for projection runners in other processes, delivered on commit.
    perform pg_notify('es_appended', '');
  end if;
end;
$$;
