-- Counters of attempts (logins, token exchanges, codes) per key and fixed window, shared by every
-- API process. Unlogged: losing the counters of the last minute in a crash is harmless.
create unlogged table public.attempts (
  key text not null,
  window_start timestamptz not null,
  count integer not null,
  primary key (key, window_start)
);
