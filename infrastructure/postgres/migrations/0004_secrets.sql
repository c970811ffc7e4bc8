-- Secrets generated on first start and shared by every process on this database (e.g. the JWT key
-- when JWT_SECRET is not configured), so tokens survive restarts and work across processes.
create table public.app_secrets (
  name text primary key,
  value text not null,
  created_at timestamptz not null default now()
);
