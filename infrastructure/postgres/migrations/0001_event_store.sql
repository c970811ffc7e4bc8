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

-- Appends a batch of appends in one transaction (group commit). Each append succeeds or fails on
-- its own expected revision; a failure does not abort the others. Expected revision codes:
-- >= 0 exact, -1 any, -2 no stream, -3 stream exists.
-- status: 0 appended, 1 conflict (revision = actual, null when no stream), 2 already appended
-- (same event ids in this stream: an idempotent retry, answered with the original result).
create function es.append_batch(
  p_streams text[],
  p_expected bigint[],
  p_counts integer[],
  p_ids uuid[],
  p_types text[],
  p_versions integer[],
  p_data jsonb[],
  p_metadata jsonb[]
) returns table (status smallint, revision bigint, global_position bigint, transaction_id xid8)
language plpgsql
as $$
declare
  i integer;
  n integer;
  off integer := 0;
  s text;
  e bigint;
  v bigint;
  appended boolean := false;
  dup_count integer;
  dup_streams integer;
  dup_revision bigint;
  dup_position bigint;
  dup_tx xid8;
begin
  for i in 1 .. coalesce(array_length(p_streams, 1), 0) loop
    s := p_streams[i];
    n := p_counts[i];
    e := p_expected[i];
    if exists (select 1 from es.events ev where ev.event_id = p_ids[off + 1]) then
      select count(*), count(*) filter (where ev.stream_name = s)
        into dup_count, dup_streams
        from es.events ev where ev.event_id = any (p_ids[off + 1 : off + n]);
      if dup_count = n and dup_streams = n then
        select ev.stream_revision, ev.global_position, ev.transaction_id
          into dup_revision, dup_position, dup_tx
          from es.events ev where ev.event_id = p_ids[off + n];
        status := 2; revision := dup_revision; global_position := dup_position; transaction_id := dup_tx;
      else
        status := 1; revision := (select st.revision from es.streams st where st.stream_name = s);
        global_position := null; transaction_id := null;
      end if;
      return next;
      off := off + n;
      continue;
    end if;

    v := null;
    if e = -1 then
      insert into es.streams as st (stream_name, revision) values (s, n - 1)
        on conflict (stream_name) do update set revision = st.revision + n
        returning st.revision into v;
    elsif e = -2 then
      insert into es.streams as st (stream_name, revision) values (s, n - 1)
        on conflict (stream_name) do nothing
        returning st.revision into v;
    elsif e = -3 then
      update es.streams st set revision = st.revision + n where st.stream_name = s returning st.revision into v;
    else
      update es.streams st set revision = st.revision + n where st.stream_name = s and st.revision = e returning st.revision into v;
    end if;

    if v is null then
      status := 1; revision := (select st.revision from es.streams st where st.stream_name = s);
      global_position := null; transaction_id := null;
      return next;
      off := off + n;
      continue;
    end if;

    with inserted as (
      insert into es.events (stream_name, stream_revision, event_id, event_type, schema_version, data, metadata)
      select s, v - n + u.ord, u.id, u.t, u.ver, u.d, u.m
        from unnest(p_ids[off + 1 : off + n], p_types[off + 1 : off + n], p_versions[off + 1 : off + n],
                    p_data[off + 1 : off + n], p_metadata[off + 1 : off + n]) with ordinality as u(id, t, ver, d, m, ord)
       order by u.ord
      returning es.events.global_position
    )
    select max(inserted.global_position) into global_position from inserted;
    status := 0; revision := v; transaction_id := pg_current_xact_id();
    appended := true;
    return next;
    off := off + n;
  end loop;
  if appended then
    -- A wake-up hint for projection runners, delivered on commit; never the source of truth.
    perform pg_notify('es_appended', '');
  end if;
end;
$$;
