-- Uploaded files (signature images, attachments): bytes are not events; events refer to a file by id.
-- A file never changes once stored, so an event that names it always means the same bytes.
create table public.files (
  id bigserial primary key,
  name text not null,
  content_type text not null,
  size integer not null check (size > 0),
  sha256 text not null,
  bytes bytea not null,
  created_by integer,
  created_at timestamptz not null default now()
);
