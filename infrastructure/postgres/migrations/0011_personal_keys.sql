-- One data key per person (decision 0019), outside the event log: their personal fields in events are
-- encrypted with it. The key is stored wrapped (sealed with the platform's key). Erasure drops the key
-- and keeps the row as a tombstone (erased_at), so no new key is ever made for an erased person.
create table public.personal_keys (
  user_id integer primary key,
  wrapped text,
  created_at timestamptz not null default now(),
  erased_at timestamptz,
  constraint personal_keys_erased check ((wrapped is null) = (erased_at is not null))
);

-- One-off steps of the personal data protection done on this database (protect-existing-events.ts).
create table public.personal_data_steps (
  name text primary key,
  done_at timestamptz not null default now()
);
