-- SCORM and cmi5 packages (issue 35, decision 0059). Like files, a package never changes once
-- stored: a block names it by id, and its files are stored through the file store (one row each).
create table public.content_packages (
  id bigserial primary key,
  -- The uploaded zip, kept as it came (files.id).
  file_id bigint not null references public.files (id),
  standard text not null check (standard in ('scorm12', 'scorm2004', 'cmi5')),
  version text not null,
  title text not null,
  -- PackageStructure (domain/packages/package-structure.ts).
  structure jsonb not null,
  entries integer not null,
  unpacked_bytes bigint not null,
  created_by integer,
  created_at timestamptz not null default now()
);

create table public.content_package_files (
  package_id bigint not null references public.content_packages (id) on delete cascade,
  path text not null,
  -- Null for an empty file (the file store keeps no empty files).
  file_id bigint references public.files (id),
  content_type text not null,
  size bigint not null,
  primary key (package_id, path)
);

-- A participant's launch of a package item: the tokens package code holds (hashed here, never the
-- tokens themselves) and what they reach. Not events: a launch is a capability, not a fact of learning;
-- what the package reports is recorded as events of the enrollment.
create table public.content_launches (
  registration uuid primary key,
  session_id uuid not null,
  package_id bigint not null references public.content_packages (id),
  course_id integer not null,
  block_id integer not null,
  user_id integer not null,
  item_id text not null,
  standard text not null,
  activity_id text not null,
  move_on text,
  mastery_score double precision,
  launch_parameters text,
  content_token_hash text not null unique,
  fetch_token_hash text unique,
  fetch_redeemed_at timestamptz,
  auth_token_hash text unique,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index content_launches_user on public.content_launches (user_id, course_id, block_id);
