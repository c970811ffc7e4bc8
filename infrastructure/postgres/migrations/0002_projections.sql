-- Projection bookkeeping (docs/decisions/0005-projection-runner.md).
create schema if not exists projections;
-- Stable names for read models: views that point at the active generation's tables.
create schema if not exists rm;

-- One row per projection: which generation serves reads.
create table projections.registry (
  name text primary key,
  active_generation integer not null,
  updated_at timestamptz not null default now()
);

-- One row per generation of a projection: its tables live in schema rm_<name>_<generation>.
create table projections.generations (
  name text not null,
  generation integer not null,
  version integer not null,
  checkpoint_commit bigint not null default 0,
  checkpoint_prepare bigint not null default 0,
  events_applied bigint not null default 0,
  status text not null default 'building',
  last_error text,
  last_error_at timestamptz,
  updated_at timestamptz not null default now(),
  primary key (name, generation)
);
