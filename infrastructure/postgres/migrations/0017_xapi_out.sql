-- xAPI out (issue 35 item 5, decision 0061): learning events forwarded as xAPI statements to an external
-- LRS. Not events and not a read model: a delivery's attempts are facts about the wire, not about
-- learning, and a read model rebuilt from the log would forget what was sent.

-- Where statements go ('platform': XAPI_LRS_URL), and how far the log has been read for it.
create table public.xapi_out_destinations (
  id text primary key,
  -- The $all position statements were collected up to: the (commit, prepare) tuple, never one half (decision 0005).
  cursor_commit bigint not null default 0,
  cursor_prepare bigint not null default 0,
  -- A backfill running: events up to here are read again and their statements queued again; null: none.
  replay_until_commit bigint,
  replay_until_prepare bigint,
  -- A backfill from a date: events before it are passed over.
  replay_from timestamptz,
  replay_requested_at timestamptz,
  replay_requested_by integer,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- The opaque name a person goes by in statements: random, so an LRS learns nothing of the platform's
-- ids; null once the person was erased (nothing more of them is sent).
create table public.xapi_out_actors (
  user_id integer primary key,
  name uuid,
  created_at timestamptz not null default now()
);

-- The delivery log: one row per statement and destination. `claimed_by` and `claimed_until` are a
-- worker's lease on a row it is sending, so two workers never send one statement at once.
create table public.xapi_out_deliveries (
  destination text not null references public.xapi_out_destinations (id),
  statement_id uuid not null,
  event_id uuid not null,
  position_commit bigint not null,
  position_prepare bigint not null,
  event_type text not null,
  verb text not null,
  course_id integer,
  user_id integer,
  event_at timestamptz not null,
  statement jsonb not null,
  status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  claimed_by uuid,
  claimed_until timestamptz,
  last_error text,
  last_status integer,
  sent_at timestamptz,
  -- How often the LRS accepted it (a backfill sends it again; the LRS keeps it once).
  accepted integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (destination, statement_id)
);
create index xapi_out_deliveries_due on public.xapi_out_deliveries (destination, next_attempt_at) where status = 'pending';
create index xapi_out_deliveries_log on public.xapi_out_deliveries (destination, position_commit desc, position_prepare desc, statement_id);
create index xapi_out_deliveries_status on public.xapi_out_deliveries (destination, status, position_commit desc, position_prepare desc);
create index xapi_out_deliveries_time on public.xapi_out_deliveries (destination, event_at);
create index xapi_out_deliveries_user on public.xapi_out_deliveries (user_id);
